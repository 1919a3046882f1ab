package sigs_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
	"github.com/doctrust/doctrust/engine/pdf/filters"
	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/engine/pdf/sigs"
)

// open reads data's file layer and feeds the analysis a page walk of one
// level under the catalogue's /Pages, which is all pdftest's files hold.
func open(t *testing.T, data []byte) *sigs.Analysis {
	t.Helper()
	f, err := file.Open(context.Background(), data, bytes.Index(data, []byte("%PDF")), filters.NewBudget(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	catalog := cos.DictOf(f.Resolve(f.Trailer().Get("Root")))
	pages := func(cat *cos.Dict, rev int) []sigs.Page {
		resolve := func(o cos.Object) cos.Object { return f.ResolveIn(o, rev) }
		root := cos.DictOf(resolve(cat.Get("Pages")))
		kids, _ := resolve(root.Get("Kids")).(cos.Array)
		var out []sigs.Page
		for _, k := range kids {
			ref, _ := k.(cos.Ref)
			if d := cos.DictOf(resolve(k)); d != nil {
				out = append(out, sigs.Page{Ref: ref, Dict: d, Resources: cos.DictOf(resolve(d.Get("Resources")))})
			}
		}
		return out
	}
	return sigs.New(sigs.Input{File: f, Catalog: catalog, Pages: pages})
}

// TestRevisionChangesReadTheFedPages: an appended revision that rewrites
// the page's content stream is content, found through the page walk the
// document model feeds; an unsigned file is not signed.
func TestRevisionChangesReadTheFedPages(t *testing.T) {
	base := pdftest.OnePage("Total 100.00").Bytes()
	u := pdftest.Update(base)
	u.Stream(pdftest.ContentObj, "", []byte("BT /F1 24 Tf 72 700 Td (Total 900.00) Tj ET"))
	u.Trailer("/Root 1 0 R")
	s := open(t, u.Bytes())
	ch := s.RevisionChanges()
	if len(ch) != 1 {
		t.Fatalf("%d revision changes, want 1", len(ch))
	}
	if ch[0].Touched.PageContent != 1 || !ch[0].ContentTouched() {
		t.Errorf("rewritten page content not seen: %+v", ch[0].Touched)
	}
	if s.Signed() || s.Signatures() != 0 {
		t.Error("an unsigned file reported as signed")
	}
	if fd := s.IncrementalUpdates(); fd == nil || fd.Message.Code != "incremental-updates.content-touched" {
		t.Errorf("incremental-updates: %+v", fd)
	}
}
