package plans

import (
	"reflect"
	"strings"
	"testing"
)

func TestTable(t *testing.T) {
	tab := New(0)
	for _, tc := range []struct {
		name                 string
		quota, buffer, limit int
		baselines            bool
	}{
		{Free, 25, 0, 25, false},
		{Solo, 1000, 100, 1100, false},
		{Team, 10000, 1000, 11000, true},
		{Business, 50000, 5000, 55000, true},
	} {
		p, ok := tab.Get(tc.name)
		if !ok || p.Quota != tc.quota || p.Buffer() != tc.buffer || p.Limit() != tc.limit || p.Baselines != tc.baselines {
			t.Errorf("%s = %+v (buffer %d, limit %d)", tc.name, p, p.Buffer(), p.Limit())
		}
	}
	if p, _ := New(80000).Get(Business); p.Quota != 80000 {
		t.Errorf("configured business quota = %d", p.Quota)
	}
	if p, ok := tab.Get("gold"); ok || p.Name != Free {
		t.Errorf("unknown plan resolves to %+v, %v; want Free, false", p, ok)
	}
	if _, err := tab.Parse("gold"); err == nil {
		t.Error("Parse accepted an unknown plan")
	}
	if got := tab.Names(); !reflect.DeepEqual(got, []string{Free, Solo, Team, Business}) {
		t.Errorf("Names = %v", got)
	}
}

func TestPricesAndPacks(t *testing.T) {
	base := New(0)
	if p, _ := base.Get(Solo); p.Price != "" || p.PriceEnv != "STRIPE_PRICE_SOLO" {
		t.Errorf("unconfigured solo = %+v", p)
	}
	if k, ok := base.Pack(PackSmall); !ok || k.Documents != 100 || k.Price != "" {
		t.Errorf("default small pack = %+v, %v", k, ok)
	}
	if k, _ := base.Pack(PackLarge); k.Documents != 1000 {
		t.Errorf("default large pack = %+v", k)
	}
	env := map[string]string{
		"STRIPE_PRICE_SOLO": "price_solo", "STRIPE_PRICE_TEAM": "price_team",
		"STRIPE_PRICE_CREDITS_SMALL": "price_small", "CREDITS_LARGE_DOCUMENTS": "2500",
	}
	tab := base.Configure(func(k string) string { return env[k] }, func(k string, def int) int {
		if k == "CREDITS_LARGE_DOCUMENTS" {
			return 2500
		}
		return def
	})
	if p, ok := tab.ByPrice("price_team"); !ok || p.Name != Team {
		t.Errorf("ByPrice(price_team) = %+v, %v", p, ok)
	}
	for _, unknown := range []string{"", "price_other"} {
		if p, ok := tab.ByPrice(unknown); ok {
			t.Errorf("ByPrice(%q) = %+v", unknown, p)
		}
	}
	if p, _ := tab.Get(Business); p.Price != "" {
		t.Errorf("business has price %q with its variable unset", p.Price)
	}
	if k, _ := tab.Pack(PackSmall); k.Price != "price_small" || k.Documents != 100 {
		t.Errorf("small pack = %+v", k)
	}
	if k, _ := tab.Pack(PackLarge); k.Documents != 2500 {
		t.Errorf("configured large pack = %+v", k)
	}
	if _, ok := tab.Pack("huge"); ok {
		t.Error("unknown pack found")
	}
	// Configure copies: the table it started from is unchanged.
	if p, _ := base.Get(Solo); p.Price != "" {
		t.Errorf("Configure changed its receiver: %+v", p)
	}
	if got := tab.PaidNames(); !reflect.DeepEqual(got, []string{Solo, Team, Business}) {
		t.Errorf("PaidNames = %v", got)
	}
	want := []string{"CREDITS_LARGE_DOCUMENTS", "CREDITS_SMALL_DOCUMENTS", "STRIPE_PRICE_BUSINESS", "STRIPE_PRICE_CREDITS_LARGE",
		"STRIPE_PRICE_CREDITS_SMALL", "STRIPE_PRICE_SOLO", "STRIPE_PRICE_TEAM"}
	if got := tab.Env(); !reflect.DeepEqual(got, want) {
		t.Errorf("Env = %v", got)
	}
	if got := tab.PackNames(); !reflect.DeepEqual(got, []string{PackSmall, PackLarge}) {
		t.Errorf("PackNames = %v", got)
	}
}

// TestParseAcceptsListingNames: the dashboard's names (Starter, Growth)
// and the stored ones (solo, team) name the same plans.
func TestParseAcceptsListingNames(t *testing.T) {
	tab := New(0)
	for in, want := range map[string]string{"solo": Solo, "Starter": Solo, "starter": Solo, "team": Team, "Growth": Team, " growth ": Team, "Business": Business, "FREE": Free} {
		p, err := tab.Parse(in)
		if err != nil || p.Name != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, p.Name, err, want)
		}
	}
	if _, err := tab.Parse("gold"); err == nil || !strings.Contains(err.Error(), "solo (Starter), team (Growth)") {
		t.Errorf("unknown plan: %v", err)
	}
}
