package plans

import (
	"reflect"
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
