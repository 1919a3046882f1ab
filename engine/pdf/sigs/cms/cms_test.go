package cms

import (
	"bytes"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// fixtureValues reads every signature value of the signed fixtures
// (scripts/fixtures/sigs, Go's crypto and pyHanko), each with the start of
// its file as content to check against.
func fixtureValues(tb testing.TB) (values, covered [][]byte) {
	files, _ := filepath.Glob("../../../testdata/detection/signed/*.pdf")
	more, _ := filepath.Glob("../../../testdata/detection/signed-pyhanko/*.pdf")
	files = append(files, more...)
	contents := regexp.MustCompile(`/Contents\s*<([0-9a-fA-F]{200,})>`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for _, m := range contents.FindAllSubmatch(data, -1) {
			v, err := hex.DecodeString(string(m[1]))
			if err != nil {
				tb.Fatal(err)
			}
			values = append(values, v)
			covered = append(covered, data[:min(len(data), 4096)])
		}
	}
	if len(values) < 50 {
		tb.Fatalf("%d signature values in the signed fixtures", len(values))
	}
	return values, covered
}

// TestToDER: indefinite lengths become definite, constructed OCTET STRINGs
// are flattened, DER passes unchanged and what follows the element (the
// zero padding of /Contents) is not read.
func TestToDER(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"3080040201020000", "3004040201 02"},
		{"2480040 1aa0401bb0000", "0402aabb"},
		{"30803080020101000000000000", "30053003020101"},
		{"300404020102000000", "3004040201 02"},
	} {
		in, _ := hex.DecodeString(despace(c.in))
		want, _ := hex.DecodeString(despace(c.want))
		got, _, err := ToDER(in)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("ToDER(%s) = %x, %v; want %x", c.in, got, err, want)
		}
	}
	for _, bad := range []string{"3080", "04800000", "3081", "30850000000001", "3003040501"} {
		in, _ := hex.DecodeString(bad)
		if _, _, err := ToDER(in); err == nil {
			t.Errorf("ToDER(%s) accepted malformed input", bad)
		}
	}
	deep := bytes.Repeat([]byte{0x30, 0x80}, maxDepth+2)
	if _, _, err := ToDER(deep); err == nil {
		t.Error("nesting beyond the bound accepted")
	}
}

func despace(s string) string { return string(bytes.ReplaceAll([]byte(s), []byte(" "), nil)) }

// TestFixtureValuesParse: every fixture's CMS value parses, and DER input
// comes out of ToDER byte for byte.
func TestFixtureValuesParse(t *testing.T) {
	values, _ := fixtureValues(t)
	for i, v := range values {
		der, n, err := ToDER(v)
		if err != nil || !bytes.Equal(der, v[:n]) {
			t.Errorf("value %d: DER changed by ToDER (%v)", i, err)
		}
		if v[0] == 0x04 {
			continue // adbe.x509.rsa_sha1: a bare PKCS #1 signature, no CMS
		}
		if _, err := Parse(v); err != nil {
			t.Errorf("value %d: %v", i, err)
		}
	}
}

// FuzzParse: no input panics or loops, and whatever parses can be checked.
func FuzzParse(f *testing.F) {
	values, covered := fixtureValues(f)
	for i, v := range values {
		f.Add(v[:min(len(v), 8192)], covered[i][:min(len(covered[i]), 256)])
	}
	f.Fuzz(func(t *testing.T, value, content []byte) {
		if der, _, err := ToDER(value); err == nil {
			again, _, err := ToDER(der)
			if err != nil || !bytes.Equal(again, der) {
				t.Fatalf("ToDER not idempotent: %v", err)
			}
		}
		sd, err := Parse(value)
		if err != nil {
			return
		}
		for _, m := range []Mode{Detached, SHA1Encapsulated, Timestamp} {
			r := Check(sd, m, content)
			if r.Verdict == "" {
				t.Fatal("no verdict")
			}
		}
		CheckTimestampToken(value, content)
		CheckRSASHA1(value, value, content)
	})
}
