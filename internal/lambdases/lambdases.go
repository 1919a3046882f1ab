// Package lambdases is the SES door of the supplier ledger. The receipt
// rule's S3 action stores each message in the ingest bucket and its Lambda
// action then invokes functions/ingest with the SES event; the function
// reads the object under the message cap, runs ledger.Intake (the same
// pipeline as POST /api/v1/ingest/email) and deletes the object.
package lambdases

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/doctrust/doctrust/internal/ledger"
)

const (
	// maxRecipients bounds the recipients tried per message (SES accepts
	// 50).
	maxRecipients = 50
	// deleteReserve is kept from the invocation's deadline for deleting
	// the object once the ledger is done.
	deleteReserve = time.Second
)

// Objects is the part of the S3 client the door uses.
type Objects interface {
	GetObject(ctx context.Context, in *s3.GetObjectInput, opts ...func(*s3.Options)) (*s3.GetObjectOutput, error)
	DeleteObject(ctx context.Context, in *s3.DeleteObjectInput, opts ...func(*s3.Options)) (*s3.DeleteObjectOutput, error)
}

// Handler handles SES receipt events.
type Handler struct {
	Intake ledger.Intake
	S3     Objects
	// Bucket and Prefix say where the rule's S3 action wrote the message
	// when the event does not (an event from the Lambda action carries
	// only the Lambda action): the object key is Prefix and SES's message
	// id.
	Bucket, Prefix string
	// Logger gets ids and outcomes only: never an address, a header or a
	// byte of the message.
	Logger *slog.Logger
}

// errRetry marks a failure worth Lambda's retry of an asynchronous
// invocation; the object is kept for it.
var errRetry = errors.New("lambdases: message kept for retry")

// Handle processes each record. An error makes Lambda retry the
// invocation (twice, for the asynchronous invocation of a receipt rule);
// the bucket's lifecycle removes what is never processed.
func (h *Handler) Handle(ctx context.Context, ev events.SimpleEmailEvent) error {
	var errs []error
	for _, rec := range ev.Records {
		errs = append(errs, h.record(ctx, rec.SES))
	}
	return errors.Join(errs...)
}

// record feeds one message to the ledger of the first recipient that
// names an alias, then deletes its object, whatever the outcome, unless a
// transient failure (store, S3, the alias's limit) leaves it for a retry.
func (h *Handler) record(ctx context.Context, ses events.SimpleEmailService) error {
	id := ses.Mail.MessageID
	bucket, key := h.location(ses)
	if bucket == "" || key == "" {
		h.Logger.Error("ses ingest: no object to read", "sesMessageId", id)
		return nil
	}
	work := ctx
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		work, cancel = context.WithDeadline(ctx, dl.Add(-deleteReserve))
		defer cancel()
	}
	load := func() ([]byte, error) { return h.read(work, bucket, key) }
	outcome, out, err := "no-alias", ledger.Outcome{}, error(nil)
	recipients := ses.Receipt.Recipients
	if len(recipients) > maxRecipients {
		recipients = recipients[:maxRecipients]
	}
	for _, rcpt := range recipients {
		out, err = h.Intake.Receive(work, rcpt, load)
		if !errors.Is(err, ledger.ErrUnknownAlias) {
			outcome = classify(err)
			break
		}
	}
	if outcome == "retry" {
		h.Logger.Error("ses ingest: failed, kept for retry", "sesMessageId", id, "err", err.Error())
		return fmt.Errorf("%w: %s", errRetry, id)
	}
	h.Logger.Info("ses ingest", "sesMessageId", id, "outcome", outcome, "created", out.Created, "changed", out.Changed,
		"alerts", len(out.Alerts), "documents", out.Documents, "skipped", out.Skipped, "partial", out.Partial)
	if _, err := h.S3.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)}); err != nil {
		// Not retried: a second pass would only repeat alerts. The
		// bucket's lifecycle removes the object within a day or two.
		h.Logger.Error("ses ingest: delete failed", "sesMessageId", id, "err", err.Error())
	}
	return nil
}

// classify names an outcome for the log; "retry" is a transient failure:
// the alias's limit (*ratelimit.Exceeded), the store, S3, the deadline.
// None of those errors carries message content.
func classify(err error) string {
	switch {
	case err == nil:
		return "ingested"
	case errors.Is(err, ledger.ErrUnparseable):
		return "unparseable"
	case errors.Is(err, errGone):
		return "object-gone"
	}
	return "retry"
}

// location is the S3 action's bucket and key when the event names them
// (an S3 action's own notification), else the configured bucket and the
// key the action derives from the message id.
func (h *Handler) location(ses events.SimpleEmailService) (bucket, key string) {
	if a := ses.Receipt.Action; strings.EqualFold(a.Type, "S3") && a.BucketName != "" && a.ObjectKey != "" {
		return a.BucketName, a.ObjectKey
	}
	if ses.Mail.MessageID == "" {
		return "", ""
	}
	return h.Bucket, h.Prefix + ses.Mail.MessageID
}

// errGone is an object already deleted (an earlier delivery of the same
// event) or expired by the lifecycle: nothing is left to do.
var errGone = errors.New("lambdases: object gone")

// read fetches the message, refusing one over the cap before reading its
// body; the limited read holds even when the length header is absent.
func (h *Handler) read(ctx context.Context, bucket, key string) ([]byte, error) {
	obj, err := h.S3.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	var nsk *s3types.NoSuchKey
	if errors.As(err, &nsk) {
		return nil, errGone
	}
	if err != nil {
		return nil, err
	}
	defer obj.Body.Close()
	if obj.ContentLength != nil && *obj.ContentLength > ledger.MaxMessageBytes {
		return nil, ledger.ErrUnparseable
	}
	raw, err := io.ReadAll(io.LimitReader(obj.Body, ledger.MaxMessageBytes+1))
	if err != nil {
		return nil, err
	}
	if len(raw) > ledger.MaxMessageBytes {
		return nil, ledger.ErrUnparseable
	}
	return raw, nil
}

// Start runs the function; it never returns.
func Start() {
	h, err := New(context.Background(), os.Getenv, os.Stderr)
	if err != nil {
		// Configuration errors fail the init phase, where CloudWatch shows them.
		panic(err)
	}
	lambda.Start(h.Handle)
}
