package report

import (
	"os"
	"strings"
	"testing"
)

// TestFamiliesDocumented keeps docs/families.md in step with the family and
// message catalogues.
func TestFamiliesDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/families.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, f := range Families() {
		if !strings.Contains(doc, string(f.ID)) {
			t.Errorf("family %s is not in docs/families.md", f.ID)
		}
	}
	for _, c := range Codes() {
		if !strings.Contains(doc, "`"+c+"`") {
			t.Errorf("message code %s is not in docs/families.md", c)
		}
	}
}
