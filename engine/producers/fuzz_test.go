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

// FuzzRedistill: any producer and creator pair gives an answer without a
// panic, and a re-distill always has Ghostscript as its producer.
func FuzzRedistill(f *testing.F) {
	f.Add("GPL Ghostscript 10.00.0", "HeadlessChrome/156")
	f.Add("GPL Ghostscript 10.00.0", "PScript5.dll Version 5.2.2")
	f.Add("Ghostscript", "Writer")
	f.Add("\xff\xfe", "calc\x00")
	f.Fuzz(func(t *testing.T, producer, creator string) {
		got := Redistill(producer, creator)
		if got && !names(producer, "Ghostscript") {
			t.Fatalf("Redistill(%q, %q) without Ghostscript as producer", producer, creator)
		}
		if again := Redistill(producer, creator); again != got {
			t.Fatalf("Redistill(%q, %q) not deterministic", producer, creator)
		}
	})
}

// FuzzWriterMismatch: any producer and header comment give an answer
// without a panic, and a mismatch always names a writer and a rewriter.
func FuzzWriterMismatch(f *testing.F) {
	f.Add("ReportLab PDF Library - www.reportlab.com", "bff7a2fe")
	f.Add("LibreOffice 7.4; modified using iText", "e2e3cfd3")
	f.Add("\xff\xfe", "C2B5C2B6")
	f.Fuzz(func(t *testing.T, producer, high string) {
		w, r, ok := WriterMismatch(producer, high)
		if ok && (w == "" || r == "") {
			t.Fatalf("WriterMismatch(%q, %q) = %q, %q without names", producer, high, w, r)
		}
	})
}
