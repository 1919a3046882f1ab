// Package web is the account dashboard: server-rendered pages
// (html/template) and a few small JavaScript files that call the JSON API.
// There is no build step: templates and assets are embedded as written.
//
// Every page and asset carries a strict Content-Security-Policy: scripts
// and styles come only from this origin's /static/, so no inline script or
// style can run even if a string slipped past escaping.
package web

import (
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"

	"github.com/doctrust/doctrust/internal/accounts"
	"github.com/doctrust/doctrust/internal/baselines"
	"github.com/doctrust/doctrust/internal/metering"
	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/store"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// CSP is the policy of every page and asset. connect-src 'self' is the
// JSON API; img-src data: lets the copy of a chart be saved; worker-src
// 'self' is pdf.js's worker, from /static/ only; forms post nowhere but
// here.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; worker-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// Config is what the pages need from the service.
type Config struct {
	// Accounts reads the session, the account summary and the month's
	// usage for the server-rendered account page.
	Accounts *accounts.Service
	// Cookie is the session cookie's name.
	Cookie string
	// BillingEnabled reports whether checkout and the portal can open;
	// the billing buttons are shown only then.
	BillingEnabled func() bool
	// MaxUploadMB is shown on the inspect page.
	MaxUploadMB int
	// Baselines gives the inspect page its built-in issuers, which any
	// caller may name; an account's own are listed by the page's script
	// from the API when a session is open.
	Baselines *baselines.Service
	// AnonPerHour is the anonymous hourly allowance the inspect page
	// states (0: metering's default).
	AnonPerHour int
	// MailOutbox is the folder mail is written to instead of being sent
	// (MAIL_OUTBOX, `make run`'s default); the sign-up and reset pages say
	// the link is there. Empty when mail goes through SES.
	MailOutbox string
	Logger     *slog.Logger
}

// Pages serves the dashboard.
type Pages struct {
	cfg   Config
	pages map[string]*template.Template
}

// pageNames are the templates that are whole pages (each with layout.html).
var pageNames = []string{"inspect", "signup", "login", "forgot", "account", "baselines", "ledger", "compare", "billing"}

// New parses the embedded templates; a template error is a programming
// error caught by the tests, so it panics.
func New(cfg Config) *Pages {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.BillingEnabled == nil {
		cfg.BillingEnabled = func() bool { return false }
	}
	p := &Pages{cfg: cfg, pages: map[string]*template.Template{}}
	for _, name := range pageNames {
		p.pages[name] = template.Must(template.New("layout.html").Funcs(funcs).
			ParseFS(templateFS, "templates/layout.html", "templates/"+name+".html"))
	}
	return p
}

// Routes are the dashboard's routes as template.yaml names them (API
// Gateway's greedy {proxy+} for the assets); internal/deploy checks that
// the accounts function receives each.
var Routes = [][2]string{{"GET", "/"}, {"GET", "/signup"}, {"GET", "/login"}, {"GET", "/forgot"},
	{"GET", "/account"}, {"GET", "/baselines"}, {"GET", "/ledger"}, {"GET", "/compare"}, {"GET", "/billing"},
	{"GET", "/static/{proxy+}"}}

// Register adds the dashboard's routes to mux.
func (p *Pages) Register(mux *http.ServeMux) {
	mux.Handle("GET /{$}", p.inspect())
	mux.Handle("GET /signup", p.static("signup", "Create an account"))
	mux.Handle("GET /login", p.static("login", "Log in"))
	mux.Handle("GET /forgot", p.static("forgot", "Forgotten password"))
	mux.HandleFunc("GET /account", p.session("account", "Account"))
	mux.HandleFunc("GET /baselines", p.session("baselines", "Issuer baselines"))
	mux.HandleFunc("GET /ledger", p.session("ledger", "Supplier ledger"))
	mux.Handle("GET /compare", p.static("compare", "Compare two PDFs"))
	mux.HandleFunc("GET /billing", p.session("billing", "Billing"))
	sub, _ := fs.Sub(staticFS, "static")
	files := http.StripPrefix("/static/", http.FileServerFS(sub))
	mux.Handle("GET /static/{file}", secure(modules(files)))
}

// secure sets the headers every dashboard response carries. Referrer-Policy
// keeps verification and reset tokens in /account URLs from leaking.
func secure(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", CSP)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("X-Frame-Options", "DENY")
		h.ServeHTTP(w, r)
	})
}

// modules serves .mjs files as JavaScript whatever the system's MIME table
// says: a module script (pdf.js and its worker) under nosniff loads only
// with a JavaScript type.
func modules(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".mjs") {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		}
		h.ServeHTTP(w, r)
	})
}

// page is what layout.html reads; Data is the page's own.
type page struct {
	Title       string
	Page        string
	MaxUploadMB int
	MailOutbox  string
	Data        any
}

func (p *Pages) static(name, title string) http.Handler {
	return secure(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.render(w, name, page{Title: title, Page: name, MaxUploadMB: p.cfg.MaxUploadMB, MailOutbox: p.cfg.MailOutbox})
	}))
}

// Issuer is a baseline the inspect page offers by its slug.
type Issuer struct {
	Slug, Label string
}

// inspectView is the inspect page's own data.
type inspectView struct {
	Issuers     []Issuer
	AnonPerHour int
}

// inspect serves the inspect page with the built-in issuers in its issuer
// field: they answer every caller, so the page lists them without a
// session or a call.
func (p *Pages) inspect() http.Handler {
	anon := p.cfg.AnonPerHour
	if anon <= 0 {
		anon = metering.DefaultAnonPerHour
	}
	var builtIn []Issuer
	if p.cfg.Baselines != nil {
		for _, b := range p.cfg.Baselines.BuiltIn {
			builtIn = append(builtIn, Issuer{Slug: b.Issuer, Label: b.Label})
		}
	}
	return secure(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.render(w, "inspect", page{Title: "Inspect a document", Page: "inspect", MaxUploadMB: p.cfg.MaxUploadMB,
			MailOutbox: p.cfg.MailOutbox, Data: inspectView{Issuers: builtIn, AnonPerHour: anon}})
	}))
}

func (p *Pages) render(w http.ResponseWriter, name string, data page) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := p.pages[name].Execute(w, data); err != nil {
		// Headers are gone by now; the log names the page, nothing more.
		p.cfg.Logger.Error("page render", "page", name, "err", err.Error())
	}
}

// session serves a page drawn from the signed-in account (or a sign-in
// prompt). The account page also receives the mailed links (?verify=,
// ?reset=), whose tokens its script posts to the API; no page consumes
// anything.
func (p *Pages) session(name, title string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		secure(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			view, err := p.accountView(r)
			if err != nil {
				p.cfg.Logger.Error("account page", "page", name, "err", err.Error())
				w.Header().Set("Content-Type", "text/plain; charset=utf-8")
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = w.Write([]byte("internal error\n"))
				return
			}
			p.render(w, name, page{Title: title, Page: name, MaxUploadMB: p.cfg.MaxUploadMB, MailOutbox: p.cfg.MailOutbox, Data: view})
		})).ServeHTTP(w, r)
	}
}

func (p *Pages) accountView(r *http.Request) (accountView, error) {
	var v accountView
	if p.cfg.Accounts == nil {
		return v, nil
	}
	cookie := ""
	if c, err := r.Cookie(p.cfg.Cookie); err == nil {
		cookie = c.Value
	}
	a, _, err := p.cfg.Accounts.Authenticate(r.Context(), cookie)
	if errors.Is(err, accounts.ErrNotAuthenticated) {
		// Signed out, the baselines page still says which plan trains.
		v.BaselinePlan = baselinePlan(p.cfg.Accounts.Plans)
		return v, nil
	}
	if err != nil {
		return v, err
	}
	return p.signedIn(r, a)
}

func (p *Pages) signedIn(r *http.Request, a store.Account) (accountView, error) {
	me, err := p.cfg.Accounts.Summary(r.Context(), a)
	if err != nil {
		return accountView{}, err
	}
	u, err := p.cfg.Accounts.Usage(r.Context(), a)
	if err != nil {
		return accountView{}, err
	}
	table := p.cfg.Accounts.Plans
	plan, _ := table.Get(a.Plan)
	v := accountView{SignedIn: true, Me: me, Usage: u, Chart: usageChart(u),
		Billing: p.cfg.BillingEnabled(), Free: a.Plan == plans.Free, UsageLine: usageLine(u),
		Plan: plan, Packs: packRows(table)}
	for _, name := range table.Names() {
		row, _ := table.Get(name)
		v.Plans = append(v.Plans, row)
	}
	v.BaselinePlan = baselinePlan(table)
	return v, nil
}

// baselinePlan is the first plan of the table that trains baselines.
func baselinePlan(t plans.Table) plans.Plan {
	for _, name := range t.Names() {
		if row, _ := t.Get(name); row.Baselines {
			return row
		}
	}
	return plans.Plan{}
}

func packRows(t plans.Table) []plans.Pack {
	var out []plans.Pack
	for _, name := range t.PackNames() {
		k, _ := t.Pack(name)
		out = append(out, k)
	}
	return out
}
