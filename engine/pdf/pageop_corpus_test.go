package pdf

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/paint"
)

// TestPageOpBlocksCorpus: the text objects the walk's interpreter hands
// to the text-pattern check (paint.Source.PageOp) are the ones a second
// scan of the page's content finds, on every page of one content stream
// of every corpus PDF whose walk was not cut short.
func TestPageOpBlocksCorpus(t *testing.T) {
	root, files := corpusPDFs(t)
	pages, compared := 0, 0
	for _, rel := range files {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		d, err := Open(context.Background(), data, bytes.Index(data, []byte("%PDF")), DefaultBudget)
		if err != nil {
			continue
		}
		a := d.reading(Options{}, d.limit)
		a.safe("pageop", func() {
			src := a.paintSource(0)
			decode := src.Decode
			a.pageData = map[*cos.Stream][]byte{}
			src.Decode = func(st *cos.Stream, content bool) []byte {
				out := decode(st, content)
				if content {
					a.pageData[st] = out
				}
				return out
			}
			src.PageOp = func(op []byte, args []paint.Operand) { a.pageBlocks.op(op, args) }
			in := paint.New(src)
			for i, p := range a.pages {
				clear(a.pageData)
				a.pageBlocks = newBlockScan()
				pg := in.Page(p.dict.Get("Contents"), p.resources)
				pages++
				size, walked := a.walkedContentSize(p)
				if pg.Truncated || !walked || size == 0 || size > maxPatternBytes {
					continue
				}
				blocks, shows, ok := scanTextBlocks(a.pageContent(p))
				got := a.pageBlocks
				if got.ok != ok || got.shows != shows || !reflect.DeepEqual(got.blocks, blocks) {
					t.Errorf("%s page %d: interpreter gives %d blocks, %d shows, ok %v; a scan %d, %d, %v", rel, i+1, len(got.blocks), got.shows, got.ok, len(blocks), shows, ok)
				}
				compared++
			}
		})
	}
	if compared == 0 {
		t.Fatal("no page compared")
	}
	t.Logf("%d pages compared of %d walked", compared, pages)
}
