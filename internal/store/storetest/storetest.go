// Package storetest is the one behavioural suite every store.Store
// implementation must pass: the embedded SQLite store and DynamoDB (against
// DynamoDB Local) run the same tests, so the two cannot drift apart.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/store"
)

// Clock is a settable clock the suite hands to the store under test, so
// expiry is tested without sleeping.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Open makes a fresh, empty store reading time from clock. The suite
// closes it.
type Open func(t *testing.T, clock func() time.Time) store.Store

// Run runs every behaviour against stores made by open.
func Run(t *testing.T, open Open) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, store.Store, *Clock)
	}{
		{"AccountsAndKeys", testAccountsAndKeys},
		{"EmailConflictWritesNothing", testEmailConflict},
		{"SetPlan", testSetPlan},
		{"CreditsGrantedOnce", testCredits},
		{"ChargeStopsAtLimit", testChargeLimit},
		{"ChargeLastUnitRace", testChargeRace},
		{"ChargeFailureWritesNothing", testChargeAtomic},
		{"ChargeFromCredits", testChargeCredits},
		{"UsageRowsAndExpiry", testUsage},
		{"HitWindow", testHit},
		{"HitRace", testHitRace},
		{"Secret", testSecret},
		{"Sessions", testSessions},
		{"VerifyTokenSingleUse", testVerifyToken},
		{"ResetEndsSessions", testReset},
		{"RotateKey", testRotate},
		{"TokenRace", testTokenRace},
		{"BillingCustomer", testBillingCustomer},
		{"ApplyPlanConverges", testApplyPlan},
		{"ApplyPlanRace", testApplyPlanRace},
		{"PaymentFailure", testPaymentFailure},
		{"LedgerAlias", testLedgerAlias},
		{"LedgerSuppliers", testLedgerSuppliers},
		{"LedgerAlerts", testLedgerAlerts},
		{"Webhook", testWebhook},
		{"WebhookDeliveries", testDeliveries},
		{"Baselines", testBaselines},
		{"BaselineLimit", testBaselineLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := &Clock{now: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}
			s := open(t, clock.Now)
			t.Cleanup(func() { s.Close() })
			tc.fn(t, s, clock)
		})
	}
}

var ctx = context.Background()

// seq makes ids unique across the suite, so a backend shared between
// subtests (or between -count runs) sees no collisions.
var seq atomic.Int64

func uniq(prefix string) string {
	return fmt.Sprintf("%s%d_%d", prefix, time.Now().UnixNano()%1e9, seq.Add(1))
}

func newAccount(t *testing.T, s store.Store, clock *Clock, plan string) (store.Account, store.APIKey) {
	t.Helper()
	a := store.Account{ID: uniq("acct_"), Email: uniq("u") + "@example.com", PasswordHash: "h", Plan: plan, Created: clock.Now()}
	k := store.APIKey{ID: uniq("key_"), AccountID: a.ID, Hash: uniq("hash"), Preview: "svc_…abcd", Created: clock.Now()}
	if err := s.CreateAccount(ctx, a, k); err != nil {
		t.Fatalf("CreateAccount: %v", err)
	}
	return a, k
}

func testAccountsAndKeys(t *testing.T, s store.Store, clock *Clock) {
	a, k := newAccount(t, s, clock, "free")
	got, err := s.Account(ctx, a.ID)
	if err != nil || got.Email != a.Email || got.Plan != "free" || got.PasswordHash != "h" || !got.Created.Equal(a.Created) {
		t.Fatalf("Account = %+v, %v; want %+v", got, err, a)
	}
	byEmail, err := s.AccountByEmail(ctx, strings.ToUpper(a.Email))
	if err != nil || byEmail.ID != a.ID {
		t.Fatalf("AccountByEmail in another case = %+v, %v", byEmail, err)
	}
	if _, err := s.Account(ctx, "acct_missing"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing account: %v, want ErrNotFound", err)
	}
	if _, err := s.AccountByEmail(ctx, "nobody@example.com"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing email: %v, want ErrNotFound", err)
	}
	gk, err := s.KeyByHash(ctx, k.Hash)
	if err != nil || gk.ID != k.ID || gk.AccountID != a.ID || gk.Preview != k.Preview || gk.Revoked {
		t.Fatalf("KeyByHash = %+v, %v", gk, err)
	}
	if _, err := s.KeyByHash(ctx, "nohash"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown key: %v, want ErrNotFound", err)
	}
	keys, err := s.Keys(ctx, a.ID)
	if err != nil || len(keys) != 1 || keys[0].ID != k.ID {
		t.Fatalf("Keys = %+v, %v", keys, err)
	}
}

func testEmailConflict(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "free")
	b := store.Account{ID: uniq("acct_"), Email: strings.ToUpper(a.Email), Plan: "free", Created: clock.Now()}
	k := store.APIKey{ID: uniq("key_"), AccountID: b.ID, Hash: uniq("hash"), Created: clock.Now()}
	if err := s.CreateAccount(ctx, b, k); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("duplicate email: %v, want ErrConflict", err)
	}
	// The refused signup left nothing behind: neither account nor key.
	if _, err := s.Account(ctx, b.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("refused account stored: %v", err)
	}
	if _, err := s.KeyByHash(ctx, k.Hash); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("refused account's key stored: %v", err)
	}
	if got, _ := s.AccountByEmail(ctx, a.Email); got.ID != a.ID {
		t.Fatalf("email now points at %q, want %q", got.ID, a.ID)
	}
}

func testSetPlan(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "free")
	if err := s.SetPlan(ctx, a.ID, "team"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Account(ctx, a.ID); got.Plan != "team" {
		t.Fatalf("plan = %q, want team", got.Plan)
	}
	if err := s.SetPlan(ctx, "acct_missing", "team"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SetPlan on missing account: %v, want ErrNotFound", err)
	}
	if _, err := s.Account(ctx, "acct_missing"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SetPlan created an account: %v", err)
	}
}

func testCredits(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "free")
	grant := uniq("cs_")
	bal, err := s.AddCredits(ctx, a.ID, 100, grant)
	if err != nil || bal.Credits != 100 {
		t.Fatalf("AddCredits = %+v, %v", bal, err)
	}
	if _, err := s.AddCredits(ctx, a.ID, 100, grant); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("replayed grant: %v, want ErrConflict", err)
	}
	if bal, err = s.AddCredits(ctx, a.ID, 500, uniq("cs_")); err != nil || bal.Credits != 600 {
		t.Fatalf("second grant = %+v, %v", bal, err)
	}
	if got, _ := s.Account(ctx, a.ID); got.Credits != 600 {
		t.Fatalf("account credits = %d, want 600", got.Credits)
	}
	if _, err := s.AddCredits(ctx, "acct_missing", 5, uniq("cs_")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("credits for missing account: %v, want ErrNotFound", err)
	}
}

func charge(a store.Account, k store.APIKey, clock *Clock, n, limit int) store.Charge {
	now := clock.Now()
	return store.Charge{
		AccountID: a.ID, Month: store.Month(now), Documents: n, Limit: limit,
		Usage: store.UsageRecord{ID: uniq("use_"), AccountID: a.ID, KeyID: k.ID, Route: "inspect", At: now,
			Documents: n, Bytes: 1234, Band: "low", Expires: now.Add(400 * 24 * time.Hour)},
	}
}

func testChargeLimit(t *testing.T, s store.Store, clock *Clock) {
	a, k := newAccount(t, s, clock, "free")
	month := store.Month(clock.Now())
	for i := 1; i <= 3; i++ {
		bal, err := s.Charge(ctx, charge(a, k, clock, 1, 4))
		if err != nil || bal.Used != i {
			t.Fatalf("charge %d = %+v, %v", i, bal, err)
		}
	}
	// Two documents where one unit is left: refused whole, nothing written.
	if _, err := s.Charge(ctx, charge(a, k, clock, 2, 4)); !errors.Is(err, store.ErrRefused) {
		t.Fatalf("over-limit charge: %v, want ErrRefused", err)
	}
	if bal, err := s.Charge(ctx, charge(a, k, clock, 1, 4)); err != nil || bal.Used != 4 {
		t.Fatalf("last unit = %+v, %v", bal, err)
	}
	if _, err := s.Charge(ctx, charge(a, k, clock, 1, 4)); !errors.Is(err, store.ErrRefused) {
		t.Fatalf("charge past limit: %v, want ErrRefused", err)
	}
	bal, err := s.Balance(ctx, a.ID, month)
	if err != nil || bal.Used != 4 {
		t.Fatalf("Balance = %+v, %v", bal, err)
	}
	rows, err := s.UsageSince(ctx, a.ID, clock.Now().Add(-time.Hour))
	if err != nil || len(rows) != 4 {
		t.Fatalf("usage rows = %d, %v; want 4 (refused charges write none)", len(rows), err)
	}
	// Metering an account that does not exist is refused as such.
	if _, err := s.Balance(ctx, "acct_missing", month); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Balance of a missing account: %v, want ErrNotFound", err)
	}
	missing := charge(store.Account{ID: "acct_missing"}, k, clock, 1, 4)
	if _, err := s.Charge(ctx, missing); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Charge of a missing account: %v, want ErrNotFound", err)
	}
	// A new month starts from zero.
	if bal, _ := s.Balance(ctx, a.ID, "2026-12"); bal.Used != 0 {
		t.Fatalf("next month used = %d", bal.Used)
	}
	clock.Advance(10 * 24 * time.Hour) // 2026-12-02
	if bal, err := s.Charge(ctx, charge(a, k, clock, 1, 4)); err != nil || bal.Used != 1 {
		t.Fatalf("first charge of the new month = %+v, %v", bal, err)
	}
}

// testChargeAtomic: when the usage row cannot be written (its id is taken),
// the counter or the credits it would have paid with stay untouched.
func testChargeAtomic(t *testing.T, s store.Store, clock *Clock) {
	a, k := newAccount(t, s, clock, "free")
	if _, err := s.AddCredits(ctx, a.ID, 5, uniq("cs_")); err != nil {
		t.Fatal(err)
	}
	first := charge(a, k, clock, 1, 10)
	if _, err := s.Charge(ctx, first); err != nil {
		t.Fatal(err)
	}
	again := charge(a, k, clock, 3, 10)
	again.Usage.ID, again.Usage.At = first.Usage.ID, first.Usage.At
	if _, err := s.Charge(ctx, again); err == nil {
		t.Fatal("a charge whose usage row collides succeeded")
	}
	again.FromCredits = true
	if _, err := s.Charge(ctx, again); err == nil {
		t.Fatal("a credit charge whose usage row collides succeeded")
	}
	if bal, err := s.Balance(ctx, a.ID, store.Month(clock.Now())); err != nil || bal.Used != 1 || bal.Credits != 5 {
		t.Fatalf("after failed charges: %+v, %v; want used 1, credits 5", bal, err)
	}
	if rows, _ := s.UsageSince(ctx, a.ID, clock.Now().Add(-time.Hour)); len(rows) != 1 {
		t.Fatalf("%d usage rows, want 1", len(rows))
	}
}

func testChargeRace(t *testing.T, s store.Store, clock *Clock) {
	a, k := newAccount(t, s, clock, "free")
	if _, err := s.Charge(ctx, charge(a, k, clock, 9, 10)); err != nil {
		t.Fatal(err)
	}
	const n = 12
	var ok, refused atomic.Int32
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			_, err := s.Charge(ctx, charge(a, k, clock, 1, 10))
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, store.ErrRefused):
				refused.Add(1)
			default:
				t.Errorf("charge: %v", err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 1 || refused.Load() != n-1 {
		t.Fatalf("at the last unit %d charges passed and %d were refused; want 1 and %d", ok.Load(), refused.Load(), n-1)
	}
	if bal, _ := s.Balance(ctx, a.ID, store.Month(clock.Now())); bal.Used != 10 {
		t.Fatalf("used = %d, want 10", bal.Used)
	}
}

func testChargeCredits(t *testing.T, s store.Store, clock *Clock) {
	a, k := newAccount(t, s, clock, "free")
	if _, err := s.AddCredits(ctx, a.ID, 3, uniq("cs_")); err != nil {
		t.Fatal(err)
	}
	c := charge(a, k, clock, 2, 0)
	c.FromCredits, c.Usage.Credit = true, true
	bal, err := s.Charge(ctx, c)
	if err != nil || bal.Credits != 1 || bal.Used != 0 {
		t.Fatalf("credit charge = %+v, %v", bal, err)
	}
	c.Usage.ID = uniq("use_")
	if _, err := s.Charge(ctx, c); !errors.Is(err, store.ErrRefused) {
		t.Fatalf("charge beyond credits: %v, want ErrRefused", err)
	}
	var ok atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			c := charge(a, k, clock, 1, 0)
			c.FromCredits = true
			if _, err := s.Charge(ctx, c); err == nil {
				ok.Add(1)
			} else if !errors.Is(err, store.ErrRefused) {
				t.Errorf("charge: %v", err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 1 {
		t.Fatalf("%d concurrent charges spent the last credit, want 1", ok.Load())
	}
	if got, _ := s.Account(ctx, a.ID); got.Credits != 0 {
		t.Fatalf("credits left = %d, want 0", got.Credits)
	}
	rows, _ := s.UsageSince(ctx, a.ID, clock.Now().Add(-time.Hour))
	if len(rows) != 2 || !rows[0].Credit {
		t.Fatalf("usage rows = %+v; want 2, the first marked as credit", rows)
	}
}

func testUsage(t *testing.T, s store.Store, clock *Clock) {
	a, k := newAccount(t, s, clock, "team")
	start := clock.Now()
	for i := range 3 {
		c := charge(a, k, clock, 1, 100)
		c.Usage.Band = []string{"low", "medium", "high"}[i]
		if i == 0 {
			c.Usage.Expires = start.Add(time.Hour) // expires before the others
		}
		if _, err := s.Charge(ctx, c); err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Minute)
	}
	anon := store.UsageRecord{ID: uniq("use_"), ClientIP: "203.0.113.9", Route: "inspect", At: clock.Now(),
		Documents: 1, Bytes: 10, Band: "low", Expires: clock.Now().Add(90 * 24 * time.Hour)}
	if err := s.RecordUsage(ctx, anon); err != nil {
		t.Fatal(err)
	}
	rows, err := s.UsageSince(ctx, a.ID, start)
	if err != nil || len(rows) != 3 {
		t.Fatalf("UsageSince = %d rows, %v; want 3 (anonymous rows are not the account's)", len(rows), err)
	}
	for i, want := range []string{"low", "medium", "high"} {
		r := rows[i]
		if r.Band != want || r.KeyID != k.ID || r.Bytes != 1234 || r.Documents != 1 || r.Route != "inspect" {
			t.Fatalf("row %d = %+v", i, r)
		}
	}
	if !rows[1].At.Equal(start.Add(time.Minute)) {
		t.Fatalf("row time = %v, want %v", rows[1].At, start.Add(time.Minute))
	}
	if rows, _ := s.UsageSince(ctx, a.ID, start.Add(90*time.Second)); len(rows) != 1 || rows[0].Band != "high" {
		t.Fatalf("UsageSince a later time = %+v", rows)
	}
	clock.Advance(2 * time.Hour) // the first row has expired; reads filter it even before TTL deletion
	if rows, _ := s.UsageSince(ctx, a.ID, start); len(rows) != 2 || rows[0].Band != "medium" {
		t.Fatalf("after expiry = %+v, want the medium and high rows", rows)
	}
}

func testHit(t *testing.T, s store.Store, clock *Clock) {
	bucket := uniq("anon:203.0.113.7:")
	exp := clock.Now().Add(time.Hour)
	for i := 1; i <= 3; i++ {
		if n, err := s.Hit(ctx, bucket, 3, exp); err != nil || n != i {
			t.Fatalf("hit %d = %d, %v", i, n, err)
		}
	}
	if _, err := s.Hit(ctx, bucket, 3, exp); !errors.Is(err, store.ErrRefused) {
		t.Fatalf("hit past limit: %v, want ErrRefused", err)
	}
	if n, err := s.Count(ctx, bucket); err != nil || n != 3 {
		t.Fatalf("Count = %d, %v; want 3 (a refused hit is not counted)", n, err)
	}
	if n, err := s.Count(ctx, uniq("never")); err != nil || n != 0 {
		t.Fatalf("Count of an unknown window = %d, %v", n, err)
	}
	if n, err := s.Hit(ctx, uniq("other"), 3, exp); err != nil || n != 1 {
		t.Fatalf("another bucket = %d, %v", n, err)
	}
	clock.Advance(time.Hour + time.Second) // the window has expired: it starts afresh
	if n, err := s.Count(ctx, bucket); err != nil || n != 0 {
		t.Fatalf("Count of an expired window = %d, %v; want 0", n, err)
	}
	if n, err := s.Hit(ctx, bucket, 3, clock.Now().Add(time.Hour)); err != nil || n != 1 {
		t.Fatalf("hit in an expired window = %d, %v; want 1", n, err)
	}
}

func testHitRace(t *testing.T, s store.Store, clock *Clock) {
	bucket := uniq("race:")
	exp := clock.Now().Add(time.Hour)
	var ok atomic.Int32
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			if _, err := s.Hit(ctx, bucket, 5, exp); err == nil {
				ok.Add(1)
			} else if !errors.Is(err, store.ErrRefused) {
				t.Errorf("hit: %v", err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 5 {
		t.Fatalf("%d of 16 concurrent hits passed a limit of 5", ok.Load())
	}
}

func testSecret(t *testing.T, s store.Store, clock *Clock) {
	name := uniq("receipt")
	got, err := s.Secret(ctx, name, []byte("first"))
	if err != nil || string(got) != "first" {
		t.Fatalf("Secret = %q, %v", got, err)
	}
	if got, _ := s.Secret(ctx, name, []byte("second")); string(got) != "first" {
		t.Fatalf("stored secret replaced: %q", got)
	}
	race := uniq("race")
	results := make([]string, 8)
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() {
			b, err := s.Secret(ctx, race, []byte(fmt.Sprint("cand", i)))
			if err != nil {
				t.Errorf("Secret: %v", err)
			}
			results[i] = string(b)
		})
	}
	wg.Wait()
	for _, r := range results {
		if r != results[0] {
			t.Fatalf("racing callers got different secrets: %q", results)
		}
	}
}

func testSessions(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "free")
	sess := store.Session{Hash: uniq("sess"), AccountID: a.ID, Epoch: 0, Created: clock.Now(), Expires: clock.Now().Add(time.Hour)}
	if err := s.CreateSession(ctx, sess); err != nil {
		t.Fatal(err)
	}
	got, err := s.Session(ctx, sess.Hash)
	if err != nil || got.AccountID != a.ID || got.Epoch != 0 || !got.Expires.Equal(sess.Expires) || !got.Created.Equal(sess.Created) {
		t.Fatalf("Session = %+v, %v", got, err)
	}
	if _, err := s.Session(ctx, "unknown"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown session: %v", err)
	}
	if err := s.DeleteSession(ctx, sess.Hash); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Session(ctx, sess.Hash); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted session: %v", err)
	}
	if err := s.DeleteSession(ctx, sess.Hash); err != nil {
		t.Fatalf("deleting twice: %v", err)
	}
	short := store.Session{Hash: uniq("sess"), AccountID: a.ID, Created: clock.Now(), Expires: clock.Now().Add(time.Minute)}
	if err := s.CreateSession(ctx, short); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	if _, err := s.Session(ctx, short.Hash); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("expired session: %v", err)
	}
}

func testVerifyToken(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "free")
	tok := store.Token{Hash: uniq("tok"), Kind: store.TokenVerify, AccountID: a.ID, Expires: clock.Now().Add(7 * 24 * time.Hour)}
	if err := s.CreateToken(ctx, tok); err != nil {
		t.Fatal(err)
	}
	// A reset cannot consume a verification token.
	if _, err := s.ResetPassword(ctx, tok.Hash, "new"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("reset with a verify token: %v", err)
	}
	id, err := s.VerifyEmail(ctx, tok.Hash)
	if err != nil || id != a.ID {
		t.Fatalf("VerifyEmail = %q, %v", id, err)
	}
	if got, _ := s.Account(ctx, a.ID); !got.Verified {
		t.Fatal("account not marked verified")
	}
	if _, err := s.VerifyEmail(ctx, tok.Hash); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second use: %v", err)
	}
	if _, err := s.VerifyEmail(ctx, "unknown"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown token: %v", err)
	}
	old := store.Token{Hash: uniq("tok"), Kind: store.TokenVerify, AccountID: a.ID, Expires: clock.Now().Add(time.Hour)}
	if err := s.CreateToken(ctx, old); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Hour)
	if _, err := s.VerifyEmail(ctx, old.Hash); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("expired token: %v", err)
	}
}

func testReset(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "free")
	tok := store.Token{Hash: uniq("tok"), Kind: store.TokenReset, AccountID: a.ID, Expires: clock.Now().Add(time.Hour)}
	if err := s.CreateToken(ctx, tok); err != nil {
		t.Fatal(err)
	}
	if _, err := s.VerifyEmail(ctx, tok.Hash); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("verify with a reset token: %v", err)
	}
	id, err := s.ResetPassword(ctx, tok.Hash, "new-hash")
	if err != nil || id != a.ID {
		t.Fatalf("ResetPassword = %q, %v", id, err)
	}
	got, _ := s.Account(ctx, a.ID)
	if got.PasswordHash != "new-hash" || got.SessionEpoch != 1 {
		t.Fatalf("after reset: %+v", got)
	}
	if _, err := s.ResetPassword(ctx, tok.Hash, "other"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second use: %v", err)
	}
	if got, _ := s.Account(ctx, a.ID); got.PasswordHash != "new-hash" || got.SessionEpoch != 1 {
		t.Fatalf("refused reset changed the account: %+v", got)
	}
}

func testRotate(t *testing.T, s store.Store, clock *Clock) {
	a, k := newAccount(t, s, clock, "team")
	b, kb := newAccount(t, s, clock, "free")
	clock.Advance(time.Second)
	repl := store.APIKey{ID: uniq("key_"), AccountID: a.ID, Hash: uniq("hash"), Preview: "svc_…wxyz", Created: clock.Now()}
	// Another account's key, an unknown key: refused, nothing written.
	if err := s.RotateKey(ctx, a.ID, kb.ID, repl); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("rotating another account's key: %v", err)
	}
	if err := s.RotateKey(ctx, a.ID, "key_unknown", repl); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("rotating an unknown key: %v", err)
	}
	if _, err := s.KeyByHash(ctx, repl.Hash); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a refused rotation stored the replacement: %v", err)
	}
	if err := s.RotateKey(ctx, a.ID, k.ID, repl); err != nil {
		t.Fatal(err)
	}
	old, err := s.KeyByHash(ctx, k.Hash)
	if err != nil || !old.Revoked || !old.RevokedAt.Equal(clock.Now()) {
		t.Fatalf("old key after rotation: %+v, %v", old, err)
	}
	if nk, err := s.KeyByHash(ctx, repl.Hash); err != nil || nk.Revoked || nk.AccountID != a.ID {
		t.Fatalf("replacement: %+v, %v", nk, err)
	}
	// A revoked key cannot be rotated again.
	if err := s.RotateKey(ctx, a.ID, k.ID, store.APIKey{ID: uniq("key_"), AccountID: a.ID, Hash: uniq("hash"), Created: clock.Now()}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("rotating a revoked key: %v", err)
	}
	keys, err := s.Keys(ctx, a.ID)
	if err != nil || len(keys) != 2 || keys[0].ID != k.ID || !keys[0].Revoked || keys[1].ID != repl.ID {
		t.Fatalf("Keys after rotation = %+v, %v", keys, err)
	}
	if keys, _ := s.Keys(ctx, b.ID); len(keys) != 1 || keys[0].Revoked {
		t.Fatalf("the other account's keys changed: %+v", keys)
	}
}

// testTokenRace: eight concurrent uses of one reset token; exactly one
// sets the password.
func testTokenRace(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "free")
	tok := store.Token{Hash: uniq("tok"), Kind: store.TokenReset, AccountID: a.ID, Expires: clock.Now().Add(time.Hour)}
	if err := s.CreateToken(ctx, tok); err != nil {
		t.Fatal(err)
	}
	var ok atomic.Int32
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			_, err := s.ResetPassword(ctx, tok.Hash, fmt.Sprint("hash", i))
			if err == nil {
				ok.Add(1)
			} else if !errors.Is(err, store.ErrNotFound) {
				t.Errorf("reset: %v", err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 1 {
		t.Fatalf("%d concurrent uses of one token succeeded, want 1", ok.Load())
	}
	if got, _ := s.Account(ctx, a.ID); got.SessionEpoch != 1 {
		t.Fatalf("session epoch %d after one reset", got.SessionEpoch)
	}
}
