package producers

import (
	"reflect"
	"testing"
)

func FuzzMatch(f *testing.F) {
	for _, tc := range realWorld {
		f.Add(tc.in)
	}
	for _, tc := range mustNot {
		f.Add(tc.in)
	}
	f.Add("\xfe\xff\x00")
	f.Add("\xff\xfeW\x00")
	f.Add("\xc3\x28 acrobat \xff")

	classOf := map[string]Class{}
	for _, e := range Entries() {
		classOf[e.Name] = e.Class
	}

	f.Fuzz(func(t *testing.T, s string) {
		got := Match(s)
		seen := map[string]bool{}
		for _, g := range got {
			c, ok := classOf[g.Name]
			if !ok {
				t.Fatalf("Match(%q) returned unknown tool %q", s, g.Name)
			}
			if c != g.Class {
				t.Fatalf("Match(%q) returned %q with class %q, catalogue says %q", s, g.Name, g.Class, c)
			}
			if seen[g.Name] {
				t.Fatalf("Match(%q) returned %q twice", s, g.Name)
			}
			seen[g.Name] = true
		}
		if id := Identify(s); !reflect.DeepEqual(id, got) {
			t.Fatalf("Identify(%q) = %v, Match = %v", s, id, got)
		}
		if again := Match(s); !reflect.DeepEqual(again, got) {
			t.Fatalf("Match(%q) not deterministic", s)
		}
	})
}
