package office

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/doctrust/doctrust/engine/internal/cfb"
	"github.com/doctrust/doctrust/engine/sniff"
)

// seedCorpus adds the corpus files with the given extensions (when the
// corpus is present) and the committed fixtures to a fuzz target.
func seedCorpus(f *testing.F, exts ...string) {
	add := func(p string) {
		for _, e := range exts {
			if filepath.Ext(p) == e {
				if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
					f.Add(b)
				}
			}
		}
	}
	for _, dir := range []string{"testdata", "../../../shared/corpus/office"} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				add(p)
			}
			return nil
		})
	}
}

// FuzzLegacy drives the compound-file walk and every binary-format reader
// over arbitrary bytes presented as each of the three formats.
func FuzzLegacy(f *testing.F) {
	seedCorpus(f, ".doc", ".xls", ".ppt", ".pot", ".xla", ".xlt")
	// testdata/legacy/libreoffice-hidden-and-deleted.doc (a seed through
	// seedCorpus) drives the piece table and CHPX pages.
	streams := vbaStreams("Macros", map[string]string{"ThisDocument": autoOpenShell})
	streams["WordDocument"] = fib(0, []byte("\x13 DDEAUTO x\x15"))
	streams["ObjectPool/_1/\x01Ole10Native"] = ole10Native("a.exe", `C:\a.exe`)
	f.Add(buildCFB(f, streams))
	wd, tbl := fibWithTemplate(`\\host\share\t.dotm`)
	f.Add(buildCFB(f, map[string][]byte{"WordDocument": wd, "1Table": tbl}))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range []sniff.Format{sniff.DOC, sniff.XLS, sniff.PPT} {
			r, err := AnalyzeLegacy(context.Background(), data, format, Options{Budget: 1 << 22})
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, "fuzz", r)
		}
		if text := Text(context.Background(), data, 4096); len(text) > 4096 || !utf8.ValidString(text) {
			t.Fatalf("text of %d bytes", len(text))
		}
	})
}

// FuzzODF drives the OpenDocument walk, as a text document and as a
// spreadsheet (whose tables figure-arithmetic reads as sheets).
func FuzzODF(f *testing.F) {
	seedCorpus(f, ".odt", ".ods", ".odp")
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range []sniff.Format{sniff.ODT, sniff.ODS} {
			r, err := AnalyzeODF(context.Background(), data, format, Options{Budget: 1 << 22})
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, "fuzz", r)
			if _, err := json.Marshal(r); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzVBA drives the MS-OVBA decompressor and the dir-stream parser: the
// output never passes its limit.
func FuzzVBA(f *testing.F) {
	f.Add(vbaDirStream("Module1", "ThisDocument"))
	f.Add(vbaCompressLiteral([]byte(autoOpenShell)))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, _ := vbaDecompress(data, 1<<16)
		if len(out) > 1<<16 {
			t.Fatalf("%d bytes past the limit", len(out))
		}
		mods, _ := parseVBADir(out)
		if len(mods) > maxVBAModules {
			t.Fatalf("%d modules", len(mods))
		}
		auto, kw := map[string]bool{}, map[string]bool{}
		scanVBASource(out, auto, kw)
	})
}

// FuzzBIFF drives the workbook-globals walker and the cell walk, with
// the figure-arithmetic check on its cells; seeded too with the Workbook
// streams of the arithmetic's .xls fixtures (values, formulas, shared
// formulas, date formats).
func FuzzBIFF(f *testing.F) {
	f.Add(biffWorkbook(rt(0x0085), boundSheet(2, 1, "M"), rt(0x0018), nameRecord(true, "\x01"), rt(0x01AE), supbook("cmd\x03x"), rt(0x0023), []byte{0, 0}))
	for _, n := range []string{"statement-formulas-calc.xls", "statement-dates-openpyxl.xls", "invoice-en-openpyxl.xls"} {
		if b, err := os.ReadFile(filepath.Join(arithDir, n)); err == nil {
			if c := cfb.Open(b, 1<<24); c != nil && c.Lookup("Workbook") != nil {
				f.Add(c.Read(c.Lookup("Workbook"), 1<<20))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := scanBIFF(data, false)
		c := scanBIFFCells(data)
		if len(c.recovered) > maxSnippets || len(c.notes) > maxSnippets {
			t.Fatal("recovered cap exceeded")
		}
		if c.figures.cells > maxFigureCells {
			t.Fatalf("%d figure cells", c.figures.cells)
		}
		(&legacy{format: sniff.XLS, cells: c}).figureArithmetic()
		_ = decryptXLS(data)
		if len(s.sheetNames) > maxSnippets || len(s.autoOpenNames) > maxSnippets || len(s.externalBooks) > maxSnippets {
			t.Fatal("snippet cap exceeded")
		}
	})
}

// FuzzPropertySet drives the OLE property-set reader.
func FuzzPropertySet(f *testing.F) {
	seedCorpus(f)
	if b, err := os.ReadFile("testdata/legacy/genuine-libreoffice-invoice.doc"); err == nil {
		if c := openCFBForTest(b); c != nil {
			f.Add(c)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		pr, _ := legacyProps(data, data)
		if len(pr.core)+len(pr.app) > 4*maxPropsPerSet || len(pr.custom) > maxPropsPerSet*maxPropSets {
			t.Fatal("property cap exceeded")
		}
	})
}

// FuzzPPTRecords drives the PowerPoint record walk and the embedded
// storages it inflates.
func FuzzPPTRecords(f *testing.F) {
	f.Add([]byte{0x0F, 0, 0xE8, 0x03, 16, 0, 0, 0, 0x10, 0, 0x11, 0x10, 8, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := scanPPTRecords(data, 1<<22)
		if r.expanded > 1<<22 || len(r.objects)+len(r.vba) > maxObjects+1 {
			t.Fatalf("expanded %d, %d objects", r.expanded, len(r.objects))
		}
	})
}

// openCFBForTest returns the SummaryInformation stream of a compound file.
func openCFBForTest(b []byte) []byte {
	f := cfbOpen(b)
	if f == nil {
		return nil
	}
	return f.Read(f.Lookup("\x05SummaryInformation"), 1<<20)
}

// FuzzWordFormatting drives the piece table and the CHPX pages: the
// WordDocument stream and the table stream are the two halves of the
// input.
func FuzzWordFormatting(f *testing.F) {
	if b, err := os.ReadFile("testdata/legacy/libreoffice-hidden-and-deleted.doc"); err == nil {
		if c := cfbOpen(b); c != nil {
			wd := c.Read(c.Lookup("WordDocument"), 1<<20)
			tbl := c.Read(c.Lookup("1Table"), 1<<20)
			f.Add(append(append([]byte{}, wd...), tbl...), len(wd))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, split int) {
		if split < 0 || split > len(data) {
			split = len(data) / 2
		}
		var w wordScan
		scanWordFormatting(data[:split], func(string) []byte { return data[split:] }, &w)
		if c := wordComments(data[:split], func(string) []byte { return data[split:] }); len(c) > maxSnippets {
			t.Fatalf("%d comments", len(c))
		}
		if len(w.hiddenText) > maxSnippets || len(w.deletedText) > maxSnippets {
			t.Fatal("snippet cap exceeded")
		}
	})
}
