package zipcap

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"testing"
)

func archive(t testing.TB, n int) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	f, _ := w.Create("[Content_Types].xml")
	f.Write([]byte("<Types/>"))
	for i := 0; i < n; i++ {
		if _, err := w.CreateHeader(&zip.FileHeader{Name: fmt.Sprint(i), Method: zip.Store}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	return b.Bytes()
}

func TestOpenCapsTheDirectory(t *testing.T) {
	r, capped, err := Open(archive(t, 50), 100)
	if err != nil || capped || len(r.File) != 51 {
		t.Fatalf("within the cap: %v %v %d", err, capped, len(r.File))
	}
	// 70,000 entries: past 65,535 the writer uses ZIP64 end records.
	for _, n := range []int{5000, 70000} {
		r, capped, err = Open(archive(t, n), 100)
		if err != nil || !capped || len(r.File) != 100 {
			t.Fatalf("%d entries over the cap: %v %v", n, err, capped)
		}
	}
	rc, err := r.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(rc)
	if r.File[0].Name != "[Content_Types].xml" || string(body) != "<Types/>" {
		t.Fatalf("first entry %q %q", r.File[0].Name, body)
	}
}

func FuzzOpen(f *testing.F) {
	f.Add(archive(f, 3))
	f.Add(archive(f, 40))
	f.Add(archive(f, 1<<16))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, _, err := Open(data, 16)
		if err == nil && len(r.File) > 16 && bytes.Count(data, []byte(dirSig)) > 16 {
			t.Fatalf("%d entries past the cap", len(r.File))
		}
	})
}
