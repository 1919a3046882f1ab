package filters

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/pdfcpu/pdfcpu/pkg/filter"
)

// inflater decodes FlateDecode streams without a predictor, the bulk of a
// PDF's streams, reusing one zlib reader (its 32 KB window and tables) and
// one output buffer across the streams of an inspection, where pdfcpu's
// filter allocates both per stream. Its results, errors included, are
// those of pdfcpu's flate filter (DecodeLength, passThru, copyDecoded);
// TestInflaterMatchesPdfcpu and FuzzDecode check that.
type inflater struct {
	src bytes.Reader
	zr  io.ReadCloser
	buf bytes.Buffer
}

// handles reports whether the inflater decodes this filter: Flate without
// a predictor, under a limit pdfcpu applies through a LimitedReader.
func (z *inflater) handles(name string, parms map[string]int, limit int64) bool {
	if name != filter.Flate || limit <= 0 || limit == math.MaxInt64 {
		return false
	}
	p, found := parms["Predictor"]
	return !found || p == filter.PredictorNo
}

// decode inflates data into a new slice of exactly the decoded length.
func (z *inflater) decode(data []byte, limit int64) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			// As decodeSafely: a fault on hostile data is an error. The
			// reader may be in any state: start afresh next time.
			z.zr, out, err = nil, nil, ErrUnsupported
		}
	}()
	z.src.Reset(data)
	if z.zr == nil {
		zr, err := zlib.NewReader(&z.src)
		if err != nil {
			return nil, err
		}
		z.zr = zr
	} else if err := z.zr.(zlib.Resetter).Reset(&z.src, nil); err != nil {
		return nil, err
	}
	z.buf.Reset()
	_, err = io.Copy(&z.buf, &io.LimitedReader{R: z.zr, N: limit + 1})
	switch {
	case errors.Is(err, zlib.ErrChecksum):
		return nil, fmt.Errorf("flate decode: %w", err)
	case err == io.ErrUnexpectedEOF:
		// pdfcpu keeps what was read, unchecked against the limit.
	case err != nil:
		return nil, err
	case int64(z.buf.Len()) > limit:
		return nil, filter.ErrDecodeLimitExceeded
	}
	out = make([]byte, z.buf.Len())
	copy(out, z.buf.Bytes())
	return out, nil
}
