package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
)

func onePagePDF(title string) []byte {
	b := pdftest.New("1.7")
	content := b.AddStream("", []byte("BT /F1 12 Tf 72 720 Td ("+title+") Tj ET"))
	font := b.Add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	pages := b.Add("")
	page := b.Add("<< /Type /Page /Parent " + ref(pages) + " /MediaBox [0 0 612 792] /Contents " + ref(content) +
		" /Resources << /Font << /F1 " + ref(font) + " >> >> >>")
	b.Set(pages, "<< /Type /Pages /Kids ["+ref(page)+"] /Count 1 >>")
	cat := b.Add("<< /Type /Catalog /Pages " + ref(pages) + " >>")
	info := b.Add("<< /Title (" + title + ") /Producer (test) >>")
	b.Trailer("/Root " + ref(cat) + " /Info " + ref(info))
	return b.Bytes()
}

func ref(n int) string { return fmt.Sprintf("%d 0 R", n) }

// folder lays out a batch: two PDFs (one in a sub-folder), a text file the
// engine refuses, and a hidden folder the walk skips.
func folder(t *testing.T) string {
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"a.pdf":         onePagePDF("a"),
		"notes.txt":     []byte("not a document\n"),
		"sub/b.pdf":     onePagePDF("b"),
		".hidden/c.pdf": onePagePDF("c"),
		"sub/.DS_Store": []byte{0, 0, 0, 1},
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type record struct {
	Path   string          `json:"path"`
	Report json.RawMessage `json:"report"`
	Error  *struct {
		Code    string `json:"error"`
		Message string `json:"message"`
	} `json:"error"`
}

func records(t *testing.T, out string) []record {
	t.Helper()
	var rs []record
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		if !strings.HasPrefix(line, `{"path":`) {
			t.Errorf("record does not start with its path: %.60s", line)
		}
		rs = append(rs, r)
	}
	return rs
}

func runBatch(t *testing.T, stdin string, cmd Command, args ...string) (int, string, string) {
	t.Helper()
	Stdin = strings.NewReader(stdin)
	defer func() { Stdin = os.Stdin }()
	var out, errb bytes.Buffer
	code := cmd(args, &out, &errb)
	return code, out.String(), errb.String()
}

var testInspect = Inspect(func() ([]byte, error) { return []byte("batch-test"), nil })

func TestInspectFolder(t *testing.T) {
	dir := folder(t)
	code, out, errs := runBatch(t, "", testInspect, dir, "--triage", "--jobs", "3")
	if code != exitUnreadable {
		t.Errorf("exit %d, want 3 (one file refused)", code)
	}
	rs := records(t, out)
	want := []string{"a.pdf", "notes.txt", "sub/b.pdf"}
	if len(rs) != len(want) {
		t.Fatalf("%d records: %s", len(rs), out)
	}
	for i, w := range want {
		if rs[i].Path != filepath.Join(dir, w) {
			t.Errorf("record %d is %s, want %s", i, rs[i].Path, w)
		}
	}
	var rep struct {
		Summary struct{ RiskBand string } `json:"summary"`
		Triage  any                       `json:"triage"`
		Receipt any                       `json:"receipt"`
	}
	if err := json.Unmarshal(rs[0].Report, &rep); err != nil || rep.Summary.RiskBand == "" || rep.Receipt == nil || rep.Triage == nil {
		t.Errorf("a.pdf report %s (%v)", rs[0].Report, err)
	}
	if rs[1].Error == nil || rs[1].Error.Code != "not_a_pdf" || rs[1].Report != nil {
		t.Errorf("notes.txt record %+v", rs[1])
	}
	if !strings.Contains(errs, "3 files in ") || !strings.Contains(errs, "2 reported (") || !strings.Contains(errs, "1 refused (1 not_a_pdf)") {
		t.Errorf("summary %q", errs)
	}
}

// TestBatchFromStdin: "-" reads paths, one a line; a path that cannot be
// read is a read_error record and exit 1, and the rest still run.
func TestBatchFromStdin(t *testing.T) {
	dir := folder(t)
	list := filepath.Join(dir, "a.pdf") + "\n\n" + filepath.Join(dir, "missing.pdf") + "\r\n" + filepath.Join(dir, "sub") + "\n"
	code, out, errs := runBatch(t, list, testInspect, "-")
	if code != exitError {
		t.Errorf("exit %d, want 1", code)
	}
	rs := records(t, out)
	if len(rs) != 3 || rs[1].Error == nil || rs[1].Error.Code != "read_error" || !strings.Contains(rs[1].Error.Message, "missing.pdf") || rs[2].Report == nil {
		t.Fatalf("records %s", out)
	}
	if !strings.Contains(errs, "1 not readable") {
		t.Errorf("summary %q", errs)
	}
}

// TestMetadataBatchMatchesSingle: the record's report is byte for byte the
// single-file listing, in the same order whatever the number of workers.
func TestMetadataBatchMatchesSingle(t *testing.T) {
	dir := folder(t)
	code, single, _ := runBatch(t, "", Metadata, filepath.Join(dir, "a.pdf"))
	if code != 0 || !strings.HasPrefix(single, `{"`) || strings.Contains(single, `"path"`) {
		t.Fatalf("single file: exit %d %s", code, single)
	}
	_, one, _ := runBatch(t, "", Metadata, "--jobs", "1", dir)
	_, many, errs := runBatch(t, "", Metadata, dir, "--jobs=8")
	if one != many {
		t.Errorf("1 worker and 8 workers differ:\n%s\n%s", one, many)
	}
	rs := records(t, many)
	if string(rs[0].Report)+"\n" != single {
		t.Errorf("batch record %s\nsingle %s", rs[0].Report, single)
	}
	if !strings.Contains(errs, "2 listed, 1 refused") {
		t.Errorf("summary %q", errs)
	}
	if code, _, _ := runBatch(t, "", Metadata, dir, "--jobs", "0"); code != exitUsage {
		t.Errorf("--jobs 0: exit %d", code)
	}
}

// TestSingleFileUnchanged: one FILE keeps the API's body and error bodies
// (DESIGN.md's local-run contract), whatever the flag order.
func TestSingleFileUnchanged(t *testing.T) {
	dir := folder(t)
	code, out, _ := runBatch(t, "", testInspect, "--triage", filepath.Join(dir, "a.pdf"))
	if code != 0 || !strings.HasPrefix(out, `{"id":"insp_`) {
		t.Errorf("exit %d %.80s", code, out)
	}
	code, _, errs := runBatch(t, "", testInspect, filepath.Join(dir, "notes.txt"))
	if code != exitUnreadable || !strings.HasPrefix(errs, `{"error":"not_a_pdf"`) {
		t.Errorf("exit %d %q", code, errs)
	}
}
