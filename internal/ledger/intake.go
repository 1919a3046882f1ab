package ledger

import (
	"context"
	"time"

	"github.com/doctrust/doctrust/internal/pool"
	"github.com/doctrust/doctrust/internal/ratelimit"
)

// IngestRule is the per-alias ingest limit (DESIGN.md), the same at both
// doors.
var IngestRule = ratelimit.Rule{Name: "ingest", Limit: 120, Window: time.Minute}

// Intake is the one way a message enters the ledger, shared by both doors:
// the HTTP route of the email worker (internal/httpapi) and the SES
// receipt function (internal/lambdases). Each door only says how it reads
// the recipient and the raw bytes and how it reports the outcome.
type Intake struct {
	Ledger *Ledger
	// Domain is INGEST_MAIL_DOMAIN: a recipient in another domain names no
	// alias. Empty accepts any domain.
	Domain  string
	Limiter *ratelimit.Limiter
	// Workers, when set, bounds the CPU the attachments take (the HTTP
	// door shares the upload routes' pool); nil runs at once.
	Workers *pool.Pool
}

// Receive runs one message: the recipient picks the account
// (ErrUnknownAlias), the alias's limit applies (*ratelimit.Exceeded), then
// load reads the message, which it is asked for only past those checks,
// and the ledger ingests it (ErrUnparseable when refused). A load error
// is returned as it is.
func (in *Intake) Receive(ctx context.Context, recipient string, load func() ([]byte, error)) (Outcome, error) {
	alias, accountID, err := in.Ledger.Resolve(ctx, recipient, in.Domain)
	if err != nil {
		return Outcome{}, err
	}
	if err := in.Limiter.Allow(ctx, IngestRule, alias); err != nil {
		return Outcome{}, err
	}
	raw, err := load()
	if err != nil {
		return Outcome{}, err
	}
	if in.Workers != nil {
		if err := in.Workers.Acquire(ctx); err != nil {
			return Outcome{}, err
		}
		defer in.Workers.Release()
	}
	return in.Ledger.Ingest(ctx, accountID, raw)
}
