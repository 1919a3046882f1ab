package metadata

import (
	"os"
	"testing"
)

// TestPDFListingOpenedEncrypted: a permissions-only statement (empty user
// password, AES-128) is listed in clear, where the listing showed
// "(encrypted)" before; a file with a real user password still does.
func TestPDFListingOpenedEncrypted(t *testing.T) {
	data, err := os.ReadFile("../pdf/file/testdata/crypt/aes-128-noprint.pdf")
	if err != nil {
		t.Fatal(err)
	}
	r := list(t, data)
	want(t, r, "File", "", "Encrypted", "Yes", "", "")
	want(t, r, "File", "", "Encryption", "Standard, V 4, R 4, 128-bit, opened with the empty user password", "", "")
	want(t, r, "Info", "", "Producer", "ReportLab PDF Library - www.reportlab.com", "", "")
	want(t, r, "XMP", "", "xmp:CreatorTool", "Statement Service 4.2", "", "")
	if !hasNote(r, "structure-warnings.encrypted-opened") {
		t.Errorf("no opened note: %v", r.Notes)
	}

	data, err = os.ReadFile("../pdf/file/testdata/crypt/user-password.pdf")
	if err != nil {
		t.Fatal(err)
	}
	r = list(t, data)
	want(t, r, "File", "", "Encryption", "Standard, V 5, R 6, 256-bit, not opened (password-required)", "", "")
	want(t, r, "Info", "", "Producer", "(encrypted)", "", "")
}
