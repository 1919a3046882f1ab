// Package ledgertest builds e-mail messages for the ledger's tests.
package ledgertest

import (
	"encoding/base64"
	"fmt"
	"strings"
)

// Attachment is one attached file.
type Attachment struct {
	Name, Type string
	Data       []byte
}

// Message returns an RFC 5322 message from sender with body text and the
// attachments, base64-encoded in a multipart/mixed body.
func Message(from, messageID, body string, atts ...Attachment) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "From: Supplier <%s>\r\nTo: ap@ingest.example\r\nSubject: Invoice\r\nMessage-ID: %s\r\nMIME-Version: 1.0\r\n", from, messageID)
	b.WriteString("Content-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n")
	b.WriteString("--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body + "\r\n")
	for _, a := range atts {
		fmt.Fprintf(&b, "--b1\r\nContent-Type: %s\r\nContent-Disposition: attachment; filename=%q\r\nContent-Transfer-Encoding: base64\r\n\r\n", a.Type, a.Name)
		enc := base64.StdEncoding.EncodeToString(a.Data)
		for len(enc) > 76 {
			b.WriteString(enc[:76] + "\r\n")
			enc = enc[76:]
		}
		b.WriteString(enc + "\r\n")
	}
	b.WriteString("--b1--\r\n")
	return []byte(b.String())
}

// Nested returns a message whose body nests depth multiparts.
func Nested(depth int) []byte {
	var b strings.Builder
	b.WriteString("From: a@b.example\r\nMIME-Version: 1.0\r\n")
	for i := range depth {
		fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=\"n%d\"\r\n\r\n--n%d\r\n", i, i)
	}
	b.WriteString("Content-Type: text/plain\r\n\r\nhi\r\n")
	for i := depth - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "--n%d--\r\n", i)
	}
	return []byte(b.String())
}
