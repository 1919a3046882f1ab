package metadata

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzMetadata: the listing of any bytes, in every format, is a report or
// ErrUnreadable; it never faults (a contained panic shows as an
// analysis-fault note, which fails the target), stays within its caps and
// marshals.
//
//	go test -run='^$' -fuzz='^FuzzMetadata$' -fuzztime=60s ./engine/metadata/
func FuzzMetadata(f *testing.F) {
	for _, sub := range []string{"image/exiftool", "image/c2pa-rs", "image/libheif/corpus", "image/python-docx", "pdf-hostile/pyhanko", "office/python-docx"} {
		filepath.WalkDir(filepath.Join(corpus, sub), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
				f.Add(b)
			}
			return nil
		})
	}
	f.Add(jpeg(app1EXIF(cameraEXIF(le)), app1XMP(xmpPacket(`<dc:creator><rdf:Seq><rdf:li>A</rdf:li></rdf:Seq></dc:creator>`))))
	f.Add(png(pngChunk("tEXt", []byte("Author\x00x")), pngChunk("zTXt", append([]byte("Raw profile type exif\x00\x00"), deflate([]byte(rawProfileText("exif", cameraEXIF(le))))...))))
	f.Add(cameraEXIF(le))
	f.Add([]byte("%PDF-1.7\n1 0 obj<</Type/Catalog>>endobj trailer<</Root 1 0 R/Info<</Author(x)/CreationDate(D:2024)>>>>"))
	f.Add(docx(f, `<dc:creator>A</dc:creator>`, `<Company>C</Company>`, ""))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := List(context.Background(), data, Options{Budget: 8 << 20})
		if err != nil {
			if !errors.Is(err, ErrUnreadable) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		for _, n := range r.Notes {
			if n.Code == "structure-warnings.analysis-fault" {
				t.Fatal("a fault was contained: find it")
			}
		}
		entries := 0
		for _, c := range r.Containers {
			entries += len(c.Entries)
			if len(c.Entries) > maxEntriesPerContainer {
				t.Fatalf("%d entries in %s", len(c.Entries), c.Name)
			}
			for _, e := range c.Entries {
				if len([]rune(e.Value)) > maxValueRunes+1 || strings.ContainsAny(e.Value+e.Key, "\x00\n\u202e") {
					t.Fatalf("value not cleaned: %q", e.Value)
				}
			}
		}
		if entries > maxEntries || len(r.Containers) > maxContainers || len(r.Personal) > maxPersonal {
			t.Fatalf("caps: %d entries, %d containers", entries, len(r.Containers))
		}
		if g := r.GPS; g != nil && (g.Latitude < -90 || g.Latitude > 90 || g.Longitude < -180 || g.Longitude > 180) {
			t.Fatalf("gps %+v", g)
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatal(err)
		}
	})
}
