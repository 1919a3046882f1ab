package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Outbox writes each mail as one RFC 5322 .eml file in Dir instead of
// sending it: the local-run stand-in for SES (MAIL_OUTBOX).
type Outbox struct {
	// Dir is created (mode 0700) when missing.
	Dir string
	// From is the From header; empty means DefaultOutboxFrom.
	From string
	// Now stamps the Date header and the file name; nil means time.Now.
	Now func() time.Time
}

var _ Sender = (*Outbox)(nil)

// Send writes m to a new file named <unix-nanos>-<random>.eml, the
// nanoseconds zero-padded so that names sort by time. The file appears
// under its final name only once complete, so a reader watching Dir never
// sees half a mail. Mode 0600: the body holds live tokens.
func (o *Outbox) Send(ctx context.Context, m Message) error {
	if o.Dir == "" {
		return errors.New("mail: outbox has no folder")
	}
	to, err := validate(m)
	if err != nil {
		return err
	}
	fromText := o.From
	if fromText == "" {
		fromText = DefaultOutboxFrom
	}
	from, err := parseFrom(fromText)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	t := now()

	var msg bytes.Buffer
	msg.WriteString(fold("From:", formatAddress(from)))
	msg.WriteString(fold("To:", formatAddress(to)))
	msg.WriteString(fold("Subject:", mime.QEncoding.Encode("utf-8", m.Subject)))
	msg.WriteString("Date: " + t.Format(time.RFC1123Z) + "\r\n")
	msg.WriteString("Message-ID: <" + randomHex(16) + "@" + domain(from.Address) + ">\r\n")
	msg.WriteString("MIME-Version: 1.0\r\n")
	msg.WriteString("Content-Type: text/plain; charset=utf-8\r\n")
	msg.WriteString("Content-Transfer-Encoding: quoted-printable\r\n")
	msg.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&msg)
	text := m.Text
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	// Errors are impossible: the writer only writes to a bytes.Buffer.
	_, _ = qp.Write([]byte(text))
	_ = qp.Close()

	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return fmt.Errorf("mail: outbox folder: %w", err)
	}
	return writeNew(o.Dir, fmt.Sprintf("%020d", t.UnixNano()), msg.Bytes())
}

// writeNew writes data to a fresh file <stamp>-<random>.eml in dir,
// through a hidden temporary file created with O_EXCL. A clash, which
// would take the same nanosecond and the same random bits, is retried with
// new randomness rather than reported.
func writeNew(dir, stamp string, data []byte) error {
	for range 5 {
		name := stamp + "-" + randomHex(8) + ".eml"
		tmp := filepath.Join(dir, "."+name+".tmp")
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("mail: outbox file: %w", err)
		}
		_, werr := f.Write(data)
		cerr := f.Close()
		if werr == nil {
			werr = cerr
		}
		if werr == nil {
			// Rename replaces an existing file; clobbering one would take
			// the same nanosecond and the same 64 random bits.
			werr = os.Rename(tmp, filepath.Join(dir, name))
		}
		if werr != nil {
			_ = os.Remove(tmp)
			return fmt.Errorf("mail: outbox file: %w", werr)
		}
		return nil
	}
	return errors.New("mail: outbox file: no free file name")
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+).
	return hex.EncodeToString(b)
}

// domain gives the Message-ID the sender's domain, as RFC 5322 suggests,
// so IDs from different deployments cannot collide.
func domain(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 && i+1 < len(addr) {
		return addr[i+1:]
	}
	return "localhost"
}
