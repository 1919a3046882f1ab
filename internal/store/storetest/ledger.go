package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/store"
)

func testLedgerAlias(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "free")
	b, _ := newAccount(t, s, clock, "free")
	alias := uniq("ap-")
	got, err := s.EnsureAlias(ctx, a.ID, alias)
	if err != nil || got != alias {
		t.Fatalf("EnsureAlias = %q, %v", got, err)
	}
	// Idempotent: a second call keeps the first alias.
	if got, err := s.EnsureAlias(ctx, a.ID, uniq("ap-")); err != nil || got != alias {
		t.Fatalf("second EnsureAlias = %q, %v; want %q", got, err, alias)
	}
	if _, err := s.EnsureAlias(ctx, b.ID, alias); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("another account's alias: %v, want ErrConflict", err)
	}
	if id, err := s.AliasAccount(ctx, alias); err != nil || id != a.ID {
		t.Fatalf("AliasAccount = %q, %v", id, err)
	}
	if _, err := s.AliasAccount(ctx, "missing-alias"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown alias: %v", err)
	}
}

func testLedgerSuppliers(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "free")
	now := clock.Now().Add(123 * time.Nanosecond)
	v1 := store.SupplierVersion{
		Coords:    []store.PaymentCoord{{Kind: "iban", Country: "DE", BankCode: "37040044", AccountLast4: "3000"}},
		FirstSeen: now, LastSeen: now, MessageID: "<m1@x>", SenderDomain: "acme.example", Band: "low",
	}
	sp := store.Supplier{AccountID: a.ID, Key: "tax:DE136695976", TaxID: "DE136695976", Domains: []string{"acme.example"},
		Versions: []store.SupplierVersion{v1}, Created: now, Updated: now}
	if err := s.SaveSupplier(ctx, sp); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveSupplier(ctx, sp); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("second create: %v, want ErrConflict", err)
	}
	list, err := s.Suppliers(ctx, a.ID)
	if err != nil || len(list) != 1 || list[0].Rev != 1 || list[0].Key != sp.Key || !list[0].Versions[0].FirstSeen.Equal(now) ||
		list[0].Versions[0].Coords[0] != v1.Coords[0] {
		t.Fatalf("Suppliers = %+v, %v", list, err)
	}
	got := list[0]
	got.Versions = append(got.Versions, store.SupplierVersion{Coords: []store.PaymentCoord{{Kind: "iban", AccountLast4: "9999"}}, FirstSeen: now})
	if err := s.SaveSupplier(ctx, got); err != nil {
		t.Fatal(err)
	}
	// A writer holding the old revision loses and writes nothing.
	stale := list[0]
	stale.Versions = nil
	if err := s.SaveSupplier(ctx, stale); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale revision: %v, want ErrConflict", err)
	}
	list, _ = s.Suppliers(ctx, a.ID)
	if len(list) != 1 || list[0].Rev != 2 || len(list[0].Versions) != 2 {
		t.Fatalf("after update: %+v", list)
	}
	b, _ := newAccount(t, s, clock, "free")
	if other, _ := s.Suppliers(ctx, b.ID); len(other) != 0 {
		t.Fatalf("another account sees %+v", other)
	}
}

func testLedgerAlerts(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "free")
	now := clock.Now()
	old := store.Alert{ID: uniq("al_"), AccountID: a.ID, Kind: store.AlertNewSenderDomain, SupplierKey: "domain:x", At: now.Add(-40 * 24 * time.Hour), Expires: now.Add(50 * 24 * time.Hour)}
	recent := store.Alert{ID: uniq("al_"), AccountID: a.ID, Kind: store.AlertCoordinatesChanged, SupplierKey: "tax:1", At: now.Add(-time.Hour), MessageID: "<m@x>", Band: "low", Expires: now.Add(89 * 24 * time.Hour)}
	gone := store.Alert{ID: uniq("al_"), AccountID: a.ID, Kind: store.AlertRiskyAttachment, SupplierKey: "tax:1", At: now.Add(-2 * time.Hour), Expires: now.Add(time.Minute)}
	for _, al := range []store.Alert{old, recent, gone} {
		if err := s.AddAlert(ctx, al); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(2 * time.Minute)
	got, err := s.AlertsSince(ctx, a.ID, now.Add(-30*24*time.Hour))
	if err != nil || len(got) != 1 || got[0].ID != recent.ID || got[0].Kind != recent.Kind || got[0].MessageID != "<m@x>" || !got[0].At.Equal(recent.At) {
		t.Fatalf("AlertsSince = %+v, %v; want only %+v", got, err, recent)
	}
	if !got[0].Acknowledged.IsZero() {
		t.Fatalf("a new alert is acknowledged: %+v", got[0])
	}

	// Acknowledgement: once, by the owning account, the first time kept.
	first := clock.Now()
	if err := s.AcknowledgeAlert(ctx, a.ID, recent.ID, first); err != nil {
		t.Fatal(err)
	}
	if err := s.AcknowledgeAlert(ctx, a.ID, recent.ID, first.Add(time.Hour)); err != nil {
		t.Fatalf("a second acknowledgement: %v", err)
	}
	got, _ = s.AlertsSince(ctx, a.ID, now.Add(-30*24*time.Hour))
	if len(got) != 1 || !got[0].Acknowledged.Equal(first) || got[0].Kind != recent.Kind || got[0].MessageID != "<m@x>" {
		t.Fatalf("after acknowledging: %+v, want acknowledged at %v", got, first)
	}
	b, _ := newAccount(t, s, clock, "free")
	if err := s.AcknowledgeAlert(ctx, b.ID, old.ID, first); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another account's alert: %v, want ErrNotFound", err)
	}
	if err := s.AcknowledgeAlert(ctx, a.ID, "al_missing", first); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("no such alert: %v, want ErrNotFound", err)
	}
	if err := s.AcknowledgeAlert(ctx, a.ID, gone.ID, first); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an expired alert: %v, want ErrNotFound", err)
	}
}
