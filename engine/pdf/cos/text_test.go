package cos

import (
	"strings"
	"testing"
)

// TestDropZoneMarks: the one-pass removal reads as strings.Replacer did,
// invalid UTF-8 included.
func TestDropZoneMarks(t *testing.T) {
	r := strings.NewReplacer("'", "", ":", "")
	for _, s := range []string{"", "01'00'", "05:30", "'':''", "0\xff1'0\x80", "+01'00", "abc", "1'2:3'4:"} {
		if got, want := dropZoneMarks(s), r.Replace(s); got != want {
			t.Errorf("dropZoneMarks(%q) = %q, want %q", s, got, want)
		}
	}
}
