package store

import "time"

// Webhook is an account's alert webhook (docs/ledger.md, "Webhook"). The
// secret signs the deliveries, so it is kept as it is, like the receipt
// and reset secrets (Secret), in the same owner-only store; it is shown to
// the account once, when set, and never read back through the API.
type Webhook struct {
	AccountID string
	// ID names this setting: a replacement draws a new one, so the
	// outcome of a delivery made to the URL it replaced is not recorded
	// against the new one.
	ID      string
	URL     string
	Secret  string
	Created time.Time
	// Last is the outcome of the latest delivery attempt; zero until one.
	Last DeliveryOutcome
}

// Delivery states, as the ledger's webhook status shows them.
const (
	DeliveryDelivered = "delivered"
	DeliveryRetrying  = "retrying"
	DeliveryFailed    = "failed"
)

// DeliveryOutcome is what one delivery attempt came to.
type DeliveryOutcome struct {
	EventID  string    `json:"eventId"`
	At       time.Time `json:"at"`
	State    string    `json:"state"`
	Attempts int       `json:"attempts"`
	// Status is the receiver's HTTP status; 0 when none was read.
	Status int `json:"status,omitempty"`
	// Error says in a few words why an attempt failed (never the
	// receiver's body).
	Error string `json:"error,omitempty"`
	// Next is when the next attempt is due, while retrying.
	Next time.Time `json:"next,omitzero"`
}

// Delivery is one pending webhook event: the outbox row written with its
// alert and removed once the event is delivered or given up. It holds the
// event's JSON, never the URL or the secret, which are read when the
// attempt is made.
type Delivery struct {
	ID        string // the event id, evt_…
	AccountID string
	Event     []byte // the body posted
	Attempts  int
	// Due is when the next attempt may start: an attempt claims the row
	// by moving it forward first.
	Due     time.Time
	Created time.Time
	// Expires bounds the retries; an expired row is given up.
	Expires time.Time
	// Rev is the revision read; SaveDelivery and DeleteDelivery change
	// the row only at this revision.
	Rev int64
}
