package ledger

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sync"

	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/webhook"
)

// Event is the JSON posted to an account's webhook for one alert. It holds
// what the ledger page shows: the alert and its supplier's stored,
// masked coordinates. Never a document byte, a full account number or the
// message's body.
type Event struct {
	ID      string    `json:"id"`
	Type    string    `json:"type"`
	Created int64     `json:"created"`
	Data    EventData `json:"data"`
}

// EventData is the alert as AlertView shows it, with its supplier.
type EventData struct {
	AlertView
	Supplier EventSupplier `json:"supplier"`
	Advisory string        `json:"advisory"`
}

// EventSupplier is the supplier the alert is filed against: for a
// lookalike-domain alert, the supplier imitated.
type EventSupplier struct {
	Key     string               `json:"key"`
	TaxID   string               `json:"taxId,omitempty"`
	Domains []string             `json:"domains"`
	Current []store.PaymentCoord `json:"current"`
	// Previous is the coordinates before the current ones, when the
	// supplier has had others (a coordinates-changed alert's "from").
	Previous []store.PaymentCoord `json:"previous,omitempty"`
}

// raisedAlert is an alert about to be written and the supplier it names.
type raisedAlert struct {
	kind     string
	supplier store.Supplier
}

// hooked reports whether the account has a webhook to post alerts to.
func (l *Ledger) hooked(ctx context.Context, accountID string) (bool, error) {
	_, err := l.Store.Webhook(ctx, accountID)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

func (l *Ledger) eventID() string {
	if l.NewEventID != nil {
		return l.NewEventID()
	}
	b := make([]byte, 12)
	rand.Read(b) // never fails (crypto/rand, Go 1.24+)
	return "evt_" + hex.EncodeToString(b)
}

// delivery is the outbox row of a's event.
func (l *Ledger) delivery(a store.Alert, sp store.Supplier) store.Delivery {
	es := EventSupplier{Key: sp.Key, TaxID: sp.TaxID, Domains: domainsOf(sp)}
	es.Current, es.Previous = coordsOf(sp)
	ev := Event{ID: l.eventID(), Type: webhook.EventType, Created: a.At.Unix(), Data: EventData{
		AlertView: alertView(a), Supplier: es, Advisory: advisory}}
	body, _ := json.Marshal(ev) // plain structs: cannot fail
	at := a.At.UTC()
	return store.Delivery{ID: ev.ID, AccountID: a.AccountID, Event: body, Created: at,
		Due: webhook.FirstDue(at), Expires: at.Add(webhook.Lifetime)}
}

// attempt hands the deliveries just written to the Deliverer, at once
// and side by side: each is bounded by its own timeout, and the message's
// answer waits for the slowest.
func (l *Ledger) attempt(ctx context.Context, ds []store.Delivery) {
	if l.Webhooks == nil || len(ds) == 0 {
		return
	}
	var wg sync.WaitGroup
	for _, d := range ds {
		wg.Go(func() { l.Webhooks.Attempt(ctx, d) })
	}
	wg.Wait()
}
