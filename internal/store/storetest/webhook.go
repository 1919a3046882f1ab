package storetest

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/store"
)

func testWebhook(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "free")
	if _, err := s.Webhook(ctx, a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("no webhook yet: %v", err)
	}
	w := store.Webhook{AccountID: a.ID, ID: uniq("wh_"), URL: "https://hooks.example/doctrust", Secret: "whsec_one", Created: clock.Now()}
	if err := s.PutWebhook(ctx, w); err != nil {
		t.Fatal(err)
	}
	got, err := s.Webhook(ctx, a.ID)
	if err != nil || got.ID != w.ID || got.URL != w.URL || got.Secret != w.Secret || !got.Created.Equal(w.Created) || got.Last != (store.DeliveryOutcome{}) {
		t.Fatalf("Webhook = %+v, %v", got, err)
	}
	o := store.DeliveryOutcome{EventID: "evt_1", At: clock.Now(), State: store.DeliveryRetrying, Attempts: 1, Status: 500, Next: clock.Now().Add(time.Minute)}
	if err := s.RecordDelivery(ctx, a.ID, w.ID, o); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Webhook(ctx, a.ID); got.Last.EventID != "evt_1" || got.Last.Status != 500 || !got.Last.Next.Equal(o.Next) || got.Secret != w.Secret {
		t.Fatalf("after RecordDelivery: %+v", got)
	}
	// A replacement starts with no outcome, and an attempt made for the
	// setting it replaced records nothing.
	w2 := store.Webhook{AccountID: a.ID, ID: uniq("wh_"), URL: "https://hooks.example/v2", Secret: "whsec_two", Created: clock.Now()}
	if err := s.PutWebhook(ctx, w2); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordDelivery(ctx, a.ID, w.ID, o); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("outcome for the replaced webhook: %v, want ErrNotFound", err)
	}
	if got, _ := s.Webhook(ctx, a.ID); got.URL != w2.URL || got.Secret != "whsec_two" || got.Last != (store.DeliveryOutcome{}) {
		t.Fatalf("after replacing: %+v", got)
	}
	b, _ := newAccount(t, s, clock, "free")
	if _, err := s.Webhook(ctx, b.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another account sees a webhook: %v", err)
	}
	if err := s.DeleteWebhook(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Webhook(ctx, a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("after DeleteWebhook: %v", err)
	}
	if err := s.DeleteWebhook(ctx, a.ID); err != nil {
		t.Fatalf("deleting none: %v", err)
	}
	if err := s.RecordDelivery(ctx, a.ID, w2.ID, o); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("outcome without a webhook: %v", err)
	}
}

// mine keeps the deliveries of one account: the outbox is shared.
func mine(list []store.Delivery, accountID string) []store.Delivery {
	return slices.DeleteFunc(list, func(d store.Delivery) bool { return d.AccountID != accountID })
}

func testDeliveries(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "free")
	now := clock.Now()
	alert := func(id string) store.Alert {
		return store.Alert{ID: id, AccountID: a.ID, Kind: store.AlertCoordinatesChanged, SupplierKey: "tax:1", At: now, Band: "low", Expires: now.Add(90 * 24 * time.Hour)}
	}
	late := store.Delivery{ID: uniq("evt_"), AccountID: a.ID, Event: []byte(`{"id":"late"}`), Due: now.Add(time.Minute), Created: now, Expires: now.Add(24 * time.Hour)}
	soon := store.Delivery{ID: uniq("evt_"), AccountID: a.ID, Event: []byte(`{"id":"soon"}`), Due: now.Add(30 * time.Second), Created: now, Expires: now.Add(24 * time.Hour)}
	for i, d := range []store.Delivery{late, soon} {
		if err := s.AddAlertDelivery(ctx, alert(uniq("al_")), d); err != nil {
			t.Fatalf("delivery %d: %v", i, err)
		}
	}
	if al, _ := s.AlertsSince(ctx, a.ID, now.Add(-time.Hour)); len(al) != 2 {
		t.Fatalf("alerts written with their deliveries: %+v", al)
	}
	// The same event twice is refused whole: no second alert.
	if err := s.AddAlertDelivery(ctx, alert(uniq("al_")), late); err == nil {
		t.Fatal("a second delivery with the same event id was stored")
	}
	if al, _ := s.AlertsSince(ctx, a.ID, now.Add(-time.Hour)); len(al) != 2 {
		t.Fatalf("a refused delivery left its alert: %d alerts", len(al))
	}
	if due, err := s.DueDeliveries(ctx, now, 100); err != nil || len(mine(due, a.ID)) != 0 {
		t.Fatalf("nothing due yet: %+v, %v", due, err)
	}
	due, err := s.DueDeliveries(ctx, now.Add(time.Hour), 100)
	due = mine(due, a.ID)
	if err != nil || len(due) != 2 || due[0].ID != soon.ID || due[1].ID != late.ID {
		t.Fatalf("DueDeliveries = %+v, %v; want soon then late", due, err)
	}
	d := due[0]
	if string(d.Event) != `{"id":"soon"}` || d.Rev != 1 || d.Attempts != 0 || !d.Due.Equal(soon.Due) || !d.Expires.Equal(soon.Expires) || !d.Created.Equal(now) {
		t.Fatalf("delivery read back: %+v", d)
	}
	// A claim moves the row forward; a second claim from the same read
	// loses.
	claim := d
	claim.Due, claim.Attempts = now.Add(2*time.Hour), 1
	if err := s.SaveDelivery(ctx, claim); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveDelivery(ctx, claim); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a stale claim: %v, want ErrConflict", err)
	}
	due, _ = s.DueDeliveries(ctx, now.Add(time.Hour), 100)
	if due = mine(due, a.ID); len(due) != 1 || due[0].ID != late.ID {
		t.Fatalf("after the claim: %+v", due)
	}
	due, _ = s.DueDeliveries(ctx, now.Add(3*time.Hour), 1)
	if len(due) != 1 {
		t.Fatalf("limit 1: %d rows", len(due))
	}
	due, _ = s.DueDeliveries(ctx, now.Add(3*time.Hour), 100)
	due = mine(due, a.ID)
	if len(due) != 2 || due[1].ID != soon.ID || due[1].Rev != 2 || due[1].Attempts != 1 || string(due[1].Event) != `{"id":"soon"}` {
		t.Fatalf("the claimed row: %+v", due)
	}
	if err := s.DeleteDelivery(ctx, d); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("delete at a stale revision: %v", err)
	}
	for _, d := range due {
		if err := s.DeleteDelivery(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	if due, _ := s.DueDeliveries(ctx, now.Add(3*time.Hour), 100); len(mine(due, a.ID)) != 0 {
		t.Fatalf("after deleting: %+v", due)
	}
}
