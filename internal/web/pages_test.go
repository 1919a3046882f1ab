package web

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/accounts"
	"github.com/doctrust/doctrust/internal/baselines"
	"github.com/doctrust/doctrust/internal/plans"
)

func serve(t *testing.T, path string) *httptest.ResponseRecorder {
	t.Helper()
	mux := http.NewServeMux()
	New(Config{Cookie: "svc_session", MaxUploadMB: 10}).Register(mux)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	return rec
}

// TestPagesRenderWithCSP: every page renders, carries the policy and the
// other protective headers, and loads only its own scripts.
func TestPagesRenderWithCSP(t *testing.T) {
	for _, path := range []string{"/", "/signup", "/login", "/forgot", "/account", "/baselines", "/ledger", "/compare", "/billing", "/account?verify=abc", "/static/app.css", "/static/inspect.js"} {
		rec := serve(t, path)
		if rec.Code != http.StatusOK {
			t.Errorf("%s: status %d", path, rec.Code)
			continue
		}
		h := rec.Header()
		if h.Get("Content-Security-Policy") != CSP {
			t.Errorf("%s: CSP %q", path, h.Get("Content-Security-Policy"))
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: protective headers missing: %v", path, h)
		}
		if strings.HasPrefix(path, "/static/") {
			continue
		}
		body := rec.Body.String()
		if !strings.Contains(body, `<script src="/static/common.js" defer></script>`) {
			t.Errorf("%s: common.js not loaded", path)
		}
	}
}

// TestNoInlineScriptOrStyle: the CSP forbids inline code, so no template
// may hold any (it would silently not run).
func TestNoInlineScriptOrStyle(t *testing.T) {
	inline := regexp.MustCompile(`<script>|<script [^>]*>[^<]|<style|\sstyle=|\son[a-z]+=|javascript:`)
	err := fs.WalkDir(templateFS, "templates", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := fs.ReadFile(templateFS, path)
		if m := inline.Find(b); m != nil {
			t.Errorf("%s holds inline code: %q", path, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	js, _ := fs.Glob(staticFS, "static/*.js")
	// Our modules too; pdf.js's files (pdf*.mjs) are the pinned
	// distribution, checked against its record instead.
	modules, _ := fs.Glob(staticFS, "static/*.mjs")
	own := 0
	for _, name := range modules {
		if !strings.HasPrefix(name, "static/pdf") {
			js = append(js, name)
			own++
		}
	}
	if own == 0 {
		t.Error("none of our modules checked")
	}
	for _, name := range js {
		b, _ := fs.ReadFile(staticFS, name)
		if regexp.MustCompile(`innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(`).Match(b) {
			t.Errorf("%s parses strings as markup or code", name)
		}
	}
}

func TestStaticHasNoListing(t *testing.T) {
	if rec := serve(t, "/static/"); rec.Code == http.StatusOK {
		t.Errorf("/static/ lists the assets")
	}
}

// TestAccountPageEscapes: account values reach the page escaped.
func TestAccountPageEscapes(t *testing.T) {
	p := New(Config{})
	evil := `"><script>alert(1)</script>`
	view := accountView{SignedIn: true, Me: accounts.Me{
		User: accounts.UserView{Email: evil, Plan: evil},
		Keys: []accounts.KeyView{{ID: evil, Preview: evil, State: "active", Created: time.Now()}},
	}, Usage: accounts.UsageReport{Month: "2026-11", Bands: map[string]int{}}}
	view.Chart = usageChart(view.Usage)
	rec := httptest.NewRecorder()
	p.render(rec, "account", page{Title: "Account", Page: "account", Data: view})
	body := rec.Body.String()
	if strings.Contains(body, "<script>alert") {
		t.Fatal("account page wrote a value unescaped")
	}
	if !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("escaped value missing from the page")
	}
}

// TestUsageChart: one bar per day of the month; a day's segments stack
// its bands, tallest day filling the plot.
func TestUsageChart(t *testing.T) {
	u := accounts.UsageReport{Month: "2026-02", Days: []accounts.Day{
		{Date: "2026-02-03", Documents: 4, Bands: map[string]int{"low": 1, "elevated": 1, "high": 2}},
		{Date: "2026-02-10", Documents: 2, Bands: map[string]int{"low": 1}},
	}}
	c := usageChart(u)
	if len(c.Bars) != 28 || c.Max != 4 || c.Empty {
		t.Fatalf("bars %d, max %d, empty %v", len(c.Bars), c.Max, c.Empty)
	}
	plot := chartHeight - chartTop - chartBottom
	var h int
	for _, s := range c.Bars[2].Segments {
		h += s.H
	}
	if h != plot || len(c.Bars[2].Segments) != 3 {
		t.Errorf("tallest day: %d segments, height %d, want 3 and %d", len(c.Bars[2].Segments), h, plot)
	}
	if segs := c.Bars[9].Segments; len(segs) != 2 || segs[1].Band != "unbanded" {
		t.Errorf("day with an unbanded document: %+v", segs)
	}
	if !usageChart(accounts.UsageReport{Month: "2026-11"}).Empty {
		t.Error("a month without use is not empty")
	}
}

// TestBillingButtons: shown only when billing can open; credit packs only
// on the Free plan; the portal only once a customer exists.
func TestBillingButtons(t *testing.T) {
	render := func(v accountView) string {
		v.SignedIn = true
		v.Usage = accounts.UsageReport{Month: "2026-11"}
		v.Chart = usageChart(v.Usage)
		rec := httptest.NewRecorder()
		New(Config{}).render(rec, "billing", page{Page: "billing", Data: v})
		return rec.Body.String()
	}
	off := render(accountView{})
	if strings.Contains(off, `class="bill`) || !strings.Contains(off, "doctrust admin plan") {
		t.Error("billing off: want no buttons and the operator's way to change plans")
	}
	table := plans.New(0)
	var rows []plans.Plan
	for _, n := range table.Names() {
		p, _ := table.Get(n)
		rows = append(rows, p)
	}
	free := render(accountView{Billing: true, Free: true, Plans: rows, Packs: packRows(table), Plan: rows[0]})
	if !strings.Contains(free, `data-value="solo"`) || !strings.Contains(free, `data-value="small"`) || strings.Contains(free, "/api/v1/billing/portal") {
		t.Error("free account: want checkout and credit packs, no portal")
	}
	paid := render(accountView{Billing: true, Plans: rows, Plan: rows[1], Me: accounts.Me{Billing: accounts.BillingView{Portal: true, Subscription: true}}})
	if strings.Contains(paid, `data-value="solo"`) || strings.Contains(paid, `data-value="small"`) || !strings.Contains(paid, "/api/v1/billing/portal") {
		t.Error("subscribed account: want the portal only")
	}
}

// TestOutboxNamed: when mail is written to a folder instead of being sent,
// the pages that promise a mailed link say where it went; with SES they
// say it was sent.
func TestOutboxNamed(t *testing.T) {
	render := func(cfg Config, path string) string {
		mux := http.NewServeMux()
		New(cfg).Register(mux)
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec.Body.String()
	}
	dir := "/srv/doctrust/.data/outbox"
	for _, path := range []string{"/signup", "/forgot"} {
		if body := render(Config{MailOutbox: dir}, path); !strings.Contains(body, dir) || !strings.Contains(body, "MAIL_OUTBOX") {
			t.Errorf("%s with an outbox does not name it", path)
		}
		if body := render(Config{}, path); strings.Contains(body, "MAIL_OUTBOX") || strings.Contains(body, "outbox") {
			t.Errorf("%s without an outbox mentions one", path)
		}
	}
	if body := render(Config{}, "/signup"); !strings.Contains(body, "We sent a link") {
		t.Error("signup without an outbox does not say the link was sent")
	}
}

// TestUsageLineAddsUp: the month's line accounts for every document: the
// three bands and the grey ones without a band.
func TestUsageLineAddsUp(t *testing.T) {
	for _, c := range []struct {
		u    accounts.UsageReport
		want string
	}{
		{accounts.UsageReport{Documents: 44, Bands: map[string]int{"low": 19, "elevated": 12, "high": 4}},
			"44 documents: 19 low, 12 elevated, 4 high, 9 without a band (metadata listings and comparisons)."},
		{accounts.UsageReport{Documents: 1, Credit: 1, Bands: map[string]int{"low": 1}}, "1 document (1 paid from credits): 1 low, 0 elevated, 0 high."},
		{accounts.UsageReport{}, "0 documents this month."},
	} {
		if got := usageLine(c.u); got != c.want {
			t.Errorf("usageLine = %q, want %q", got, c.want)
		}
	}
}

// TestBaselinesPlanNote: below Team the page names the plan that trains
// and where to change it (the billing page when billing is on, the
// operator otherwise); on Team it says nothing of the kind.
func TestBaselinesPlanNote(t *testing.T) {
	table := plans.New(0)
	free, _ := table.Get(plans.Free)
	team, _ := table.Get(plans.Team)
	render := func(v accountView) string {
		v.SignedIn, v.BaselinePlan = true, team
		rec := httptest.NewRecorder()
		New(Config{}).render(rec, "baselines", page{Page: "baselines", Data: v})
		return rec.Body.String()
	}
	withBilling := render(accountView{Plan: free, Billing: true})
	if !strings.Contains(withBilling, `id="plan-note"`) || !strings.Contains(withBilling, "Growth (team)") || !strings.Contains(withBilling, `href="/billing"`) {
		t.Error("free with billing: want the plan note naming Growth and linking the billing page")
	}
	if off := render(accountView{Plan: free}); strings.Contains(off, `href="/billing"`) || !strings.Contains(off, "doctrust admin plan") {
		t.Error("free without billing: want the operator's way, no billing link")
	}
	if on := render(accountView{Plan: team}); strings.Contains(on, `id="plan-note"`) {
		t.Error("team: no plan note")
	}
	rec := httptest.NewRecorder()
	New(Config{}).render(rec, "baselines", page{Page: "baselines", Data: accountView{BaselinePlan: baselinePlan(table)}})
	if out := rec.Body.String(); !strings.Contains(out, `id="signed-out"`) || !strings.Contains(out, "Growth plan (team) or above") {
		t.Error("signed out: want the plan that trains named from the plan table")
	}
}

// TestSignedOutPagesLinkLogin: the account-bound pages, signed out, say
// so and link to log in instead of drawing an empty page.
func TestSignedOutPagesLinkLogin(t *testing.T) {
	for _, path := range []string{"/account", "/baselines", "/ledger", "/billing"} {
		rec := serve(t, path)
		body := rec.Body.String()
		if rec.Code != 200 || !strings.Contains(body, `id="signed-out"`) || !strings.Contains(body, `<a href="/login">Log in</a>`) {
			t.Errorf("%s signed out: %d, no log-in prompt", path, rec.Code)
		}
	}
}

// TestInspectPageListsBuiltIns: the built-in baselines are in the inspect
// page's issuer field as served, for a visitor without a session.
func TestInspectPageListsBuiltIns(t *testing.T) {
	mux := http.NewServeMux()
	New(Config{Baselines: &baselines.Service{BuiltIn: baselines.BuiltIn()}}).Register(mux)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	body := rec.Body.String()
	for _, p := range baselines.BuiltIn() {
		if !strings.Contains(body, `<option value="`+p.Issuer+`" data-source="built-in">`) {
			t.Errorf("inspect page lacks the built-in issuer %s", p.Issuer)
		}
	}
	if len(baselines.BuiltIn()) == 0 {
		t.Fatal("no built-in baselines to list")
	}
}
