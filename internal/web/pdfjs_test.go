package web

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestPdfjsMatchesRecord: the vendored pdf.js files served from /static/
// are byte for byte those scripts/vendor-pdfjs.sh recorded, at the version
// the script pins, and nothing is served that the record does not list
// under pdf.js's names.
func TestPdfjsMatchesRecord(t *testing.T) {
	f, err := os.Open("pdfjs.sha256")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	script, err := os.ReadFile("../../scripts/vendor-pdfjs.sh")
	if err != nil {
		t.Fatal(err)
	}
	pin := regexp.MustCompile(`(?m)^VERSION=(\S+)$`).FindSubmatch(script)
	if pin == nil {
		t.Fatal("scripts/vendor-pdfjs.sh pins no VERSION")
	}
	sc := bufio.NewScanner(f)
	listed := map[string]bool{}
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			if !strings.Contains(line, "pdfjs-dist "+string(pin[1])+" ") {
				t.Errorf("the record is for %q, the script pins %s", line, pin[1])
			}
			continue
		}
		sum, name, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("bad record line %q", line)
		}
		b, err := staticFS.ReadFile("static/" + name)
		if err != nil {
			t.Errorf("%s is recorded but not embedded: %v", name, err)
			continue
		}
		h := sha256.Sum256(b)
		if hex.EncodeToString(h[:]) != sum {
			t.Errorf("%s differs from the record (run scripts/vendor-pdfjs.sh)", name)
		}
		listed[name] = true
	}
	for _, name := range []string{"pdf.min.mjs", "pdf.worker.min.mjs", "pdfjs-LICENSE"} {
		if !listed[name] {
			t.Errorf("%s is not in the record", name)
		}
	}
	entries, _ := staticFS.ReadDir("static")
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "pdf") && !listed[e.Name()] {
			t.Errorf("static/%s looks like pdf.js but is not in the record", e.Name())
		}
	}
}
