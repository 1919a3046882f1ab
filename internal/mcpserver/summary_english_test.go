package mcpserver

import (
	"strings"
	"testing"
)

// TestSummaryEnglish: the summary's counts take their plurals and the media
// type its article ("inspected a office file, 1 signal(s)" once).
func TestSummaryEnglish(t *testing.T) {
	for _, c := range []struct {
		media string
		count float64
		want  []string
	}{
		{"office", 1, []string{"inspected an Office file", "1 signal above info"}},
		{"pdf", 2, []string{"inspected a PDF file", "2 signals above info"}},
		{"image", 0, []string{"inspected an image file", "0 signals above info"}},
	} {
		rep := map[string]any{"engineVersion": "1.0.0", "mediaType": c.media,
			"summary": map[string]any{"riskScore": 10.0, "riskBand": "low", "signalCount": c.count}}
		got := inspectSummary(rep)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s, %v signals: %q lacks %q", c.media, c.count, got, w)
			}
		}
		if strings.Contains(got, "(s)") {
			t.Errorf("plural left to the reader: %q", got)
		}
	}
}
