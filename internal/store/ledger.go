package store

import (
	"context"
	"time"
)

// PaymentCoord is one payment coordinate in its stored form: never a full
// account number (engine/paycoord keeps only these fields).
type PaymentCoord struct {
	Kind         string `json:"kind"`
	Country      string `json:"country,omitempty"`
	BankCode     string `json:"bankCode,omitempty"`
	Branch       string `json:"branch,omitempty"`
	AccountLast4 string `json:"accountLast4,omitempty"`
	KeyLast4     string `json:"keyLast4,omitempty"`
	TaxID        string `json:"taxId,omitempty"`
}

// SupplierVersion is one set of coordinates a supplier was seen with.
type SupplierVersion struct {
	Coords       []PaymentCoord `json:"coords"`
	FirstSeen    time.Time      `json:"firstSeen"`
	LastSeen     time.Time      `json:"lastSeen"`
	MessageID    string         `json:"messageId,omitempty"`
	SenderDomain string         `json:"senderDomain,omitempty"`
	// Band is the highest risk band of the attachments that carried it.
	Band string `json:"band"`
}

// Supplier is one supplier of an account's ledger, keyed by beneficiary
// tax id ("tax:<id>") or, without one, sender domain ("domain:<d>").
type Supplier struct {
	AccountID string
	Key       string
	TaxID     string
	// Domains are the sender domains seen for it, sorted.
	Domains []string
	// Versions is the coordinate history, oldest first; the last is
	// current.
	Versions []SupplierVersion
	Created  time.Time
	Updated  time.Time
	// Rev is the revision read; SaveSupplier writes Rev+1 only over Rev.
	Rev int64
}

// Alert kinds.
const (
	AlertCoordinatesChanged = "coordinates-changed"
	AlertNewSenderDomain    = "new-sender-domain"
	AlertRiskyAttachment    = "risky-attachment"
)

// Alert is one advisory ledger alert.
type Alert struct {
	ID           string
	AccountID    string
	Kind         string
	SupplierKey  string
	At           time.Time
	MessageID    string
	SenderDomain string
	Band         string
	Expires      time.Time
}

// LedgerStore is the supplier ledger's part of the store.
type LedgerStore interface {
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
}
