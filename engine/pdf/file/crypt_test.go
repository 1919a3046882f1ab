package file_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
	"github.com/doctrust/doctrust/engine/pdf/filters"
	"github.com/doctrust/doctrust/internal/corpustest"
)

// Fixtures from scripts/fixtures/crypt/make.py: one bank-statement-like
// document (Producer "ReportLab PDF Library - www.reportlab.com", XMP
// CreatorTool "Statement Service 4.2") encrypted by qpdf and pikepdf.
const (
	wantProducer = "ReportLab PDF Library - www.reportlab.com"
	wantXMPTool  = "Statement Service 4.2"
)

func openFixture(t testing.TB, name string) *file.File {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "crypt", name))
	if err != nil {
		t.Fatal(err)
	}
	return openBytes(t, data)
}

func openBytes(t testing.TB, data []byte) *file.File {
	t.Helper()
	header := bytes.Index(data, []byte("%PDF-"))
	f, err := file.Open(context.Background(), data, header, filters.NewBudget(64<<20))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// infoText reads an Info string as the readers above the file layer do.
func infoText(f *file.File, key cos.Name) string {
	info, _ := f.Resolve(f.Trailer().Get("Info")).(*cos.Dict)
	return cos.Text(f.Resolve(info.Get(key)))
}

// xmpPacket decodes the catalogue's metadata stream.
func xmpPacket(t testing.TB, f *file.File) string {
	t.Helper()
	cat, _ := f.Resolve(f.Trailer().Get("Root")).(*cos.Dict)
	st, ok := f.Resolve(cat.Get("Metadata")).(*cos.Stream)
	if !ok {
		t.Fatal("no metadata stream")
	}
	data, err := filters.Decode(st.Raw(f.Data), st.Dict, f.Resolve, f.Budget)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestOpenEmptyUserPassword(t *testing.T) {
	for _, tc := range []struct {
		name   string
		v, r   int
		method string
		bits   int
		clear  bool // /EncryptMetadata false
	}{
		{"rc4-40.pdf", 1, 2, "RC4", 40, false},
		{"rc4-128.pdf", 2, 3, "RC4", 128, false},
		{"aes-128-noprint.pdf", 4, 4, "AESV2", 128, false},
		{"pikepdf-r4-clear-metadata.pdf", 4, 4, "AESV2", 128, true},
		{"aes-256-r5.pdf", 5, 5, "AESV3", 256, false},
		{"aes-256-r6.pdf", 5, 6, "AESV3", 256, false},
		{"pikepdf-r6.pdf", 5, 6, "AESV3", 256, false},
		{"signed-aes-128.pdf", 4, 4, "AESV2", 128, false},
		{"header-removed-aes-128.pdf", 4, 4, "AESV2", 128, false},
		{"junk-prepended-aes-128.pdf", 4, 4, "AESV2", 128, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := openFixture(t, tc.name)
			s := f.Security
			if !f.Encrypted || s == nil || !s.Opened || !f.Opened() || s.OpenedAs != "user" {
				t.Fatalf("not opened: %+v", s)
			}
			if s.Filter != "Standard" || s.V != tc.v || s.R != tc.r || s.StreamMethod != tc.method || s.StringMethod != tc.method || s.KeyBits != tc.bits {
				t.Errorf("security %+v", s)
			}
			if s.EncryptMetadata == tc.clear {
				t.Errorf("EncryptMetadata %v", s.EncryptMetadata)
			}
			// pyHanko appends its name to the Producer when it signs.
			if got := infoText(f, "Producer"); !strings.HasPrefix(got, wantProducer) {
				t.Errorf("Producer %q", got)
			}
			if x := xmpPacket(t, f); !strings.Contains(x, wantXMPTool) {
				t.Errorf("XMP not read: %.80q", x)
			}
			// The trailer /ID is never encrypted; the file key depends on it.
			if id, _ := f.Resolve(f.Trailer().Get("ID")).(cos.Array); len(id) != 2 {
				t.Errorf("ID %v", id)
			}
		})
	}
}

// TestObjectStreamsDecrypted: catalogue and pages live in encrypted object
// streams in these files; they are found without a rebuild.
func TestObjectStreamsDecrypted(t *testing.T) {
	for _, name := range []string{"aes-128-noprint.pdf", "aes-256-r6.pdf", "pikepdf-r6.pdf"} {
		f := openFixture(t, name)
		compressed := 0
		for _, e := range f.Entries() {
			if e.Kind == file.Compressed {
				compressed++
			}
		}
		cat, _ := f.Resolve(f.Trailer().Get("Root")).(*cos.Dict)
		if compressed == 0 || cat.Name("Type") != "Catalog" || f.Warn.XrefRepaired {
			t.Errorf("%s: %d compressed, catalogue %v, repaired %v", name, compressed, cat, f.Warn.XrefRepaired)
		}
	}
}

// TestSignatureContentsInClear: a signature's /Contents is written in clear
// in an encrypted file and must not be deciphered; its /Reason is.
func TestSignatureContentsInClear(t *testing.T) {
	f := openFixture(t, "signed-aes-128.pdf")
	var sig *cos.Dict
	for _, e := range f.Entries() {
		if d, ok := f.Load(e, 0).(*cos.Dict); ok && d.Has("ByteRange") {
			sig = d
		}
	}
	if sig == nil {
		t.Fatal("no signature dictionary")
	}
	if got := cos.Text(sig.Get("Reason")); got != "Statement issued" {
		t.Errorf("Reason %q", got)
	}
	c, _ := sig.Get("Contents").(cos.String)
	// A DER SEQUENCE with a long-form length: the CMS blob, untouched.
	if len(c.Bytes) < 4 || c.Bytes[0] != 0x30 || c.Bytes[1] < 0x81 {
		t.Errorf("Contents deciphered: % x", c.Bytes[:min(8, len(c.Bytes))])
	}
}

// TestEmptyOwnerPassword: an AES-256 file with a user password but an
// empty owner password opens as its owner (qpdf calls it insecure and opens
// it); RC4 has no empty owner password (an empty one means the user's, per
// Algorithm 3), so that file stays closed, as in qpdf and pdfinfo.
func TestEmptyOwnerPassword(t *testing.T) {
	f := openFixture(t, "owner-empty-aes-256.pdf")
	if s := f.Security; s == nil || !s.Opened || s.OpenedAs != "owner" || s.R != 6 {
		t.Fatalf("security %+v", s)
	}
	if got := infoText(f, "Producer"); got != wantProducer {
		t.Errorf("Producer %q", got)
	}
	f = openFixture(t, "owner-empty-rc4-128.pdf")
	if s := f.Security; s == nil || s.Opened || s.Reason != file.ReasonPassword {
		t.Fatalf("security %+v", s)
	}
}

// TestRealPasswordStaysClosed: a file whose user password is not empty is
// read as before: structure only, strings left as stored.
func TestRealPasswordStaysClosed(t *testing.T) {
	f := openFixture(t, "user-password.pdf")
	s := f.Security
	if !f.Encrypted || s == nil || s.Opened || f.Opened() || s.Reason != file.ReasonPassword {
		t.Fatalf("security %+v", s)
	}
	if s.R != 6 || s.StreamMethod != "AESV3" {
		t.Errorf("security %+v", s)
	}
	if got := infoText(f, "Producer"); got == wantProducer {
		t.Error("strings deciphered without the password")
	}
}

// TestDamagedFixturesRead: junk before the header and a removed header line
// still give the catalogue and Info, with the damage in the warnings.
func TestDamagedFixturesRead(t *testing.T) {
	for _, tc := range []struct {
		name    string
		missing bool
	}{
		{"junk-prepended.pdf", false},
		{"mail-wrapped.pdf", false},
		{"header-removed.pdf", true},
		{"header-replaced-trailing-junk.pdf", true},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", "crypt", tc.name))
		if err != nil {
			t.Fatal(err)
		}
		header := bytes.Index(data, []byte("%PDF-"))
		if tc.missing != (header < 0) {
			t.Fatalf("%s: header at %d", tc.name, header)
		}
		f := openBytes(t, data)
		if got := infoText(f, "Producer"); got != wantProducer {
			t.Errorf("%s: Producer %q", tc.name, got)
		}
		if f.Warn.HeaderMissing != tc.missing || (!tc.missing && f.Warn.LeadingJunk != header) {
			t.Errorf("%s: warnings %+v", tc.name, f.Warn)
		}
	}
}

// TestCorpusEncrypted opens every encrypted PDF of the shared corpus: the
// files qpdf opens with the empty password (qpdf --requires-password exit
// 3) are opened, the others keep their reason.
func TestCorpusEncrypted(t *testing.T) {
	const dir = "../../../../shared/corpus"
	rows := corpustest.Manifest(t, dir)
	want := map[string]string{
		"pdf-general/esig-dss/protected/edition_protected_signing_allowed_no_field.pdf": "",
		"pdf-general/format-corpus/pdfCabinetOfHorrors/encryption_noprinting.pdf":       "",
		"pdf-general/format-corpus/pdfCabinetOfHorrors/encryption_notextaccess.pdf":     "",
		"pdf-general/qpdf/enc-R2_V1.pdf":                                                "",
		"pdf-general/qpdf/enc-R2_V1_O_master.pdf":                                       "",
		"pdf-general/qpdf/enc-R3_V2.pdf":                                                "",
		"pdf-general/qpdf/enc-XI-R6_V5_O_master.pdf":                                    "",
		"pdf-general/pdfjs/pr6531_2.pdf":                                                "",
		"pdf-hostile/pdfjs/bug1815476.pdf":                                              "",
		"pdf-hostile/pdfjs/empty_protected.pdf":                                         "",
		"pdf-signed/qpdf/minimal-signed-restricted.pdf":                                 "",
		"pdf-general/qpdf/20-pages.pdf":                                                 file.ReasonPassword,
		"pdf-general/qpdf/enc-R3_V2_U_view_O_master.pdf":                                file.ReasonPassword,
		"pdf-general/qpdf/enc-XI-R6_V5_U_view_O_master.pdf":                             file.ReasonPassword,
		"pdf-general/qpdf/enc-long-password.pdf":                                        file.ReasonPassword,
		"pdf-general/pyhanko/minimal-aes256.pdf":                                        file.ReasonPassword,
		"pdf-general/pyhanko/minimal-pubkey-aes256.pdf":                                 file.ReasonPublicKey,
		"pdf-signed/pyhanko/signed-encrypted-pubkey-with-catalog-ref.pdf":               file.ReasonPublicKey,
	}
	seen := 0
	for _, r := range rows {
		reason, ok := want[r.File]
		if !ok {
			continue
		}
		seen++
		data, err := os.ReadFile(filepath.Join(dir, r.File))
		if err != nil {
			t.Fatal(err)
		}
		f := openBytes(t, data)
		s := f.Security
		switch {
		case s == nil:
			t.Errorf("%s: not encrypted", r.File)
		case reason == "" && !s.Opened:
			t.Errorf("%s: not opened (%s)", r.File, s.Reason)
		case reason != "" && (s.Opened || s.Reason != reason):
			t.Errorf("%s: opened %v reason %q, want %q", r.File, s.Opened, s.Reason, reason)
		case reason == "":
			if cat, _ := f.Resolve(f.Trailer().Get("Root")).(*cos.Dict); cat == nil {
				t.Errorf("%s: no catalogue", r.File)
			}
			if d := infoText(f, "CreationDate"); d != "" && !strings.HasPrefix(d, "D:") {
				t.Errorf("%s: CreationDate %q", r.File, d)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d of %d corpus files found", seen, len(want))
	}
}
