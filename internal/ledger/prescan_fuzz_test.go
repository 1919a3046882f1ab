package ledger

import (
	"bytes"
	"strings"
	"testing"

	"github.com/jhillyerd/enmime/v2"

	"github.com/doctrust/doctrust/internal/ledger/ledgertest"
)

// shape is the depth and the number of parts of a parsed tree.
func shape(p *enmime.Part, depth int) (maxDepth, parts int) {
	maxDepth, parts = depth, 1
	for c := p.FirstChild; c != nil; c = c.NextSibling {
		d, n := shape(c, depth+1)
		maxDepth, parts = max(maxDepth, d), parts+n
	}
	return maxDepth, parts
}

// FuzzPrescan: whatever prescan accepts, the parser reads into a tree no
// deeper than the declared-multipart cap and with no more parts than the
// delimiter cap allows, which is what bounds its time.
func FuzzPrescan(f *testing.F) {
	pdf := ledgertest.Attachment{Name: "a.pdf", Type: "application/pdf", Data: []byte("%PDF-1.7\n%%EOF\n")}
	f.Add(ledgertest.Message("a@b.example", "<m@b>", "hello", pdf))
	f.Add(ledgertest.Nested(maxBoundaries))
	f.Add(ledgertest.Nested(maxBoundaries + 1))
	f.Add(bytes.Replace(ledgertest.Message("a@b.example", "<m@b>", "x", pdf), []byte("JVBER"), []byte("!!*&^"), 1))
	f.Add([]byte("From: a@b.example\r\nContent-Type: multipart/mixed\r\n\r\n--\r\nContent-Type: multipart/mixed\r\n\r\n--\r\n\r\nx\r\n----\r\n----\r\n"))
	f.Add([]byte("Content-Type: multipart/mixed; BOUNDARY*0=a; boundary*1=b\r\n\r\n--ab\r\n\r\nx\r\n--ab--\r\n"))
	f.Add([]byte("Content-Type: message/rfc822\r\n\r\nContent-Type: multipart/mixed; boundary=q\r\n\r\n--q\r\n\r\n--q--\r\n"))
	f.Add([]byte("Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n" + strings.Repeat("--b\r\nContent-Transfer-Encoding: base64\r\n\r\n"+strings.Repeat("QUFB", 100)+"\r\n", 20) + "--b--\r\n"))
	// One large part (kept small enough for the fuzzer to minimise).
	f.Add([]byte("Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: application/pdf\r\n\r\n" + strings.Repeat("%PDF", 2048) + "\r\n--b--\r\n"))
	f.Add([]byte("\r\n\r\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if prescan(raw) != nil {
			return
		}
		env, err := newParser().ReadEnvelope(bytes.NewReader(raw))
		if err != nil {
			return
		}
		// The root is depth 0; each multipart level adds one.
		if depth, parts := shape(env.Root, 0); depth > maxBoundaries+1 || parts > maxDelimiters+maxBoundaries+1 {
			t.Fatalf("prescan accepted a message the parser read %d deep with %d parts", depth, parts)
		}
	})
}
