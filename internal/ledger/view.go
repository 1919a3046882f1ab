package ledger

import (
	"context"
	"errors"
	"time"

	"github.com/doctrust/doctrust/internal/store"
)

// AlertWindow is how far back the ledger view lists alerts.
const AlertWindow = 30 * 24 * time.Hour

// View is the ledger as GET /api/v1/ap/ledger shows it.
type View struct {
	Suppliers []SupplierView `json:"suppliers"`
	Alerts    []AlertView    `json:"alerts"`
	// Webhook is null until the account sets one.
	Webhook  *WebhookView `json:"webhook"`
	Advisory string       `json:"advisory"`
}

// SupplierView is one supplier: current coordinates and the full chain.
type SupplierView struct {
	Key      string                  `json:"key"`
	TaxID    string                  `json:"taxId,omitempty"`
	Domains  []string                `json:"domains"`
	Current  []store.PaymentCoord    `json:"current"`
	Versions []store.SupplierVersion `json:"versions"`
	Created  time.Time               `json:"created"`
	Updated  time.Time               `json:"updated"`
}

// AlertView is one alert.
type AlertView struct {
	ID           string    `json:"id"`
	Kind         string    `json:"kind"`
	SupplierKey  string    `json:"supplierKey"`
	At           time.Time `json:"at"`
	MessageID    string    `json:"messageId,omitempty"`
	SenderDomain string    `json:"senderDomain,omitempty"`
	Band         string    `json:"band,omitempty"`
	// Acknowledged is when the alert was marked seen (absent until then).
	Acknowledged *time.Time `json:"acknowledged,omitempty"`
}

const advisory = "Advisory only: alerts are risk signals about payment details, not verdicts; confirm any change with the supplier through a channel you already trust."

// View reads the account's ledger.
func (l *Ledger) View(ctx context.Context, accountID string) (View, error) {
	list, err := l.Store.Suppliers(ctx, accountID)
	if err != nil {
		return View{}, err
	}
	alerts, err := l.Store.AlertsSince(ctx, accountID, l.now().Add(-AlertWindow))
	if err != nil {
		return View{}, err
	}
	v := View{Suppliers: []SupplierView{}, Alerts: []AlertView{}, Advisory: advisory}
	for _, sp := range list {
		current, _ := coordsOf(sp)
		v.Suppliers = append(v.Suppliers, SupplierView{Key: sp.Key, TaxID: sp.TaxID, Domains: domainsOf(sp),
			Versions: sp.Versions, Created: sp.Created, Updated: sp.Updated, Current: current})
	}
	for _, a := range alerts {
		v.Alerts = append(v.Alerts, alertView(a))
	}
	w, err := l.Store.Webhook(ctx, accountID)
	switch {
	case err == nil:
		v.Webhook = &WebhookView{URL: w.URL, Created: w.Created}
		if w.Last.State != "" {
			last := w.Last
			v.Webhook.Last = &last
		}
	case !errors.Is(err, store.ErrNotFound):
		return View{}, err
	}
	return v, nil
}

// coordsOf returns a supplier's current payment coordinates (never nil)
// and the ones before them (nil when it has had no others).
func coordsOf(sp store.Supplier) (current, previous []store.PaymentCoord) {
	current = []store.PaymentCoord{}
	if n := len(sp.Versions); n > 0 {
		current = sp.Versions[n-1].Coords
		if n > 1 {
			previous = sp.Versions[n-2].Coords
		}
	}
	return current, previous
}

// domainsOf is a supplier's sender domains, an empty list rather than null.
func domainsOf(sp store.Supplier) []string {
	if sp.Domains == nil {
		return []string{}
	}
	return sp.Domains
}

func alertView(a store.Alert) AlertView {
	av := AlertView{ID: a.ID, Kind: a.Kind, SupplierKey: a.SupplierKey, At: a.At, MessageID: a.MessageID, SenderDomain: a.SenderDomain, Band: a.Band}
	if !a.Acknowledged.IsZero() {
		ack := a.Acknowledged.UTC()
		av.Acknowledged = &ack
	}
	return av
}

// WebhookView is the account's alert webhook without its secret: the URL,
// when it was set and the latest delivery's outcome (absent until one).
type WebhookView struct {
	URL     string                 `json:"url"`
	Created time.Time              `json:"created"`
	Last    *store.DeliveryOutcome `json:"lastDelivery,omitempty"`
}

// ErrNoAlert is an acknowledgement of an alert the account does not have.
var ErrNoAlert = errors.New("ledger: no such alert")

// Acknowledge marks one of the account's alerts seen, now; acknowledging it
// again keeps the first time. The alert stays listed (with its
// acknowledgement) until it ages out.
func (l *Ledger) Acknowledge(ctx context.Context, accountID, id string) (time.Time, error) {
	now := l.now().UTC()
	if id == "" || len(id) > 128 {
		return time.Time{}, ErrNoAlert
	}
	err := l.Store.AcknowledgeAlert(ctx, accountID, id, now)
	if errors.Is(err, store.ErrNotFound) {
		return time.Time{}, ErrNoAlert
	}
	if err != nil {
		return time.Time{}, err
	}
	alerts, err := l.Store.AlertsSince(ctx, accountID, now.Add(-AlertRetention))
	if err != nil {
		return time.Time{}, err
	}
	for _, a := range alerts {
		if a.ID == id && !a.Acknowledged.IsZero() {
			return a.Acknowledged.UTC(), nil
		}
	}
	return now, nil
}
