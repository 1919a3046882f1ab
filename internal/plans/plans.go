// Package plans is the one plan table of the service (DESIGN.md, "Plans"):
// each plan's monthly quota, its free buffer past the quota, what it
// unlocks and what it costs at the payment processor, and the prepaid
// credit packs. Metering, the accounts pages, billing and `doctrust admin
// plan` all read it from here.
package plans

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// Plan names as stored on accounts and used by checkout.
const (
	Free     = "free"
	Solo     = "solo"     // listed as Starter
	Team     = "team"     // listed as Growth
	Business = "business" // by agreement; quota configurable
)

// Credit pack names (POST /billing/credits).
const (
	PackSmall = "small"
	PackLarge = "large"
)

// DefaultBusinessQuota is the business quota when BUSINESS_QUOTA is unset.
const DefaultBusinessQuota = 50000

// Default pack sizes, in documents, when their variables are unset.
const (
	DefaultSmallPack = 100
	DefaultLargePack = 1000
)

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
	// PriceEnv names the variable holding the plan's recurring price at
	// the payment processor (a Stripe price id); Price is its value once
	// configured, empty while the plan cannot be bought.
	PriceEnv string
	Price    string
}

// Pack is a prepaid credit pack: a one-time purchase of Documents that
// never expire, sold only to accounts on Free.
type Pack struct {
	Name      string
	Documents int
	// DocumentsEnv names the variable that overrides Documents.
	DocumentsEnv string
	// PriceEnv and Price are the pack's one-time price, as for a Plan.
	PriceEnv string
	Price    string
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
type Table struct {
	plans map[string]Plan
	packs map[string]Pack
}

// New returns the table with the business quota set (<= 0 means the
// default), default pack sizes and no prices (Configure adds them).
func New(businessQuota int) Table {
	if businessQuota <= 0 {
		businessQuota = DefaultBusinessQuota
	}
	return Table{
		plans: map[string]Plan{
			Free:     {Name: Free, Listing: "Free", Quota: 25},
			Solo:     {Name: Solo, Listing: "Starter", Quota: 1000, Paid: true, PriceEnv: "STRIPE_PRICE_SOLO"},
			Team:     {Name: Team, Listing: "Growth", Quota: 10000, Paid: true, Baselines: true, PriceEnv: "STRIPE_PRICE_TEAM"},
			Business: {Name: Business, Listing: "Business", Quota: businessQuota, Paid: true, Baselines: true, PriceEnv: "STRIPE_PRICE_BUSINESS"},
		},
		packs: map[string]Pack{
			PackSmall: {Name: PackSmall, Documents: DefaultSmallPack, DocumentsEnv: "CREDITS_SMALL_DOCUMENTS", PriceEnv: "STRIPE_PRICE_CREDITS_SMALL"},
			PackLarge: {Name: PackLarge, Documents: DefaultLargePack, DocumentsEnv: "CREDITS_LARGE_DOCUMENTS", PriceEnv: "STRIPE_PRICE_CREDITS_LARGE"},
		},
	}
}

// Configure returns a copy of the table with each plan's and pack's price
// read through price (called with the row's PriceEnv) and each pack's size
// through documents (called with DocumentsEnv and the default size).
func (t Table) Configure(price func(env string) string, documents func(env string, def int) int) Table {
	out := Table{plans: maps.Clone(t.plans), packs: maps.Clone(t.packs)}
	for name, p := range out.plans {
		if p.PriceEnv != "" {
			p.Price = price(p.PriceEnv)
			out.plans[name] = p
		}
	}
	for name, k := range out.packs {
		k.Price = price(k.PriceEnv)
		k.Documents = documents(k.DocumentsEnv, k.Documents)
		out.packs[name] = k
	}
	return out
}

// Env lists the variables Configure reads, sorted: the deployment must
// set them where checkout and the webhook run.
func (t Table) Env() []string {
	var env []string
	for _, p := range t.plans {
		if p.PriceEnv != "" {
			env = append(env, p.PriceEnv)
		}
	}
	for _, k := range t.packs {
		env = append(env, k.PriceEnv, k.DocumentsEnv)
	}
	slices.Sort(env)
	return env
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

// PaidNames lists the plans a checkout can buy, in quota order.
func (t Table) PaidNames() []string {
	return slices.DeleteFunc(t.Names(), func(n string) bool { return !t.plans[n].Paid })
}

// Parse checks a plan name given by a person or a payment event.
func (t Table) Parse(name string) (Plan, error) {
	if p, ok := t.plans[name]; ok {
		return p, nil
	}
	// The price list's names (Starter, Growth) are the same plans: a
	// support engineer reading the dashboard types what it shows.
	for _, p := range t.plans {
		if strings.EqualFold(strings.TrimSpace(name), p.Listing) || strings.EqualFold(strings.TrimSpace(name), p.Name) {
			return p, nil
		}
	}
	return Plan{}, fmt.Errorf("unknown plan %q (one of %s)", name, t.described())
}

// described lists the plans as "free, solo (Starter), team (Growth), business".
func (t Table) described() string {
	var out []string
	for _, n := range t.Names() {
		p := t.plans[n]
		if strings.EqualFold(p.Listing, p.Name) {
			out = append(out, p.Name)
		} else {
			out = append(out, p.Name+" ("+p.Listing+")")
		}
	}
	return strings.Join(out, ", ")
}

// ByPrice finds the paid plan sold at a processor price id.
func (t Table) ByPrice(price string) (Plan, bool) {
	if price == "" {
		return Plan{}, false
	}
	for _, p := range t.plans {
		if p.Paid && p.Price == price {
			return p, true
		}
	}
	return Plan{}, false
}

// Pack returns the named credit pack.
func (t Table) Pack(name string) (Pack, bool) {
	k, ok := t.packs[name]
	return k, ok
}

// PackNames lists the credit packs, smallest first.
func (t Table) PackNames() []string {
	names := slices.Collect(maps.Keys(t.packs))
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(t.packs[a].Documents, t.packs[b].Documents), cmp.Compare(a, b))
	})
	return names
}
