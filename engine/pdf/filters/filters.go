// Package filters decodes PDF stream data through pdfcpu's filter
// implementations under one decompression budget per inspection, so a
// 10 KB stream that inflates to gigabytes stops at the budget instead of
// exhausting memory.
package filters

import (
	"bytes"
	"compress/flate"
	"errors"
	"io"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/pdfcpu/pdfcpu/pkg/filter"
)

// Errors returned by Decode.
var (
	// ErrBudget means the inspection's decompression budget is spent.
	ErrBudget = errors.New("filters: decompression budget exhausted")
	// ErrImage means the chain ends in an image codec (DCT, JPX, JBIG2,
	// CCITT): the data is pixels, which the engine never decodes.
	ErrImage = errors.New("filters: image codec not decoded")
	// ErrUnsupported is an unknown or malformed filter chain.
	ErrUnsupported = errors.New("filters: unsupported filter")
)

// maxChain bounds the number of filters applied to one stream.
const maxChain = 8

// DefaultStreamLimit caps what one stream may expand to. Decoding holds a
// stream whole in memory (and a growing buffer briefly twice), so this cap,
// not the inspection's total budget, bounds peak memory.
const DefaultStreamLimit = 8 << 20

// Budget is the decompression allowance of one inspection. It counts every
// byte a filter produces; ExpandedBytes of the report is Used.
type Budget struct {
	Limit     int64 // total bytes all streams may produce
	Stream    int64 // bytes one stream may produce
	Used      int64
	Exhausted bool // the total was reached: later streams are refused
	// Refused counts streams not decoded, or cut, because a limit was hit.
	Refused int

	// inflate is decoder state reused across the inspection's streams.
	inflate inflater
}

// NewBudget returns a budget of limit bytes in total and the default cap
// per stream.
func NewBudget(limit int64) *Budget {
	return &Budget{Limit: limit, Stream: min(limit, DefaultStreamLimit)}
}

func (b *Budget) remaining() int64 { return max(0, b.Limit-b.Used) }

// allowance is what the next stream may produce.
func (b *Budget) allowance() int64 {
	if b.Stream > 0 {
		return min(b.remaining(), b.Stream)
	}
	return b.remaining()
}

var abbreviations = map[cos.Name]string{
	"AHx": filter.ASCIIHex, "A85": filter.ASCII85, "LZW": filter.LZW, "Fl": filter.Flate,
	"RL": filter.RunLength, "CCF": filter.CCITTFax, "DCT": filter.DCT,
}

func isImageCodec(name string) bool {
	switch name {
	case filter.DCT, filter.JPX, filter.JBIG2, filter.CCITTFax:
		return true
	}
	return false
}

// Chain returns the stream's filter names (abbreviations expanded) and
// their parameter dictionaries. resolve dereferences indirect objects.
func Chain(d *cos.Dict, resolve func(cos.Object) cos.Object) ([]string, []*cos.Dict) {
	if resolve == nil {
		resolve = func(o cos.Object) cos.Object { return o }
	}
	var names []string
	var parms []*cos.Dict
	f := resolve(d.Get("Filter"))
	p := resolve(d.Get("DecodeParms"))
	if p == nil {
		p = resolve(d.Get("DP"))
	}
	switch v := f.(type) {
	case cos.Name:
		names = append(names, expand(v))
		pd, _ := resolve(p).(*cos.Dict)
		if pa, ok := p.(cos.Array); ok && len(pa) > 0 {
			pd, _ = resolve(pa[0]).(*cos.Dict)
		}
		parms = append(parms, pd)
	case cos.Array:
		pa, _ := p.(cos.Array)
		for i, o := range v {
			if i >= maxChain {
				break
			}
			n, ok := resolve(o).(cos.Name)
			if !ok {
				names = append(names, "")
				parms = append(parms, nil)
				continue
			}
			names = append(names, expand(n))
			var pd *cos.Dict
			if i < len(pa) {
				pd, _ = resolve(pa[i]).(*cos.Dict)
			}
			parms = append(parms, pd)
		}
	}
	return names, parms
}

func expand(n cos.Name) string {
	if full, ok := abbreviations[n]; ok {
		return full
	}
	return string(n)
}

// Decode applies the filter chain of a stream dictionary to raw. It stops at
// an image codec (ErrImage, data not decoded) and charges every produced byte
// to budget; once the budget is spent it returns ErrBudget without work.
// Data a filter recovered before a corruption is returned with the error.
func Decode(raw []byte, d *cos.Dict, resolve func(cos.Object) cos.Object, budget *Budget) ([]byte, error) {
	names, parms := Chain(d, resolve)
	data := raw
	for i, name := range names {
		if name == "Crypt" {
			continue // Identity crypt filter; real crypt filters never reach here
		}
		if isImageCodec(name) {
			return data, ErrImage
		}
		if budget.Exhausted || budget.remaining() == 0 {
			budget.Exhausted = true
			budget.Refused++
			return nil, ErrBudget
		}
		allowance := budget.allowance()
		out, err := budget.inflate.apply(name, parms[i], data, allowance)
		budget.Used += int64(len(out))
		if errors.Is(err, filter.ErrDecodeLimitExceeded) {
			budget.Refused++
			budget.Used += allowance // what the filter produced before it was stopped
			if budget.remaining() == 0 {
				budget.Exhausted = true
			}
			return nil, ErrBudget
		}
		if err != nil {
			return out, err
		}
		data = out
	}
	return data, nil
}

// apply runs one filter through the inflater or pdfcpu.
func (z *inflater) apply(name string, parms *cos.Dict, data []byte, limit int64) ([]byte, error) {
	ip := intParms(parms)
	if z.handles(name, ip, limit) {
		out, err := z.decode(data, limit)
		if err != nil && !errors.Is(err, filter.ErrDecodeLimitExceeded) {
			return rawFallback(data, limit, err)
		}
		return out, err
	}
	f, err := filter.NewFilter(name, ip, limit)
	if err != nil {
		return nil, ErrUnsupported
	}
	r, err := decodeSafely(f, data)
	if err != nil && name == filter.Flate && !errors.Is(err, filter.ErrDecodeLimitExceeded) {
		return rawFallback(data, limit, err)
	}
	if err != nil {
		return nil, err
	}
	buf, ok := r.(*bytes.Buffer)
	if ok {
		return buf.Bytes(), nil
	}
	out, err := io.ReadAll(io.LimitReader(r, limit+1))
	if int64(len(out)) > limit {
		return nil, filter.ErrDecodeLimitExceeded
	}
	return out, err
}

// decodeSafely calls a pdfcpu filter, turning a panic inside it into an
// error: pdfcpu recovers only its own panics (fault.Catch), and a filter
// bug on hostile data must not take the inspection down.
func decodeSafely(f filter.Filter, data []byte) (r io.Reader, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, ErrUnsupported
		}
	}()
	return f.Decode(bytes.NewReader(data))
}

// rawFallback answers a Flate stream zlib refused (err): some writers emit
// raw deflate data without the zlib header, or with a damaged one; viewers
// accept it, and so do we.
func rawFallback(data []byte, limit int64, err error) ([]byte, error) {
	if out, ferr := rawInflate(data, limit); ferr == nil || len(out) > 0 {
		return out, ferr
	}
	return nil, err
}

func rawInflate(data []byte, limit int64) ([]byte, error) {
	for _, skip := range []int{2, 0} {
		if len(data) < skip {
			continue
		}
		zr := flate.NewReader(bytes.NewReader(data[skip:]))
		out, err := io.ReadAll(io.LimitReader(zr, limit+1))
		zr.Close()
		if int64(len(out)) > limit {
			return nil, filter.ErrDecodeLimitExceeded
		}
		if len(out) > 0 {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				err = nil
			}
			return out, err
		}
	}
	return nil, ErrUnsupported
}

func intParms(d *cos.Dict) map[string]int {
	if d == nil {
		return nil
	}
	m := map[string]int{}
	for i, k := range d.Keys {
		switch k {
		case "Predictor", "Colors", "BitsPerComponent", "Columns", "EarlyChange", "K", "Rows":
			if v, ok := cos.AsInt(d.Vals[i]); ok && v >= -1<<20 && v <= 1<<20 {
				m[string(k)] = int(v)
			}
		case "BlackIs1", "EncodedByteAlign", "EndOfBlock", "EndOfLine":
			if b, ok := d.Vals[i].(cos.Bool); ok && bool(b) {
				m[string(k)] = 1
			}
		}
	}
	return m
}
