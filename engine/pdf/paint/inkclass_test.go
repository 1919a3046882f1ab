package paint

import (
	"strings"
	"testing"
)

// TestInkClassTable: the switch classes every byte as the letter lists
// say (the form it had before).
func TestInkClassTable(t *testing.T) {
	ref := func(text string) int {
		if len(text) != 1 {
			return inkLine
		}
		switch c := text[0]; {
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("bdfhiklt", c) >= 0:
			return inkCap
		case strings.IndexByte("acemnorsuvwxz", c) >= 0:
			return inkX
		case strings.IndexByte("gpqy", c) >= 0:
			return inkDescender
		case c == 'j':
			return inkTall
		}
		return inkLine
	}
	for c := range 256 {
		s := string([]byte{byte(c)})
		if got, want := inkClass(s), ref(s); got != want {
			t.Errorf("inkClass(%q) = %d, want %d", s, got, want)
		}
	}
	for _, s := range []string{"", "ab", "fi", "\u00e9"} {
		if got, want := inkClass(s), ref(s); got != want {
			t.Errorf("inkClass(%q) = %d, want %d", s, got, want)
		}
	}
}
