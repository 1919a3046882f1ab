// Package mail sends the service's few outgoing mails (address
// verification, password reset) through one Sender interface, so handlers
// neither know nor care whether a mail goes to SES or to a folder.
//
// FromEnv chooses the sender from the environment:
//
//   - MAIL_OUTBOX: a folder. Each mail is written there as one .eml file
//     instead of being sent, so the whole service runs locally without an
//     AWS account and tests can read the mails back. Takes precedence over
//     SES.
//   - MAIL_FROM: the From address ("doctrust <no-reply@example.com>"). With
//     MAIL_OUTBOX it only changes the From header (default
//     "doctrust <no-reply@localhost>"); without it, it switches on SES,
//     which must have this identity verified.
//   - AWS_REGION: the SES region (otherwise the SDK's own lookup).
//   - SES_ENDPOINT: a URL replacing SES's endpoint, for a local stand-in.
//     Unless AWS_ACCESS_KEY_ID or AWS_PROFILE is set, a stand-in is then
//     called with a fixed dummy key pair and region us-east-1 by default.
//
// With neither MAIL_OUTBOX nor MAIL_FROM, FromEnv returns ErrNotConfigured.
//
// Mail bodies carry single-use tokens, so no error from this package
// contains a body, and callers must not log one either.
package mail

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"

	"github.com/doctrust/doctrust/internal/awsconf"
)

// Message is one outgoing mail; plain text only.
type Message struct {
	To, Subject, Text string
}

// Sender delivers a Message, or hands it to something that will.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// ErrNotConfigured means no sender is configured: callers answer 503 or
// stay silent.
var ErrNotConfigured = errors.New("mail: no sender configured (set MAIL_OUTBOX or MAIL_FROM)")

// ErrInvalidMessage means the message itself was refused before any
// delivery attempt (a bad address, a line break in a header), so retrying
// cannot help; callers may answer 400.
var ErrInvalidMessage = errors.New("mail: invalid message")

// DefaultOutboxFrom is the From address of outbox mails when MAIL_FROM is
// unset.
const DefaultOutboxFrom = "doctrust <no-reply@localhost>"

// maxSubject keeps a folded Subject header far below RFC 5322's 998-byte
// line limit whatever the encoding does to it.
const maxSubject = 500

// maxAddress is the longest address SMTP can carry (RFC 5321 4.5.3.1.3).
const maxAddress = 254

// FromEnv builds the sender the environment asks for; see the package doc.
// getenv is os.Getenv outside tests.
func FromEnv(ctx context.Context, getenv func(string) string) (Sender, error) {
	from := getenv("MAIL_FROM")
	if dir := getenv("MAIL_OUTBOX"); dir != "" {
		if from == "" {
			from = DefaultOutboxFrom
		}
		if _, err := parseFrom(from); err != nil {
			return nil, err
		}
		return &Outbox{Dir: dir, From: from}, nil
	}
	if from == "" {
		return nil, ErrNotConfigured
	}
	if _, err := parseFrom(from); err != nil {
		return nil, err
	}
	client, err := sesClient(ctx, getenv)
	if err != nil {
		return nil, err
	}
	return &SES{Client: client, From: from}, nil
}

func sesClient(ctx context.Context, getenv func(string) string) (*sesv2.Client, error) {
	endpoint := getenv("SES_ENDPOINT")
	// LoadDefaultConfig reads the process environment itself; passing the
	// region through getenv keeps FromEnv's answer a function of getenv.
	cfg, err := awsconf.Load(ctx, getenv("AWS_REGION"), endpoint, getenv)
	if errors.Is(err, awsconf.ErrNoRegion) {
		return nil, errors.New("mail: MAIL_FROM selects SES but no AWS region is configured (set AWS_REGION)")
	}
	if err != nil {
		return nil, fmt.Errorf("mail: %w", err)
	}
	return sesv2.NewFromConfig(cfg, func(o *sesv2.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	}), nil
}

// validate checks what both senders put into headers and returns the
// parsed recipient. The body needs no check: it never reaches a header.
func validate(m Message) (*mail.Address, error) {
	if strings.ContainsAny(m.To, "\r\n") {
		return nil, fmt.Errorf("%w: line break in To", ErrInvalidMessage)
	}
	if strings.ContainsAny(m.Subject, "\r\n") {
		return nil, fmt.Errorf("%w: line break in Subject", ErrInvalidMessage)
	}
	if len(m.Subject) > maxSubject {
		return nil, fmt.Errorf("%w: Subject longer than %d bytes", ErrInvalidMessage, maxSubject)
	}
	to, err := mail.ParseAddress(m.To)
	if err != nil {
		// The parser's message quotes the address back; an address is not
		// a secret, but keep the error short and fixed.
		return nil, fmt.Errorf("%w: To is not one mail address", ErrInvalidMessage)
	}
	// RFC 5321's limit; it also keeps the To header line within RFC
	// 5322's 998 bytes, since an address cannot be folded.
	if len(to.Address) > maxAddress {
		return nil, fmt.Errorf("%w: To address longer than %d bytes", ErrInvalidMessage, maxAddress)
	}
	return to, nil
}

// parseFrom checks the configured sender address. A bad one is the
// operator's mistake, not the caller's, so it is not ErrInvalidMessage.
func parseFrom(from string) (*mail.Address, error) {
	if strings.ContainsAny(from, "\r\n") {
		return nil, errors.New("mail: line break in the From address")
	}
	a, err := mail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("mail: From address %q: %w", from, err)
	}
	return a, nil
}

// formatAddress writes a bare address when there is no display name, so
// the header reads "To: bob@example.com" rather than net/mail's
// "<bob@example.com>"; both parse, the first is what people grep for.
func formatAddress(a *mail.Address) string {
	if a.Name == "" {
		return a.Address
	}
	return a.String()
}

// fold writes a header field, breaking its value at spaces so that lines
// stay within RFC 5322's 78 characters where the words allow it. The
// RFC 2047 encoder emits 75-character words separated by spaces on one
// line, and encoded words contain no spaces, so breaking there never
// splits one. The break may come straight after the colon, as Python's
// email package does too: no such word fits after "Subject: ".
func fold(name, value string) string {
	var b strings.Builder
	b.WriteString(name)
	col := len(name)
	for word := range strings.SplitSeq(value, " ") {
		// Never before an empty word: a line of only white space is
		// forbidden.
		if word != "" && col+1+len(word) > 78 {
			b.WriteString("\r\n")
			col = 0
		}
		b.WriteByte(' ')
		b.WriteString(word)
		col += 1 + len(word)
	}
	b.WriteString("\r\n")
	return b.String()
}
