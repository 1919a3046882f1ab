// Package plans is the one plan table of the service (DESIGN.md, "Plans"):
// each plan's monthly quota, its free buffer past the quota, and what it
// unlocks. Metering, the accounts pages, billing and `doctrust admin plan`
// all read it from here.
package plans

import (
	"fmt"
	"sort"
)

// Plan names as stored on accounts and used by checkout.
const (
	Free     = "free"
	Solo     = "solo"     // listed as Starter
	Team     = "team"     // listed as Growth
	Business = "business" // by agreement; quota configurable
)

// DefaultBusinessQuota is the business quota when BUSINESS_QUOTA is unset.
const DefaultBusinessQuota = 50000

// bufferPercent is the free buffer of paid plans past their quota.
const bufferPercent = 10

// Plan is one row of the table.
type Plan struct {
	Name    string
	Listing string // the name on the price list
	Quota   int    // documents a month
	Paid    bool
	// Baselines: the plan may train issuer baselines (Team or above).
	Baselines bool
}

// Buffer is the number of documents served free past the quota
// (`x-quota-ceiling`): 10 percent on paid plans, 0 on Free, where prepaid
// credits play that role.
func (p Plan) Buffer() int {
	if !p.Paid {
		return 0
	}
	return p.Quota * bufferPercent / 100
}

// Limit is the most documents the monthly counter may reach.
func (p Plan) Limit() int { return p.Quota + p.Buffer() }

// Table is the plan table; the zero value is not usable, use New.
type Table struct{ plans map[string]Plan }

// New returns the table with the business quota set (<= 0 means the default).
func New(businessQuota int) Table {
	if businessQuota <= 0 {
		businessQuota = DefaultBusinessQuota
	}
	return Table{plans: map[string]Plan{
		Free:     {Name: Free, Listing: "Free", Quota: 25},
		Solo:     {Name: Solo, Listing: "Starter", Quota: 1000, Paid: true},
		Team:     {Name: Team, Listing: "Growth", Quota: 10000, Paid: true, Baselines: true},
		Business: {Name: Business, Listing: "Business", Quota: businessQuota, Paid: true, Baselines: true},
	}}
}

// Get returns the named plan. An unknown name on a stored account (which
// only a hand-edited store can hold) falls back to Free, the plan that
// grants least, with ok false.
func (t Table) Get(name string) (Plan, bool) {
	p, ok := t.plans[name]
	if !ok {
		return t.plans[Free], false
	}
	return p, true
}

// Names lists the plan names, in quota order.
func (t Table) Names() []string {
	names := make([]string, 0, len(t.plans))
	for n := range t.plans {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return t.plans[names[i]].Quota < t.plans[names[j]].Quota })
	return names
}

// Parse checks a plan name given by a person or a payment event.
func (t Table) Parse(name string) (Plan, error) {
	p, ok := t.plans[name]
	if !ok {
		return Plan{}, fmt.Errorf("unknown plan %q (one of %v)", name, t.Names())
	}
	return p, nil
}
