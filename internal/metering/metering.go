// Package metering decides who a caller is and what an analysis costs
// them: a bearer key resolves to an account metered against its plan's
// monthly quota (then its free buffer, then prepaid credits); no key means
// an anonymous caller limited per client IP. The HTTP layer calls Resolve,
// Admit before the analysis and Settle after it, and maps the errors here
// onto SPEC.md's table.
package metering

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/doctrust/doctrust/internal/apikey"
	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/ratelimit"
	"github.com/doctrust/doctrust/internal/store"
	"github.com/google/uuid"
	"golang.org/x/sync/singleflight"
)

// Retention of usage rows (SPEC.md, Limits).
const (
	AnonymousRetention = 90 * 24 * time.Hour
	KeyedRetention     = 400 * 24 * time.Hour
)

// DefaultAnonPerHour is ANON_LIMIT_PER_HOUR's default.
const DefaultAnonPerHour = 10

// ErrInvalidKey: a key was presented and does not resolve (unknown,
// revoked, malformed header). Never a fallback to anonymous.
var ErrInvalidKey = errors.New("metering: invalid api key")

// QuotaExceeded refuses a keyed call past the quota, the buffer and the
// credits. Nothing was counted.
type QuotaExceeded struct{ Status Status }

func (e *QuotaExceeded) Error() string {
	return fmt.Sprintf("quota exceeded: %d of %d used", e.Status.Used, e.Status.Limit)
}

// State is `x-quota-state`.
type State string

const (
	Within      State = "within"
	SoftCeiling State = "soft-ceiling"
	Exhausted   State = "exhausted"
)

// Status is what the five x-quota-* headers say.
type Status struct {
	Limit     int // the plan's monthly quota
	Used      int // documents counted against it this month
	Remaining int // of the quota (not the buffer)
	Ceiling   int // documents served free past the quota
	State     State
	Credits   int // prepaid documents left (x-quota-credits)
}

// StatusOf is the quota state of an account on plan p with balance b.
// Past the quota but inside the buffer, or past the buffer with
// credits left, calls are still served: soft-ceiling. Exhausted means the
// next call is refused.
func StatusOf(p plans.Plan, b store.Balance) Status {
	st := Status{Limit: p.Quota, Used: b.Used, Remaining: max(p.Quota-b.Used, 0), Ceiling: p.Buffer(), Credits: b.Credits, State: Within}
	switch {
	case b.Used >= p.Limit() && b.Credits == 0:
		st.State = Exhausted
	case b.Used > p.Quota || b.Used >= p.Limit():
		st.State = SoftCeiling
	}
	return st
}

// Caller is who made a request.
type Caller struct {
	IP      string
	Key     store.APIKey // zero for an anonymous caller
	Account store.Account
	Plan    plans.Plan
}

// Keyed reports whether the caller presented a valid key.
func (c Caller) Keyed() bool { return c.Key.ID != "" }

// Use is what one finished analysis consumed.
type Use struct {
	Route     string
	Documents int
	Bytes     int64
	Band      string
}

// Store is the part of store.Store the meter uses (store.Store documents
// each method): resolving a key to its account, the balance, charging and
// recording a use, and the rate limiter's part for the anonymous limit.
// Both backends satisfy it.
type Store interface {
	ratelimit.Store
	KeyByHash(ctx context.Context, hash string) (store.APIKey, error)
	Account(ctx context.Context, id string) (store.Account, error)
	Balance(ctx context.Context, accountID, month string) (store.Balance, error)
	Charge(ctx context.Context, c store.Charge) (store.Balance, error)
	RecordUsage(ctx context.Context, u store.UsageRecord) error
}

// Meter holds the store, the plan table and the anonymous limit.
type Meter struct {
	Store       Store
	Plans       plans.Table
	AnonPerHour int
	Now         func() time.Time
	NewID       func() string

	// peeks coalesces the window reads of answers that counted nothing
	// (AnonWindowShared), per address.
	peeks singleflight.Group
}

func (m *Meter) now() time.Time {
	if m.Now != nil {
		return m.Now().UTC()
	}
	return time.Now().UTC()
}

func (m *Meter) newID() string {
	if m.NewID != nil {
		return m.NewID()
	}
	return "use_" + uuid.NewString()
}

// AnonRule is the anonymous per-IP hourly limiter.
func (m *Meter) AnonRule() ratelimit.Rule {
	n := m.AnonPerHour
	if n <= 0 {
		n = DefaultAnonPerHour
	}
	return ratelimit.Rule{Name: "anon", Limit: n, Window: time.Hour}
}

// AnonWindow reads an anonymous caller's hourly window without counting:
// what the RateLimit headers of its response say.
func (m *Meter) AnonWindow(ctx context.Context, c Caller) (ratelimit.Window, error) {
	lim := ratelimit.Limiter{Store: m.Store, Now: m.now}
	return lim.Peek(ctx, m.AnonRule(), c.IP)
}

// AnonWindowShared is AnonWindow for an answer that counted nothing (a
// refusal before the analysis: busy, the window full, a bad upload):
// callers from one address asking at the same time share one store read.
// Under overload a client that retries at once is refused thousands of
// times a second, and one read per refusal took the CPU the admitted
// analyses needed. The shared read was in flight while the request was,
// and the request changed nothing, so the window it tells is one the
// request could have seen. An answer after its call was counted must not
// use it: a read begun before the count would miss it.
func (m *Meter) AnonWindowShared(ctx context.Context, c Caller) (ratelimit.Window, error) {
	v, err, _ := m.peeks.Do(c.IP, func() (any, error) {
		// Not the first caller's cancellation: the others wait on it too.
		// The store bounds every call with its own deadline.
		return m.AnonWindow(context.WithoutCancel(ctx), c)
	})
	if err != nil {
		return ratelimit.Window{}, err
	}
	return v.(ratelimit.Window), nil
}

// Resolve identifies the caller from the Authorization header value
// (empty: anonymous) and the client IP.
func (m *Meter) Resolve(ctx context.Context, authorization, ip string) (Caller, error) {
	c := Caller{IP: ip}
	if authorization == "" {
		return c, nil
	}
	plaintext, ok := apikey.FromHeader(authorization)
	if !ok {
		return c, ErrInvalidKey
	}
	k, err := m.Store.KeyByHash(ctx, apikey.Hash(plaintext))
	if errors.Is(err, store.ErrNotFound) || (err == nil && k.Revoked) {
		return c, ErrInvalidKey
	}
	if err != nil {
		return c, err
	}
	a, err := m.Store.Account(ctx, k.AccountID)
	if errors.Is(err, store.ErrNotFound) {
		return c, ErrInvalidKey // an orphaned key opens nothing
	}
	if err != nil {
		return c, err
	}
	c.Key, c.Account = k, a
	c.Plan, _ = m.Plans.Get(a.Plan)
	return c, nil
}

// Status reads a keyed caller's quota state without counting anything.
func (m *Meter) Status(ctx context.Context, c Caller) (Status, error) {
	b, err := m.Store.Balance(ctx, c.Account.ID, store.Month(m.now()))
	if err != nil {
		return Status{}, err
	}
	return StatusOf(c.Plan, b), nil
}

// Precheck is called before the request's body is read: an anonymous
// caller whose hourly window is already full gets *ratelimit.Exceeded, a
// keyed caller that nothing could pay for gets *QuotaExceeded. Nothing is
// counted, so a request refused later (busy, validation) costs nothing;
// Admit counts the anonymous call once the upload is valid.
func (m *Meter) Precheck(ctx context.Context, c Caller, docs int) (Status, error) {
	if !c.Keyed() {
		lim := ratelimit.Limiter{Store: m.Store, Now: m.now}
		return Status{}, lim.Check(ctx, m.AnonRule(), c.IP)
	}
	return m.Admit(ctx, c, docs)
}

// Admit is called before an analysis of docs documents. An anonymous call
// is counted here against its hourly window (*ratelimit.Exceeded when
// full); a keyed call is only checked (*QuotaExceeded when nothing could
// pay for it) and is counted by Settle once the analysis succeeded. The
// returned status is the keyed caller's state before the call.
func (m *Meter) Admit(ctx context.Context, c Caller, docs int) (Status, error) {
	if !c.Keyed() {
		lim := ratelimit.Limiter{Store: m.Store, Now: m.now}
		return Status{}, lim.Allow(ctx, m.AnonRule(), c.IP)
	}
	st, err := m.Status(ctx, c)
	if err != nil {
		return Status{}, err
	}
	if st.Used+docs > c.Plan.Limit() && st.Credits < docs {
		return st, &QuotaExceeded{Status: st}
	}
	return st, nil
}

// AdmitAnonymous is Admit for an anonymous caller: it counts the call in
// its hourly window (*ratelimit.Exceeded when full) and returns the window
// as the count left it, what the answer's RateLimit headers tell.
func (m *Meter) AdmitAnonymous(ctx context.Context, c Caller) (ratelimit.Window, error) {
	lim := ratelimit.Limiter{Store: m.Store, Now: m.now}
	return lim.Take(ctx, m.AnonRule(), c.IP)
}

// Settle records a successful analysis. A keyed call is charged to the
// monthly counter while it stays within quota plus buffer, else to the
// credits; the charge and its usage row are one atomic write. A call that
// lost the race for the last unit gets *QuotaExceeded and is not counted.
func (m *Meter) Settle(ctx context.Context, c Caller, u Use) (Status, error) {
	now := m.now()
	row := store.UsageRecord{ID: m.newID(), Route: u.Route, At: now, Documents: u.Documents, Bytes: u.Bytes, Band: u.Band}
	if !c.Keyed() {
		row.ClientIP, row.Expires = c.IP, now.Add(AnonymousRetention)
		return Status{}, m.Store.RecordUsage(ctx, row)
	}
	row.AccountID, row.KeyID, row.Expires = c.Account.ID, c.Key.ID, now.Add(KeyedRetention)
	ch := store.Charge{AccountID: c.Account.ID, Month: store.Month(now), Documents: u.Documents, Limit: c.Plan.Limit(), Usage: row}
	b, err := m.Store.Charge(ctx, ch)
	if errors.Is(err, store.ErrRefused) {
		ch.FromCredits, ch.Usage.Credit = true, true
		b, err = m.Store.Charge(ctx, ch)
	}
	if errors.Is(err, store.ErrRefused) {
		st, serr := m.Status(ctx, c)
		if serr != nil {
			return Status{}, serr
		}
		return st, &QuotaExceeded{Status: st}
	}
	if err != nil {
		return Status{}, err
	}
	return StatusOf(c.Plan, b), nil
}
