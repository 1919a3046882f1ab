package dynamodb

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doctrust/doctrust/internal/ddblocal"
	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/store/storetest"
)

func TestMain(m *testing.M) { ddblocal.Main(m) }

var prefixes atomic.Int64

// open gives each subtest its own tables: the suite's ids are unique, but
// some fixed names (credit grant ids) would collide across subtests or
// repeated runs, and fresh tables cost DynamoDB Local milliseconds.
func open(t *testing.T, clock func() time.Time) store.Store {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, Config{
		Endpoint: ddblocal.Endpoint(t),
		Prefix:   fmt.Sprintf("t%d_", prefixes.Add(1)),
		Now:      clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTables(ctx); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSuite(t *testing.T) { storetest.Run(t, open) }

// Behaviour beyond the shared suite: what this implementation promises on
// top of the interface's contract.
func TestEdges(t *testing.T) {
	ctx := context.Background()
	clock := &storetest.Clock{}
	s := open(t, clock.Now).(*Store)
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	a := store.Account{ID: "acct_edge", Email: "Edge@Example.com", Plan: "free", Created: now}
	k := store.APIKey{ID: "key_edge", Hash: "h_edge", Created: now}
	if err := s.CreateAccount(ctx, a, k); err != nil {
		t.Fatal(err)
	}
	if got, err := s.AccountByEmail(ctx, "edge@example.com"); err != nil || got.ID != a.ID {
		t.Fatalf("lookup ignoring case = %+v, %v", got, err)
	}
	if got, _ := s.KeyByHash(ctx, k.Hash); got.AccountID != a.ID {
		t.Fatalf("first key's account = %q, want it filled in", got.AccountID)
	}
	use := func(id string) store.UsageRecord {
		return store.UsageRecord{ID: id, Route: "inspect", At: now, Documents: 1, Expires: now.Add(time.Hour)}
	}
	for _, credits := range []bool{false, true} {
		c := store.Charge{AccountID: "acct_missing", Month: "2026-11", Documents: 1, Limit: 5, FromCredits: credits, Usage: use("u_missing")}
		if _, err := s.Charge(ctx, c); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("charge (credits %v) for a missing account: %v, want ErrNotFound", credits, err)
		}
	}
	if _, err := s.Balance(ctx, "acct_missing", "2026-11"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("balance of a missing account: %v, want ErrNotFound", err)
	}
	c := store.Charge{AccountID: a.ID, Month: "2026-11", Documents: 1, Limit: 5, Usage: use("u_1")}
	if _, err := s.Charge(ctx, c); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Charge(ctx, c); !errors.Is(err, store.ErrConflict) {
		t.Errorf("charge replaying a usage row: %v, want ErrConflict", err)
	}
	if bal, _ := s.Balance(ctx, a.ID, "2026-11"); bal.Used != 1 {
		t.Errorf("used = %d after a refused replay, want 1", bal.Used)
	}
	anon := store.UsageRecord{ID: "u_anon", ClientIP: "2001:db8::1", At: now, Documents: 1, Expires: now.Add(time.Hour)}
	if err := s.RecordUsage(ctx, anon); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordUsage(ctx, anon); !errors.Is(err, store.ErrConflict) {
		t.Errorf("recording a usage row twice: %v, want ErrConflict", err)
	}
	if _, err := s.Balance(ctx, a.ID, "2026-1"); err == nil {
		t.Error("a malformed month was accepted")
	}
	if _, err := s.Hit(ctx, "zero", 0, now.Add(time.Hour)); !errors.Is(err, store.ErrRefused) {
		t.Errorf("hit with limit 0: %v, want ErrRefused", err)
	}
	// Running CreateTables on existing tables changes nothing and fails
	// nothing (deployments run it on every start).
	if err := s.CreateTables(ctx); err != nil {
		t.Fatalf("CreateTables again: %v", err)
	}
}

// TestExpiredWindowRace restarts an expired window from many callers at
// once: one restarts it, the others count into the fresh window, and the
// limit still holds.
func TestExpiredWindowRace(t *testing.T) {
	ctx := context.Background()
	clock := &storetest.Clock{}
	s := open(t, clock.Now)
	start := clock.Now()
	for range 3 {
		if _, err := s.Hit(ctx, "w", 3, start.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(time.Minute)
	var ok atomic.Int32
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			if _, err := s.Hit(ctx, "w", 3, clock.Now().Add(time.Minute)); err == nil {
				ok.Add(1)
			} else if !errors.Is(err, store.ErrRefused) {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 3 {
		t.Fatalf("%d hits passed in the restarted window, want 3", ok.Load())
	}
}

// TestTablesAsCreated checks the live tables against Tables(), including
// TTL, so the declaration others read (template.yaml's check) is the
// schema the code actually uses.
func TestTablesAsCreated(t *testing.T) {
	ctx := context.Background()
	s := open(t, time.Now).(*Store)
	for _, tb := range Tables() {
		name := s.prefix + tb.Name
		d, err := s.db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: &name})
		if err != nil {
			t.Fatal(err)
		}
		got := d.Table.KeySchema
		if aws.ToString(got[0].AttributeName) != tb.HashKey || (tb.RangeKey != "") != (len(got) == 2) {
			t.Errorf("%s: key schema differs from Tables()", tb.Name)
		}
		if len(d.Table.GlobalSecondaryIndexes) != len(tb.Indexes) {
			t.Errorf("%s: %d indexes, want %d", tb.Name, len(d.Table.GlobalSecondaryIndexes), len(tb.Indexes))
		}
		ttl, err := s.db.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: &name})
		if err != nil {
			t.Fatal(err)
		}
		on := ttl.TimeToLiveDescription.TimeToLiveStatus == types.TimeToLiveStatusEnabled
		if on != (tb.TTL != "") || (on && aws.ToString(ttl.TimeToLiveDescription.AttributeName) != tb.TTL) {
			t.Errorf("%s: TTL %+v, want attribute %q", tb.Name, ttl.TimeToLiveDescription, tb.TTL)
		}
	}
}

// DynamoDB Local runs transactions one at a time and never reports a
// conflict, so the retry path is checked here with the errors AWS sends.
func TestConflictRetry(t *testing.T) {
	reason := func(codes ...string) error {
		var rs []types.CancellationReason
		for _, c := range codes {
			rs = append(rs, types.CancellationReason{Code: aws.String(c)})
		}
		return fmt.Errorf("op: %w", &types.TransactionCanceledException{CancellationReasons: rs})
	}
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{reason("None", reasonConflict), true},
		{reason(reasonConflict, reasonConditionFailed), false},
		{reason("None", reasonConditionFailed), false},
		{fmt.Errorf("op: %w", &types.TransactionConflictException{}), true},
		{errors.New("other"), false},
	} {
		if got := conflicted(tc.err); got != tc.want {
			t.Errorf("conflicted(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
	s := &Store{}
	calls := 0
	err := s.retry(context.Background(), func() error {
		if calls++; calls < 3 {
			return reason(reasonConflict)
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Fatalf("retry = %v after %d calls, want success on the third", err, calls)
	}
	calls = 0
	err = s.retry(context.Background(), func() error { calls++; return reason(reasonConditionFailed) })
	if calls != 1 || !failed(mustReasons(t, err), 0) {
		t.Fatalf("a failed condition was retried (%d calls)", calls)
	}
}

func mustReasons(t *testing.T, err error) []types.CancellationReason {
	t.Helper()
	r, ok := cancelled(err)
	if !ok {
		t.Fatalf("not a cancellation: %v", err)
	}
	return r
}

// TestSingleUseRaces: of concurrent uses of one token, or rotations of
// one key, exactly one passes; the transaction's conditions re-check what
// the first read saw.
func TestSingleUseRaces(t *testing.T) {
	ctx := context.Background()
	clock := &storetest.Clock{}
	s := open(t, clock.Now)
	now := clock.Now()
	a := store.Account{ID: "acct_race", Email: "race@example.com", Plan: "free", Created: now}
	k := store.APIKey{ID: "key_race", AccountID: a.ID, Hash: "h_race", Created: now}
	if err := s.CreateAccount(ctx, a, k); err != nil {
		t.Fatal(err)
	}
	race := func(name string, op func(i int) error) {
		t.Helper()
		var ok atomic.Int32
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				if err := op(i); err == nil {
					ok.Add(1)
				} else if !errors.Is(err, store.ErrNotFound) {
					t.Errorf("%s: %v", name, err)
				}
			})
		}
		wg.Wait()
		if ok.Load() != 1 {
			t.Errorf("%s: %d of 8 concurrent uses passed, want 1", name, ok.Load())
		}
	}
	reset := store.Token{Hash: "t_reset", Kind: store.TokenReset, AccountID: a.ID, Expires: now.Add(time.Hour)}
	if err := s.CreateToken(ctx, reset); err != nil {
		t.Fatal(err)
	}
	race("reset", func(i int) error {
		_, err := s.ResetPassword(ctx, reset.Hash, fmt.Sprint("pw", i))
		return err
	})
	if got, _ := s.Account(ctx, a.ID); got.SessionEpoch != 1 {
		t.Errorf("epoch after racing resets = %d, want 1", got.SessionEpoch)
	}
	race("rotate", func(i int) error {
		return s.RotateKey(ctx, a.ID, k.ID, store.APIKey{ID: fmt.Sprint("key_new", i), Hash: fmt.Sprint("h_new", i), Created: now})
	})
	if keys, _ := s.Keys(ctx, a.ID); len(keys) != 2 {
		t.Errorf("%d keys after racing rotations, want the old and one replacement", len(keys))
	}
}

// TestAuthEdges: what this implementation adds to the suite's contract
// for sessions, tokens and rotation.
func TestAuthEdges(t *testing.T) {
	ctx := context.Background()
	clock := &storetest.Clock{}
	s := open(t, clock.Now).(*Store)
	now := clock.Now()

	// An account item from before sessions has no sessionEpoch (nor any
	// billing attribute): it reads as 0 and a reset makes it 1.
	legacy := accountItem(store.Account{ID: "acct_old", Email: "old@example.com", Plan: "free", Created: now})
	delete(legacy, attrSessionEpoch)
	legacy[attrPK] = sv(acctKey("acct_old"))
	if _, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &s.accounts, Item: legacy}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Account(ctx, "acct_old"); err != nil || got.SessionEpoch != 0 || got.Billing != (store.Billing{}) {
		t.Fatalf("legacy account = %+v, %v", got, err)
	}
	tok := store.Token{Hash: "t_old", Kind: store.TokenReset, AccountID: "acct_old", Expires: now.Add(time.Hour)}
	if err := s.CreateToken(ctx, tok); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateToken(ctx, tok); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a token hash stored twice: %v, want ErrConflict", err)
	}
	if _, err := s.ResetPassword(ctx, tok.Hash, "pw"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Account(ctx, "acct_old"); got.SessionEpoch != 1 || got.PasswordHash != "pw" {
		t.Errorf("legacy account after reset = %+v", got)
	}

	// A token whose account is gone is refused and left in place.
	orphan := store.Token{Hash: "t_orphan", Kind: store.TokenVerify, AccountID: "acct_gone", Expires: now.Add(time.Hour)}
	if err := s.CreateToken(ctx, orphan); err != nil {
		t.Fatal(err)
	}
	if _, err := s.VerifyEmail(ctx, orphan.Hash); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("token of a missing account: %v, want ErrNotFound", err)
	}
	if _, err := s.Account(ctx, "acct_gone"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("verifying created the account: %v", err)
	}

	// Empty hashes are unknown, never a request DynamoDB rejects.
	if _, err := s.Session(ctx, ""); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("empty session hash: %v", err)
	}
	if err := s.DeleteSession(ctx, ""); err != nil {
		t.Errorf("deleting an empty session hash: %v", err)
	}
	if _, err := s.VerifyEmail(ctx, ""); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("empty token hash: %v", err)
	}
	// Sessions and tokens always expire.
	if err := s.CreateSession(ctx, store.Session{Hash: "s", AccountID: "acct_old", Created: now}); err == nil {
		t.Error("a session without expiry was stored")
	}
	if err := s.CreateToken(ctx, store.Token{Hash: "t", Kind: "other", AccountID: "acct_old", Expires: now.Add(time.Hour)}); err == nil {
		t.Error("a token of an unknown kind was stored")
	}
	sess := store.Session{Hash: "s_dup", AccountID: "acct_old", Created: now, Expires: now.Add(time.Hour)}
	if err := s.CreateSession(ctx, sess); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSession(ctx, sess); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a session hash stored twice: %v, want ErrConflict", err)
	}
}
