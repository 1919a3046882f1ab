// Package ledger keeps each account's supplier ledger from forwarded
// invoices: the message is parsed under caps, every document attachment is
// inspected in memory for its risk band and read for payment coordinates,
// then dropped; only the stored form of the coordinates (engine/paycoord)
// and the alerts reach the store. Advisory only: nothing is blocked.
package ledger

import (
	"bytes"
	"context"
	"errors"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/paycoord"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
	"github.com/doctrust/doctrust/internal/store"
)

const (
	// maxAttachments bounds the documents inspected per message.
	maxAttachments = 10
	// maxTextBytes bounds the text read per document and from the body.
	maxTextBytes = 256 << 10
	// maxVersions bounds a supplier's chain: the first and the newest are
	// kept.
	maxVersions = 100
	// maxDomains bounds the sender domains kept per supplier.
	maxDomains = 50
	// AlertRetention is how long an alert is kept.
	AlertRetention = 90 * 24 * time.Hour
	// docDeadline is the per-document budget of SPEC.md.
	docDeadline = 15 * time.Second
	// recordReserve is kept from the caller's deadline for the ledger
	// write, so a message whose documents exhaust the time still records
	// what was read.
	recordReserve = 2 * time.Second
	saveAttempts  = 5
)

// Store is the part of store.Store that keeps the supplier ledger;
// store.Store documents each method. Both backends satisfy it.
type Store interface {
	EnsureAlias(ctx context.Context, accountID, candidate string) (string, error)
	AliasAccount(ctx context.Context, alias string) (string, error)
	Suppliers(ctx context.Context, accountID string) ([]store.Supplier, error)
	SaveSupplier(ctx context.Context, sp store.Supplier) error
	AddAlert(ctx context.Context, a store.Alert) error
	AlertsSince(ctx context.Context, accountID string, from time.Time) ([]store.Alert, error)
	AcknowledgeAlert(ctx context.Context, accountID, id string, when time.Time) error
	Webhook(ctx context.Context, accountID string) (store.Webhook, error)
	AddAlertDelivery(ctx context.Context, a store.Alert, d store.Delivery) error
}

// Deliverer attempts a webhook delivery that was just written with its
// alert (internal/webhook); what it cannot deliver, its sweep retries.
type Deliverer interface {
	Attempt(ctx context.Context, d store.Delivery)
}

// Ledger ingests messages into the store.
type Ledger struct {
	Store Store
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// NewID makes alert ids.
	NewID func() string
	// Webhooks, when set, attempts each alert's webhook delivery right
	// after the ledger is written; nil leaves them all to the sweep.
	Webhooks Deliverer
	// NewEventID makes webhook event ids; nil draws evt_ and 24 random
	// hex digits.
	NewEventID func() string
}

// Outcome is what one message did to the ledger.
type Outcome struct {
	SupplierKey string   `json:"supplierKey,omitempty"`
	Created     bool     `json:"created"`
	Changed     bool     `json:"changed"`
	Alerts      []string `json:"alerts"`
	Documents   int      `json:"documents"`
	Skipped     int      `json:"skipped"`
	// Partial is set when the parser met damaged parts (bad encodings) and
	// what could be read was used.
	Partial bool `json:"partial"`
}

// document is what one attachment leaves behind once its bytes are gone.
type document struct {
	band   string
	coords paycoord.Result
}

// Ingest reads raw (an RFC 5322 message) into accountID's ledger.
func (l *Ledger) Ingest(ctx context.Context, accountID string, raw []byte) (Outcome, error) {
	if err := prescan(raw); err != nil {
		return Outcome{}, err
	}
	env, err := newParser().ReadEnvelope(bytes.NewReader(raw))
	if err != nil {
		return Outcome{}, ErrUnparseable
	}
	out := Outcome{Alerts: []string{}, Partial: len(env.Errors) > 0}
	domain := senderDomain(env.GetHeader("From"))
	msgID := report.Untrusted(strings.TrimSpace(env.GetHeader("Message-Id")))

	readCtx := ctx
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		readCtx, cancel = context.WithDeadline(ctx, dl.Add(-recordReserve))
		defer cancel()
	}
	var docs []document
	for _, part := range slices.Concat(env.Attachments, env.Inlines, env.OtherParts) {
		if readCtx.Err() != nil || len(docs) == maxAttachments {
			out.Skipped++
			continue
		}
		d, ok := l.read(readCtx, part.Content)
		if !ok {
			out.Skipped++
			continue
		}
		docs = append(docs, d)
	}
	out.Documents = len(docs)
	out.Partial = out.Partial || readCtx.Err() != nil
	// The body is read too: "our bank details have changed" arrives there
	// as often as in an invoice.
	body := env.Text
	if len(body) > maxTextBytes {
		body = body[:maxTextBytes]
	}
	docs = append(docs, document{coords: paycoord.Extract(body)})
	return out, l.record(ctx, accountID, domain, msgID, docs, &out)
}

// read inspects one attachment and reads its coordinates; false when it
// is no document the engine reads.
func (l *Ledger) read(ctx context.Context, data []byte) (document, bool) {
	return l.readDocument(ctx, engine.Read(data))
}

// readDocument reads the report and the text from one sniff and one parse.
func (l *Ledger) readDocument(ctx context.Context, doc *engine.Document) (document, bool) {
	if doc.Kind() == sniff.KindNone {
		return document{}, false
	}
	ctx, cancel := context.WithTimeout(ctx, docDeadline)
	defer cancel()
	rep, err := doc.Inspect(ctx, engine.Options{Now: l.now()})
	if err != nil {
		return document{}, false
	}
	text, _ := doc.Text(ctx, maxTextBytes)
	return document{band: string(rep.Summary.RiskBand), coords: paycoord.Extract(text)}, true
}

func (l *Ledger) now() time.Time {
	if l.Now == nil {
		return time.Now()
	}
	return l.Now()
}

// senderDomain is the lower-cased domain of the From address, or "".
func senderDomain(from string) string {
	a, err := mail.ParseAddress(from)
	if err != nil {
		return ""
	}
	at := strings.LastIndexByte(a.Address, '@')
	if at < 0 {
		return ""
	}
	return report.Untrusted(strings.ToLower(a.Address[at+1:]))
}

// record merges the documents' facts into the supplier they name and
// raises the alerts, retrying when another message for the same supplier
// won the write.
func (l *Ledger) record(ctx context.Context, accountID, domain, msgID string, docs []document, out *Outcome) error {
	now := l.now()
	coords, taxID, band := merge(docs)
	key := supplierKey(taxID, domain)
	if key == "" {
		return nil
	}
	out.SupplierKey = key
	// Read before anything is written: a store that fails here leaves the
	// message to be sent again whole, rather than alerts without their
	// deliveries.
	hooked, err := l.hooked(ctx, accountID)
	if err != nil {
		return err
	}
	var alerts []string
	if band == "elevated" || band == "high" {
		alerts = append(alerts, store.AlertRiskyAttachment)
	}
	var imitated []store.Supplier
	var saved store.Supplier
	for attempt := 0; ; attempt++ {
		list, err := l.Store.Suppliers(ctx, accountID)
		if err != nil {
			return err
		}
		imitated = imitates(list, domain)
		sp, known := find(list, key)
		if !known && len(coords) == 0 {
			saved = store.Supplier{AccountID: accountID, Key: key, TaxID: taxID}
			break // nothing to start a supplier with
		}
		kinds := apply(&sp, known, accountID, key, taxID, domain, msgID, band, coords, now)
		err = l.Store.SaveSupplier(ctx, sp)
		if errors.Is(err, store.ErrConflict) && attempt < saveAttempts {
			continue
		}
		if err != nil {
			return err
		}
		out.Created, out.Changed = !known, known && slices.Contains(kinds, store.AlertCoordinatesChanged)
		alerts = append(kinds, alerts...)
		saved = sp
		break
	}
	var raised []raisedAlert
	for _, kind := range alerts {
		raised = append(raised, raisedAlert{kind: kind, supplier: saved})
	}
	// A lookalike is raised against the supplier it imitates, whatever key
	// this message was filed under.
	for _, victim := range imitated {
		raised = append(raised, raisedAlert{kind: store.AlertLookalikeDomain, supplier: victim})
	}
	var deliveries []store.Delivery
	for _, r := range raised {
		a := store.Alert{ID: l.NewID(), AccountID: accountID, Kind: r.kind, SupplierKey: r.supplier.Key, At: now,
			MessageID: msgID, SenderDomain: domain, Band: band, Expires: now.Add(AlertRetention)}
		if hooked {
			d := l.delivery(a, r.supplier)
			if err = l.Store.AddAlertDelivery(ctx, a, d); err == nil {
				d.Rev = 1
				deliveries = append(deliveries, d)
			}
		} else {
			err = l.Store.AddAlert(ctx, a)
		}
		if err != nil {
			// What was written is still attempted now; this alert and the
			// rest are lost with the error, as without a webhook.
			l.attempt(ctx, deliveries)
			return err
		}
		out.Alerts = append(out.Alerts, r.kind)
	}
	l.attempt(ctx, deliveries)
	return nil
}

// maxLookalikes bounds the lookalike alerts one message raises.
const maxLookalikes = 3

// imitates returns the suppliers whose sender domains the message's
// domain imitates, when the account has never seen that domain.
func imitates(list []store.Supplier, domain string) []store.Supplier {
	if domain == "" {
		return nil
	}
	for _, sp := range list {
		if slices.Contains(sp.Domains, domain) {
			return nil
		}
	}
	var victims []store.Supplier
	for _, sp := range list {
		for _, d := range sp.Domains {
			if lookalike(domain, d) != "" {
				victims = append(victims, sp)
				break
			}
		}
		if len(victims) == maxLookalikes {
			break
		}
	}
	return victims
}

func supplierKey(taxID, domain string) string {
	switch {
	case taxID != "":
		return "tax:" + taxID
	case domain != "":
		return "domain:" + domain
	}
	return ""
}

func find(list []store.Supplier, key string) (store.Supplier, bool) {
	for _, sp := range list {
		if sp.Key == key {
			return sp, true
		}
	}
	return store.Supplier{}, false
}

// apply changes sp for one message and returns the alerts the change
// raises: new coordinates for a known supplier, and coordinates from a
// sender domain it was never seen with.
func apply(sp *store.Supplier, known bool, accountID, key, taxID, domain, msgID, band string, coords []store.PaymentCoord, now time.Time) []string {
	var kinds []string
	if !known {
		*sp = store.Supplier{AccountID: accountID, Key: key, TaxID: taxID, Created: now}
	}
	sp.Updated = now
	newDomain := domain != "" && !slices.Contains(sp.Domains, domain)
	if newDomain && len(sp.Domains) < maxDomains {
		sp.Domains = append(sp.Domains, domain)
		slices.Sort(sp.Domains)
	}
	if known && newDomain && len(coords) > 0 {
		kinds = append(kinds, store.AlertNewSenderDomain)
	}
	if len(coords) == 0 {
		return kinds
	}
	if n := len(sp.Versions); n > 0 && sameCoords(sp.Versions[n-1].Coords, coords) {
		sp.Versions[n-1].LastSeen = now
		return kinds
	}
	if known && len(sp.Versions) > 0 {
		kinds = append([]string{store.AlertCoordinatesChanged}, kinds...)
	}
	sp.Versions = append(sp.Versions, store.SupplierVersion{Coords: coords, FirstSeen: now, LastSeen: now,
		MessageID: msgID, SenderDomain: domain, Band: band})
	if len(sp.Versions) > maxVersions {
		sp.Versions = append(sp.Versions[:1], sp.Versions[len(sp.Versions)-maxVersions+1:]...)
	}
	return kinds
}

// merge joins the documents' coordinates (stable form, deduplicated,
// sorted), takes the first tax id as the beneficiary's and the highest
// band.
func merge(docs []document) ([]store.PaymentCoord, string, string) {
	var coords []store.PaymentCoord
	seen := map[string]bool{}
	taxID, band := "", ""
	for _, d := range docs {
		if taxID == "" {
			taxID = d.coords.Beneficiary()
		}
		band = higher(band, d.band)
		for _, c := range d.coords.Accounts {
			k := c.Stable()
			if k == "" || seen[k] {
				continue
			}
			seen[k] = true
			coords = append(coords, store.PaymentCoord{Kind: string(c.Kind), Country: c.Country, BankCode: c.BankCode,
				Branch: c.Branch, AccountLast4: c.AccountLast4, KeyLast4: c.KeyLast4, TaxID: c.TaxID})
		}
	}
	slices.SortFunc(coords, func(a, b store.PaymentCoord) int { return strings.Compare(stable(a), stable(b)) })
	return coords, taxID, band
}

func stable(c store.PaymentCoord) string {
	return paycoord.Coord{Kind: paycoord.Kind(c.Kind), Country: c.Country, BankCode: c.BankCode, Branch: c.Branch,
		AccountLast4: c.AccountLast4, KeyLast4: c.KeyLast4, TaxID: c.TaxID}.Stable()
}

func sameCoords(a, b []store.PaymentCoord) bool {
	return slices.EqualFunc(a, b, func(x, y store.PaymentCoord) bool { return stable(x) == stable(y) })
}

var bandRank = map[string]int{"": 0, "low": 1, "elevated": 2, "high": 3}

func higher(a, b string) string {
	if bandRank[b] > bandRank[a] {
		return b
	}
	return a
}
