package accounts

import (
	"context"
	"sort"
	"time"

	"github.com/doctrust/doctrust/internal/metering"
	"github.com/doctrust/doctrust/internal/store"
)

// KeyView is a key as the account pages show it: never the key itself.
type KeyView struct {
	ID        string     `json:"id"`
	Preview   string     `json:"preview"`
	State     string     `json:"state"` // active | revoked
	Created   time.Time  `json:"created"`
	RevokedAt *time.Time `json:"revokedAt,omitempty"`
}

// UserView is the account as its owner sees it.
type UserView struct {
	ID       string    `json:"id"`
	Email    string    `json:"email"`
	Verified bool      `json:"verified"`
	Plan     string    `json:"plan"`
	Created  time.Time `json:"created"`
}

// View is the public form of an account.
func View(a store.Account) UserView {
	return UserView{ID: a.ID, Email: a.Email, Verified: a.Verified, Plan: a.Plan, Created: a.Created}
}

// QuotaView mirrors the x-quota-* headers for the current month.
type QuotaView struct {
	Month     string `json:"month"`
	Limit     int    `json:"limit"`
	Used      int    `json:"used"`
	Remaining int    `json:"remaining"`
	Ceiling   int    `json:"ceiling"`
	State     string `json:"state"`
	Credits   int    `json:"credits"`
}

// BillingView is the account's standing with the payment processor.
type BillingView struct {
	// Portal: a customer exists, so POST /billing/portal opens.
	Portal bool `json:"portal"`
	// Subscription: a subscription is live (a plan is changed in the
	// portal, not by another checkout).
	Subscription       bool       `json:"subscription"`
	PeriodStart        *time.Time `json:"periodStart,omitempty"`
	PeriodEnd          *time.Time `json:"periodEnd,omitempty"`
	LastPaymentFailure *time.Time `json:"lastPaymentFailure,omitempty"`
}

func billingView(b store.Billing) BillingView {
	opt := func(t time.Time) *time.Time {
		if t.IsZero() {
			return nil
		}
		return &t
	}
	return BillingView{Portal: b.CustomerID != "", Subscription: b.SubscriptionID != "",
		PeriodStart: opt(b.PeriodStart), PeriodEnd: opt(b.PeriodEnd), LastPaymentFailure: opt(b.PaymentFailedAt)}
}

// Me is GET /me.
type Me struct {
	User    UserView    `json:"user"`
	Quota   QuotaView   `json:"quota"`
	Keys    []KeyView   `json:"keys"`
	Billing BillingView `json:"billing"`
}

// Summary is the account, its keys and its month so far.
func (s *Service) Summary(ctx context.Context, a store.Account) (Me, error) {
	month := store.Month(s.now())
	bal, err := s.Store.Balance(ctx, a.ID, month)
	if err != nil {
		return Me{}, err
	}
	keys, err := s.Store.Keys(ctx, a.ID)
	if err != nil {
		return Me{}, err
	}
	plan, _ := s.Plans.Get(a.Plan)
	st := metering.StatusOf(plan, bal)
	me := Me{User: View(a), Keys: []KeyView{}, Billing: billingView(a.Billing), Quota: QuotaView{Month: month, Limit: st.Limit, Used: st.Used,
		Remaining: st.Remaining, Ceiling: st.Ceiling, State: string(st.State), Credits: st.Credits}}
	for _, k := range keys {
		v := KeyView{ID: k.ID, Preview: k.Preview, State: "active", Created: k.Created}
		if k.Revoked {
			at := k.RevokedAt
			v.State, v.RevokedAt = "revoked", &at
		}
		me.Keys = append(me.Keys, v)
	}
	return me, nil
}

// Day is one day of GET /usage.
type Day struct {
	Date      string         `json:"date"` // YYYY-MM-DD, UTC
	Documents int            `json:"documents"`
	Bands     map[string]int `json:"bands"`
}

// UsageReport is GET /usage: the current month, day by day.
type UsageReport struct {
	Month     string         `json:"month"`
	Documents int            `json:"documents"`
	Credit    int            `json:"creditDocuments"`
	Bands     map[string]int `json:"bands"`
	Days      []Day          `json:"days"`
}

// bands are the report's risk bands, always present in the split.
var bands = []string{"low", "elevated", "high"}

func emptyBands() map[string]int {
	m := map[string]int{}
	for _, b := range bands {
		m[b] = 0
	}
	return m
}

// Usage counts the month's usage rows per UTC day and per risk band; days
// without use are left out.
func (s *Service) Usage(ctx context.Context, a store.Account) (UsageReport, error) {
	now := s.now()
	start := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	rows, err := s.Store.UsageSince(ctx, a.ID, start)
	if err != nil {
		return UsageReport{}, err
	}
	rep := UsageReport{Month: store.Month(now), Bands: emptyBands(), Days: []Day{}}
	byDay := map[string]*Day{}
	for _, r := range rows {
		date := r.At.UTC().Format("2006-01-02")
		d := byDay[date]
		if d == nil {
			d = &Day{Date: date, Bands: emptyBands()}
			byDay[date] = d
		}
		d.Documents += r.Documents
		rep.Documents += r.Documents
		if r.Credit {
			rep.Credit += r.Documents
		}
		if r.Band != "" {
			d.Bands[r.Band] += r.Documents
			rep.Bands[r.Band] += r.Documents
		}
	}
	for _, d := range byDay {
		rep.Days = append(rep.Days, *d)
	}
	sort.Slice(rep.Days, func(i, j int) bool { return rep.Days[i].Date < rep.Days[j].Date })
	return rep, nil
}
