package ledger

import (
	"context"
	"time"

	"github.com/doctrust/doctrust/internal/store"
)

// AlertWindow is how far back the ledger view lists alerts.
const AlertWindow = 30 * 24 * time.Hour

// View is the ledger as GET /api/v1/ap/ledger shows it.
type View struct {
	Suppliers []SupplierView `json:"suppliers"`
	Alerts    []AlertView    `json:"alerts"`
	Advisory  string         `json:"advisory"`
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
		sv := SupplierView{Key: sp.Key, TaxID: sp.TaxID, Domains: sp.Domains, Versions: sp.Versions, Created: sp.Created, Updated: sp.Updated, Current: []store.PaymentCoord{}}
		if n := len(sp.Versions); n > 0 {
			sv.Current = sp.Versions[n-1].Coords
		}
		if sv.Domains == nil {
			sv.Domains = []string{}
		}
		v.Suppliers = append(v.Suppliers, sv)
	}
	for _, a := range alerts {
		v.Alerts = append(v.Alerts, AlertView{ID: a.ID, Kind: a.Kind, SupplierKey: a.SupplierKey, At: a.At, MessageID: a.MessageID, SenderDomain: a.SenderDomain, Band: a.Band})
	}
	return v, nil
}
