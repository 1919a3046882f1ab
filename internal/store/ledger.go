package store

import "time"

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
	// AlertLookalikeDomain is filed against the supplier whose sender
	// domain the message's imitates; SenderDomain is the imitation.
	AlertLookalikeDomain = "lookalike-domain"
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
	// Acknowledged is when someone of the account marked it seen; zero
	// until then.
	Acknowledged time.Time
}
