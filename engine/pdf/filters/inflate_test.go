package filters

import (
	"bytes"
	"errors"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/filter"
)

// viaPdfcpu decodes with pdfcpu's flate filter, as apply did before the
// inflater: the reference the inflater is checked against.
func viaPdfcpu(data []byte, limit int64) ([]byte, error) {
	f, _ := filter.NewFilter(filter.Flate, nil, limit)
	r, err := decodeSafely(f, data)
	if err != nil {
		if errors.Is(err, filter.ErrDecodeLimitExceeded) {
			return nil, err
		}
		return rawFallback(data, limit, err)
	}
	return r.(*bytes.Buffer).Bytes(), nil
}

// checkInflater decodes each input with one reused inflater and with
// pdfcpu, and compares output and error (by presence and kind).
func checkInflater(t *testing.T, limit int64, inputs ...[]byte) {
	t.Helper()
	var z inflater
	for i, data := range inputs {
		got, gerr := z.apply(filter.Flate, nil, data, limit)
		want, werr := viaPdfcpu(data, limit)
		if !bytes.Equal(got, want) || (gerr == nil) != (werr == nil) ||
			errors.Is(gerr, filter.ErrDecodeLimitExceeded) != errors.Is(werr, filter.ErrDecodeLimitExceeded) {
			t.Fatalf("input %d (limit %d): inflater %d bytes, %v; pdfcpu %d bytes, %v", i, limit, len(got), gerr, len(want), werr)
		}
	}
}

func TestInflaterMatchesPdfcpu(t *testing.T) {
	plain := bytes.Repeat([]byte("0 0 1 rg 10 10 50 50 re f BT /F1 9 Tf (text) Tj ET\n"), 400)
	good := zl(plain)
	bad := append([]byte(nil), good...)
	bad[len(bad)-1] ^= 0xff // checksum
	truncated := good[:len(good)/2]
	for _, limit := range []int64{1, 100, int64(len(plain)) - 1, int64(len(plain)), int64(len(plain)) + 1, 8 << 20} {
		checkInflater(t, limit, good, bad, truncated, []byte{}, []byte{0x78}, good[2:], []byte("not zlib at all"), good)
	}
}

func FuzzInflater(f *testing.F) {
	f.Add(zl([]byte("hello hello hello")), int64(12))
	f.Add(zl([]byte("hello"))[:6], int64(100))
	f.Add([]byte{0x78, 0x9c, 0x03, 0x00}, int64(1))
	f.Fuzz(func(t *testing.T, data []byte, limit int64) {
		if limit <= 0 || limit > 1<<20 {
			limit = 1 << 20
		}
		checkInflater(t, limit, data, zl([]byte("between")), data)
	})
}
