// Package store is the service's persistence contract: the records the
// service keeps (accounts, API keys, quota counters, credits, usage rows,
// rate-limit windows, secrets) and the one interface both implementations
// satisfy, the embedded SQLite store (package sqlite) and DynamoDB (package
// dynamodb). Their shared behavioural suite is package storetest.
//
// Every method that changes more than one record does so atomically: a
// storage failure never leaves half an account, a counter bumped without
// its usage row, or credits spent without their usage row.
package store

import (
	"context"
	"errors"
	"time"
)

// Errors every implementation returns for the same conditions.
var (
	// ErrNotFound: no such record (or it has expired).
	ErrNotFound = errors.New("store: not found")
	// ErrConflict: a record with the same unique key exists (an email
	// address already registered, a credit grant already applied).
	ErrConflict = errors.New("store: conflict")
	// ErrRefused: a conditional change did not hold (the quota counter
	// would pass its limit, not enough credits, a rate window full). Nothing
	// was written.
	ErrRefused = errors.New("store: refused")
	// ErrUnavailable: the store did not answer in time, refused the
	// connection, throttled past the retries or lacks a table. Nothing is
	// known to be written; the call may be retried later. The original
	// error stays in the chain for the log.
	ErrUnavailable = errors.New("store: unavailable")
)

// Account is a customer account. The plan is the account's: every key of
// the account shares its monthly quota.
type Account struct {
	ID           string
	Email        string // lower-cased, unique
	PasswordHash string // set by the accounts layer; never logged
	Verified     bool
	Plan         string // a plan name of package plans
	Credits      int    // prepaid documents, spent past the monthly quota on Free
	Created      time.Time
	// SessionEpoch is bumped by a password reset; a session is live only
	// while its Epoch equals its account's, so one write ends every
	// session of the account at once.
	SessionEpoch int
	Billing      Billing
}

// Billing is an account's standing with the payment processor, written
// only by the billing webhook (and SetCustomer). Zero on an account that
// never paid.
type Billing struct {
	CustomerID     string // the processor's customer (Stripe cus_…)
	SubscriptionID string // the subscription behind a paid plan; empty when none
	// PeriodStart and PeriodEnd bound the subscription's current billing
	// period; zero until an event has told them.
	PeriodStart, PeriodEnd time.Time
	// PlanVersion orders plan assignments (PlanState.Version): the last
	// one applied. 0 until the first.
	PlanVersion int64
	// PaymentFailedAt and PaymentFailedRef record the last failed delayed
	// payment (its time and checkout session); the plan is left as it was.
	PaymentFailedAt  time.Time
	PaymentFailedRef string
}

// PlanState is an absolute plan assignment from the payment processor:
// the plan, the subscription behind it (empty: none) and its period.
// Assignments carry a Version so that replays and events delivered out of
// order converge on the newest: one older than the account's PlanVersion
// is refused.
type PlanState struct {
	Plan                   string
	SubscriptionID         string
	PeriodStart, PeriodEnd time.Time
	Version                int64
	// IfSubscription, when set, applies the state only while the account's
	// subscription is this one or none: the end of one subscription never
	// clears another that replaced it.
	IfSubscription string
}

// PaymentFailure is a failed delayed payment.
type PaymentFailure struct {
	At  time.Time
	Ref string // the checkout session
}

// Session is a logged-in browser, kept under the hash of its cookie value.
type Session struct {
	Hash      string // hex SHA-256 of the cookie value
	AccountID string
	Epoch     int // the account's SessionEpoch when the session began
	Created   time.Time
	Expires   time.Time
}

// Token kinds.
const (
	TokenVerify = "verify" // email verification, 7 days
	TokenReset  = "reset"  // password reset, 1 hour
)

// Token is a single-use emailed token, kept under the hash of its value.
type Token struct {
	Hash      string // hex SHA-256 of the token
	Kind      string
	AccountID string
	Expires   time.Time
}

// APIKey is a key as stored: the SHA-256 of the plaintext (hex), never the
// plaintext itself, and a preview that cannot be turned back into it.
type APIKey struct {
	ID        string
	AccountID string
	Hash      string // hex SHA-256 of the plaintext key
	Preview   string // e.g. "svc_…3f9a": prefix and the last four characters
	Created   time.Time
	Revoked   bool
	RevokedAt time.Time
}

// UsageRecord is one counted analysis in the usage ledger. Anonymous rows
// carry the client IP and no account; keyed rows carry the account and
// key. No document byte, filename or report content is kept: only size and
// the risk band.
type UsageRecord struct {
	ID        string
	AccountID string // empty for an anonymous call
	KeyID     string
	ClientIP  string // anonymous calls only
	Route     string // e.g. "inspect"
	At        time.Time
	Documents int   // units charged (compare costs 2)
	Bytes     int64 // size of the document(s)
	Band      string
	Credit    bool      // served from prepaid credits
	Expires   time.Time // 90 days anonymous, 400 days keyed
}

// Charge is one metered analysis, applied atomically with its usage row.
type Charge struct {
	AccountID string
	Month     string // "2006-01", UTC
	Documents int
	// Limit is the highest value the monthly counter may reach (quota plus
	// the free buffer). Used when FromCredits is false.
	Limit int
	// FromCredits spends prepaid credits instead of the monthly counter.
	FromCredits bool
	Usage       UsageRecord
}

// Balance is an account's metering state after a change.
type Balance struct {
	Used    int // documents counted against this month's quota
	Credits int // prepaid documents left
}

// Baseline is an account's issuer baseline profile. Profile is the
// engine's profile as JSON (engine/baseline.Profile): the store keeps it
// whole and never reads inside it.
type Baseline struct {
	AccountID string
	Issuer    string // slug, unique per account
	Profile   []byte
	Created   time.Time
	Updated   time.Time
}

// Store is the persistence interface of the service.
type Store interface {
	// CreateAccount stores a new account with its first key, atomically.
	// ErrConflict when the email is taken.
	CreateAccount(ctx context.Context, a Account, first APIKey) error
	Account(ctx context.Context, id string) (Account, error)
	AccountByEmail(ctx context.Context, email string) (Account, error)
	// SetPlan moves an account to a plan (support tooling, billing).
	SetPlan(ctx context.Context, accountID, plan string) error
	// AddCredits grants prepaid documents once per grantID (a checkout
	// session id): a replay of the same grant is ErrConflict and changes
	// nothing.
	AddCredits(ctx context.Context, accountID string, n int, grantID string) (Balance, error)
	// SetCustomer records the account's customer at the payment processor.
	SetCustomer(ctx context.Context, accountID, customerID string) error
	// ApplyPlan assigns st (plan, subscription, period, PlanVersion) in one
	// write. ErrRefused, with nothing written, when st.Version is below the
	// account's PlanVersion or IfSubscription does not hold; an equal
	// version applies again (a replay writes the same values).
	ApplyPlan(ctx context.Context, accountID string, st PlanState) error
	// RecordPaymentFailure records f unless a later failure is recorded
	// already (ErrRefused); the plan is untouched.
	RecordPaymentFailure(ctx context.Context, accountID string, f PaymentFailure) error

	// CreateSession stores a new session.
	CreateSession(ctx context.Context, sess Session) error
	// Session finds a session by hash; ErrNotFound when unknown or expired.
	Session(ctx context.Context, hash string) (Session, error)
	// DeleteSession ends a session; ending an unknown one is not an error.
	DeleteSession(ctx context.Context, hash string) error

	// CreateToken stores a new single-use token.
	CreateToken(ctx context.Context, tok Token) error
	// VerifyEmail consumes a verification token and marks its account
	// verified, atomically; ErrNotFound when the token is unknown, of
	// another kind, expired or already used.
	VerifyEmail(ctx context.Context, tokenHash string) (accountID string, err error)
	// ResetPassword consumes a reset token, sets the password hash and
	// bumps the account's SessionEpoch (ending every session), atomically;
	// ErrNotFound as for VerifyEmail.
	ResetPassword(ctx context.Context, tokenHash, passwordHash string) (accountID string, err error)

	// RotateKey revokes the account's active key oldKeyID and stores its
	// replacement, atomically; ErrNotFound when oldKeyID is not an active
	// key of the account.
	RotateKey(ctx context.Context, accountID, oldKeyID string, replacement APIKey) error

	// KeyByHash resolves a presented key. Revoked keys are returned with
	// Revoked set; the caller refuses them.
	KeyByHash(ctx context.Context, hash string) (APIKey, error)
	// Keys lists an account's keys, oldest first.
	Keys(ctx context.Context, accountID string) ([]APIKey, error)

	// Balance reads the month's counter and the credits.
	Balance(ctx context.Context, accountID, month string) (Balance, error)
	// Charge counts one analysis: the counter (or the credits) and the
	// usage row change together or not at all. ErrRefused when the
	// counter would pass Limit or the credits do not cover it.
	Charge(ctx context.Context, c Charge) (Balance, error)
	// RecordUsage writes a usage row that charges nothing (anonymous calls).
	RecordUsage(ctx context.Context, u UsageRecord) error
	// UsageSince lists an account's usage rows at or after from, oldest
	// first; expired rows are never returned.
	UsageSince(ctx context.Context, accountID string, from time.Time) ([]UsageRecord, error)

	// Hit counts one event in a fixed rate window named by bucket (the
	// caller puts the window's start in the name). It returns the count
	// including this event, or ErrRefused with nothing written when the
	// window already holds limit events. The window is forgotten after
	// expires.
	Hit(ctx context.Context, bucket string, limit int, expires time.Time) (int, error)

	// Count reads a rate window's count without counting (0 when the
	// window is unknown or expired).
	Count(ctx context.Context, bucket string) (int, error)

	// Secret returns the named secret, storing candidate first when none
	// exists; two racing callers both get the one that was stored.
	Secret(ctx context.Context, name string, candidate []byte) ([]byte, error)

	// The supplier ledger (docs/ledger.md, records in ledger.go).

	// EnsureAlias returns the account's ingest alias, storing candidate
	// when it has none. ErrConflict when candidate belongs to another
	// account (the caller draws another).
	EnsureAlias(ctx context.Context, accountID, candidate string) (string, error)
	// AliasAccount resolves an alias; ErrNotFound when unknown.
	AliasAccount(ctx context.Context, alias string) (string, error)
	// Suppliers lists an account's suppliers ordered by key.
	Suppliers(ctx context.Context, accountID string) ([]Supplier, error)
	// SaveSupplier writes sp with revision sp.Rev+1 when the stored
	// revision is sp.Rev (0: none stored); ErrConflict otherwise, with
	// nothing written.
	SaveSupplier(ctx context.Context, sp Supplier) error
	// AddAlert stores an alert.
	AddAlert(ctx context.Context, a Alert) error
	// AlertsSince lists an account's alerts at or after from, oldest
	// first; expired alerts are never returned.
	AlertsSince(ctx context.Context, accountID string, from time.Time) ([]Alert, error)
	// AcknowledgeAlert marks the account's alert id seen at when; an alert
	// already acknowledged keeps its first time. ErrNotFound when the
	// account has no such alert (or it expired).
	AcknowledgeAlert(ctx context.Context, accountID, id string, when time.Time) error

	// Alert webhooks (docs/ledger.md, "Webhook"; records in webhook.go).

	// PutWebhook sets or replaces the account's webhook (Last starts
	// empty).
	PutWebhook(ctx context.Context, w Webhook) error
	// Webhook reads the account's webhook; ErrNotFound when none is set.
	Webhook(ctx context.Context, accountID string) (Webhook, error)
	// DeleteWebhook removes the account's webhook; removing none is not
	// an error. Its pending deliveries are given up when next attempted.
	DeleteWebhook(ctx context.Context, accountID string) error
	// RecordDelivery sets the webhook's Last outcome while the webhook
	// is still the setting webhookID; ErrNotFound otherwise, with nothing
	// written.
	RecordDelivery(ctx context.Context, accountID, webhookID string, o DeliveryOutcome) error
	// AddAlertDelivery stores an alert and the delivery of its event
	// together, or neither; the delivery's revision is then 1.
	// ErrConflict when the delivery's id is taken.
	AddAlertDelivery(ctx context.Context, a Alert, d Delivery) error
	// DueDeliveries lists up to limit deliveries whose Due is at or
	// before now, soonest first, whatever their account.
	DueDeliveries(ctx context.Context, now time.Time, limit int) ([]Delivery, error)
	// SaveDelivery writes d with revision d.Rev+1 when the stored one is
	// d.Rev; ErrConflict otherwise (another attempt claimed it, or it is
	// gone), with nothing written.
	SaveDelivery(ctx context.Context, d Delivery) error
	// DeleteDelivery removes d when its stored revision is d.Rev;
	// ErrConflict otherwise.
	DeleteDelivery(ctx context.Context, d Delivery) error

	// Issuer baselines (docs/baselines.md).

	// PutBaseline creates or replaces the account's profile for b.Issuer
	// (Created is kept on a replacement). Creating one more profile than
	// limit is ErrRefused, with nothing written.
	PutBaseline(ctx context.Context, b Baseline, limit int) error
	// Baseline reads one profile; ErrNotFound when the account has none
	// for the issuer.
	Baseline(ctx context.Context, accountID, issuer string) (Baseline, error)
	// Baselines lists the account's profiles by issuer.
	Baselines(ctx context.Context, accountID string) ([]Baseline, error)
	// DeleteBaseline removes the account's profile; ErrNotFound when the
	// account has none for the issuer.
	DeleteBaseline(ctx context.Context, accountID, issuer string) error

	Close() error
}

// Month is the quota month of t (UTC calendar month).
func Month(t time.Time) string { return t.UTC().Format("2006-01") }
