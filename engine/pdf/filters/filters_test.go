package filters

import (
	"bytes"
	"compress/flate"
	"errors"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/pdftest"
)

var zl = pdftest.Deflate

func dict(kv ...any) *cos.Dict {
	d := &cos.Dict{}
	for i := 0; i < len(kv); i += 2 {
		d.Keys = append(d.Keys, cos.Name(kv[i].(string)))
		d.Vals = append(d.Vals, kv[i+1])
	}
	return d
}

func TestDecodeChainAndBudget(t *testing.T) {
	plain := bytes.Repeat([]byte("BT (hello) Tj ET\n"), 100)
	b := NewBudget(1 << 20)
	out, err := Decode(zl(plain), dict("Filter", cos.Name("Fl")), nil, b)
	if err != nil || !bytes.Equal(out, plain) || b.Used != int64(len(plain)) {
		t.Fatalf("abbreviated Flate: %v, %d bytes, used %d", err, len(out), b.Used)
	}
	// ASCIIHex then Flate, as an array chain.
	hexed := []byte("")
	for _, c := range zl(plain) {
		hexed = append(hexed, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
	}
	hexed = append(hexed, '>')
	out, err = Decode(hexed, dict("Filter", cos.Array{cos.Name("ASCIIHexDecode"), cos.Name("FlateDecode")}), nil, NewBudget(1<<20))
	if err != nil || !bytes.Equal(out, plain) {
		t.Fatalf("chain: %v", err)
	}
}

func TestRawDeflateAccepted(t *testing.T) {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.DefaultCompression)
	w.Write([]byte("raw deflate without a zlib header"))
	w.Close()
	out, err := Decode(b.Bytes(), dict("Filter", cos.Name("FlateDecode")), nil, NewBudget(1<<20))
	if err != nil || string(out) != "raw deflate without a zlib header" {
		t.Fatalf("%q %v", out, err)
	}
}

func TestImageCodecsAreNotDecoded(t *testing.T) {
	b := NewBudget(1 << 20)
	_, err := Decode([]byte{0xff, 0xd8}, dict("Filter", cos.Name("DCTDecode")), nil, b)
	if !errors.Is(err, ErrImage) || b.Used != 0 {
		t.Fatalf("%v used %d", err, b.Used)
	}
}

func TestStreamLimitAndTotal(t *testing.T) {
	bomb := zl(make([]byte, 4<<20))
	b := &Budget{Limit: 5 << 20, Stream: 1 << 20}
	if _, err := Decode(bomb, dict("Filter", cos.Name("FlateDecode")), nil, b); !errors.Is(err, ErrBudget) {
		t.Fatalf("stream limit: %v", err)
	}
	if b.Refused != 1 || b.Exhausted {
		t.Fatalf("after one oversized stream: %+v", b)
	}
	small := zl(make([]byte, 512<<10))
	for i := 0; i < 20 && !b.Exhausted; i++ {
		Decode(small, dict("Filter", cos.Name("FlateDecode")), nil, b)
	}
	if !b.Exhausted || b.Used > b.Limit {
		t.Fatalf("total budget not enforced: %+v", b)
	}
	if _, err := Decode(small, dict("Filter", cos.Name("FlateDecode")), nil, b); !errors.Is(err, ErrBudget) {
		t.Fatal("decoding went on after the budget was spent")
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(zl([]byte("hello")), "FlateDecode", int64(12))
	f.Add([]byte("68656c6c6f>"), "ASCIIHexDecode", int64(1))
	f.Add([]byte("87cURD]i,\"Ebo80~>"), "ASCII85Decode", int64(1))
	f.Add([]byte{0x80, 0x00, 0x01}, "LZWDecode", int64(2))
	f.Add([]byte{2, 'a', 'b', 'c', 0xfe, 'x', 0x80}, "RunLengthDecode", int64(1))
	f.Fuzz(func(t *testing.T, data []byte, name string, predictor int64) {
		d := dict("Filter", cos.Name(name), "DecodeParms", dict("Predictor", cos.Int(predictor), "Columns", cos.Int(4)))
		b := &Budget{Limit: 1 << 20, Stream: 256 << 10}
		out, _ := Decode(data, d, nil, b)
		if int64(len(out)) > b.Stream {
			t.Fatalf("%d bytes past the stream limit", len(out))
		}
	})
}
