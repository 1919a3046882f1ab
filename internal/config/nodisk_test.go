package config

import (
	"bytes"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/internal/httpapi"
	"github.com/doctrust/doctrust/internal/store/sqlite"

	"github.com/doctrust/doctrust/internal/corpustest"
)

// TestNoDocumentBytesOnDisk runs large uploads through the service exactly
// as `doctrust serve` builds it, with DATA_DIR and TMPDIR pointed at empty
// folders, and finds nothing there afterwards but the store's files, which
// hold no document byte (only metering rows and the receipt secret): the
// multipart body is streamed, never spooled to a temporary file (as
// ParseMultipartForm would do for large parts), and the log holds no bytes.
func TestNoDocumentBytesOnDisk(t *testing.T) {
	pdf, err := os.ReadFile("../../../shared/corpus/pdf-incremental/qpdf/incremental-2.pdf")
	if err != nil {
		corpustest.Skip(t, "../shared/corpus")
	}
	dataDir, tmpDir := t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", tmpDir)
	vars := map[string]string{"DATA_DIR": dataDir, "MAX_UPLOAD_MB": "10"}
	logs := &bytes.Buffer{}
	svc, err := Server(t.Context(), Local, func(k string) string { return vars[k] }, logs)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	srv := httptest.NewServer(httpapi.New(svc.HTTP))
	defer srv.Close()

	marker := "ZQXJ-ON-DISK-MARKER"
	// 8 MB of padding in a PDF comment: what a spooling parser writes out.
	big := bytes.Replace(pdf, []byte("%PDF-1.3"), []byte("%PDF-1.3\n%"+marker+strings.Repeat("x", 8<<20)), 1)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("issuer", "acme-bank")
	fw, _ := mw.CreateFormFile("file", "statement.pdf")
	fw.Write(big)
	mw.Close()
	for _, up := range []struct {
		ct   string
		body io.Reader
	}{{mw.FormDataContentType(), &body}, {"application/pdf", bytes.NewReader(big)}} {
		resp, err := http.Post(srv.URL+"/api/v1/inspect", up.ct, up.body)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s upload: %d", up.ct, resp.StatusCode)
		}
	}
	for _, dir := range []string{dataDir, tmpDir} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if !strings.HasPrefix(filepath.Base(p), sqlite.FileName) {
				t.Errorf("file left on disk: %s", p)
			}
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(marker)) || bytes.Contains(b, []byte("%PDF")) {
				t.Errorf("document bytes on disk in %s", p)
			}
			return nil
		})
	}
	if strings.Contains(logs.String(), marker) || strings.Contains(logs.String(), "statement.pdf") {
		t.Error("document bytes or names in the log")
	}
}
