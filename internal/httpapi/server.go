// Package httpapi is the HTTP layer every deployment shares: `doctrust
// serve` locally and each Lambda function behind API Gateway. Handlers are
// thin: they parse the request, call the analysis pipeline, and map errors
// through the one error table (errors.go).
package httpapi

import (
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/internal/accounts"
	"github.com/doctrust/doctrust/internal/analysis"
	"github.com/doctrust/doctrust/internal/baselines"
	"github.com/doctrust/doctrust/internal/billing"
	"github.com/doctrust/doctrust/internal/ledger"
	"github.com/doctrust/doctrust/internal/metering"
	"github.com/doctrust/doctrust/internal/pool"
	"github.com/doctrust/doctrust/internal/ratelimit"
	"github.com/doctrust/doctrust/internal/web"
	"github.com/doctrust/doctrust/internal/webhook"
)

// SmallBodyLimit is the body cap of every non-upload route (SPEC.md).
const SmallBodyLimit = 65536

// exposedHeaders: the quota headers are readable by allowed browser origins (SPEC.md).
const exposedHeaders = "x-quota-limit, x-quota-used, x-quota-remaining, x-quota-ceiling, x-quota-state, x-quota-credits, " +
	"RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After"

// Config is what the server needs; the mains build it from the environment.
type Config struct {
	Pipeline *analysis.Pipeline
	Pool     *pool.Pool
	Meter    *metering.Meter
	// Accounts serves the account and session routes.
	Accounts *accounts.Service
	// Billing serves the billing routes; nil answers 503 billing_unavailable.
	Billing *billing.Service
	// BillingOffered shows the dashboard's billing buttons in a process
	// that does not itself hold the Stripe secret (the accounts function;
	// BILLING_ENABLED). Where Billing can sell, they show anyway.
	BillingOffered bool
	// Ledger serves the supplier ledger; nil answers 503.
	Ledger *ledger.Ledger
	// Webhooks sets the ledger's alert webhook and delivers its events;
	// nil answers the webhook routes 503 like the ledger's.
	Webhooks *webhook.Service
	// IngestSecret authenticates the email worker (INGEST_SECRET); empty
	// answers 503 on the ingest route.
	IngestSecret string
	// IngestMailDomain is the domain of ingest aliases (INGEST_MAIL_DOMAIN);
	// when set, a recipient of another domain is unknown.
	IngestMailDomain string
	// Baselines serves the baseline routes and resolves /inspect's issuer;
	// nil answers the routes 503 busy and resolves no issuer.
	Baselines *baselines.Service
	// CookieSecure marks the session cookie Secure (everywhere but a
	// local http address).
	CookieSecure bool
	// Limiter runs the per-route rate limits (receipt verification).
	Limiter *ratelimit.Limiter
	// TrustedProxyHops: how many proxies in front append to
	// X-Forwarded-For (0: the peer address is the client).
	TrustedProxyHops int
	// BodyReadTimeout bounds the reading of an upload (0: DefaultBodyReadTimeout).
	BodyReadTimeout time.Duration
	// MinUploadRate (bytes per second, 0: DefaultMinUploadRate) is the
	// slowest average an upload may keep once UploadGrace (0:
	// DefaultUploadGrace) has passed; slower is 408 (slowbody.go).
	MinUploadRate int
	UploadGrace   time.Duration
	// ReadsPerClient (0: DefaultReadsPerClient) is how many bodies one
	// anonymous address or one key may have being read at once; more is
	// 429 at once.
	ReadsPerClient int
	MaxUploadMB    int      // default 10
	AllowedOrigins []string // browser origins allowed besides the service's own
	PublicBaseURL  string
	// MailOutbox is the folder mail is written to instead of being sent
	// (empty: SES); the dashboard says so where it mentions a mailed link.
	MailOutbox string
	Logger     *slog.Logger
}

// Server is the API's http.Handler.
type Server struct {
	cfg Config
	// budget bounds the upload bytes held by requests in flight: one
	// upload at the cap for every place of the pool (SPEC.md's busy).
	budget *pool.Budget
	// reads bounds the bodies being read per client (slowbody.go).
	reads   *readGate
	mux     *http.ServeMux
	origins map[string]bool // canonical scheme://host:port
	// publicHost is PUBLIC_BASE_URL's host:port; when set, a request's
	// Host must name it for the same-host origin rule to apply.
	publicHost string
	// hsts: PUBLIC_BASE_URL is https, so browsers are told to keep to it.
	hsts bool
}

// New builds the handler with every route of this engine version.
func New(cfg Config) *Server {
	if cfg.MaxUploadMB <= 0 {
		cfg.MaxUploadMB = 10
	}
	if cfg.Pool == nil {
		cfg.Pool = pool.New(2, 16)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.BodyReadTimeout <= 0 {
		cfg.BodyReadTimeout = DefaultBodyReadTimeout
	}
	if cfg.MinUploadRate <= 0 {
		cfg.MinUploadRate = DefaultMinUploadRate
	}
	if cfg.UploadGrace <= 0 {
		cfg.UploadGrace = DefaultUploadGrace
	}
	if cfg.ReadsPerClient <= 0 {
		cfg.ReadsPerClient = DefaultReadsPerClient
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux(), origins: map[string]bool{},
		reads: &readGate{max: cfg.ReadsPerClient, busy: map[string]int{}}}
	s.budget = pool.NewBudget(int64(cfg.Pool.Places()) * (s.uploadCap() + multipartSlack))
	for _, o := range cfg.AllowedOrigins {
		if c, ok := canonicalOrigin(o); ok {
			s.origins[c] = true
		}
	}
	if c, ok := canonicalOrigin(cfg.PublicBaseURL); ok {
		s.origins[c] = true
		s.publicHost = c[strings.Index(c, "://")+3:]
		s.hsts = strings.HasPrefix(c, "https://")
	}
	s.mux.HandleFunc("GET /api/v1/health", s.health)
	s.mux.HandleFunc("GET /api/v1/openapi.json", s.openAPI)
	s.mux.HandleFunc("POST /api/v1/inspect", s.inspect)
	s.mux.HandleFunc("POST /api/v1/metadata", s.metadata)
	s.mux.HandleFunc("POST /api/v1/compare", s.compare)
	s.mux.HandleFunc("POST /api/v1/receipt/verify", s.verifyReceipt)
	s.accountRoutes()
	s.billingRoutes()
	web.New(web.Config{Accounts: cfg.Accounts, Cookie: SessionCookie, BillingEnabled: func() bool { return cfg.BillingOffered || cfg.Billing.Available() },
		MaxUploadMB: cfg.MaxUploadMB, Baselines: cfg.Baselines, AnonPerHour: anonPerHour(cfg.Meter), MailOutbox: cfg.MailOutbox, Logger: cfg.Logger}).Register(s.mux)
	s.ledgerRoutes()
	s.baselineRoutes()
	s.mux.HandleFunc("/", s.noRoute)
	return s
}

// routeMethods are the methods probed for a 405's Allow list.
var routeMethods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"}

// noRoute answers what no route serves: 405 method_not_allowed with an
// Allow list when the path is served under other methods (docs/api.md),
// else 404. This catch-all matches every method, so ServeMux's own 405
// never fires; it was found answering 404 to TRACE on /api/v1/inspect.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range routeMethods {
		probe := *r
		probe.Method = m
		if _, pattern := s.mux.Handler(&probe); pattern != "/" {
			allow = append(allow, m)
		}
	}
	if len(allow) == 0 {
		writeError(w, E(NotFound))
		return
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	writeError(w, E(MethodNotAllowed))
}

// bodyLimits are the routes whose body cap is not SmallBodyLimit: upload
// routes (0: capped by MAX_UPLOAD_MB while streaming) and receipt
// verification, whose body is a whole report.
var bodyLimits = map[string]int64{
	"/api/v1/inspect":        0,
	"/api/v1/metadata":       0,
	"/api/v1/compare":        0,
	"/api/v1/baselines":      0,
	"/api/v1/receipt/verify": VerifyBodyLimit,
	"/api/v1/ingest/email":   IngestBodyLimit,
}

// ServeHTTP applies the middleware every route shares: panic containment,
// the browser-origin rule, CORS, the small-body cap and the request log.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	defer func() {
		if p := recover(); p != nil {
			// The panic value is not logged: it may quote request bytes.
			if !rec.wrote {
				writeError(rec, E(Internal))
			}
			s.cfg.Logger.Error("handler panic", "route", routeOf(r))
		}
		// Method, route, status, size and duration only: never a body,
		// a query value, a header value or a filename.
		s.cfg.Logger.Info("request", "method", r.Method, "route", routeOf(r), "status", rec.status,
			"bytes", rec.bytes, "ms", time.Since(start).Milliseconds())
	}()
	s.securityHeaders(rec.Header(), r)
	if origin := r.Header.Get("Origin"); origin != "" && !s.originAllowed(origin, r) ||
		origin == "" && strings.EqualFold(r.Header.Get("Sec-Fetch-Site"), "cross-site") {
		// A browser that says the request is cross-site but sends no
		// Origin (some navigations and no-cors fetches) is refused too.
		writeError(rec, E(OriginNotAllowed))
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		h := rec.Header()
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Vary", "Origin")
		h.Set("Access-Control-Expose-Headers", exposedHeaders)
		if r.Method == http.MethodOptions {
			h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Service-Issuer, X-Service-Policy")
			h.Set("Access-Control-Max-Age", "600")
			rec.WriteHeader(http.StatusNoContent)
			return
		}
	}
	limit, special := bodyLimits[r.URL.Path]
	if !special {
		limit = SmallBodyLimit
	}
	if limit > 0 {
		if r.ContentLength > limit {
			writeError(rec, E(BodyTooLarge, "maxBytes", limit))
			return
		}
		r.Body = http.MaxBytesReader(rec, r.Body, limit)
	}
	s.mux.ServeHTTP(rec, r)
}

// publicRoutes are the API answers that carry nothing of a caller: they
// may be cached. Every other API answer may carry a key (signup,
// rotation), session state, account data or a report, and is no-store.
var publicRoutes = map[string]bool{"/api/v1/health": true, "/api/v1/openapi.json": true}

// securityHeaders: HSTS when the service's public address is https (a
// local http run must not pin its host to https), and no-store on every
// API answer but the public ones. A handler may still set its own
// Cache-Control (the OpenAPI description's).
func (s *Server) securityHeaders(h http.Header, r *http.Request) {
	if s.hsts {
		h.Set("Strict-Transport-Security", "max-age=31536000")
	}
	if strings.HasPrefix(r.URL.Path, "/api/") && !publicRoutes[r.URL.Path] {
		h.Set("Cache-Control", "no-store")
	}
}

// originAllowed: PUBLIC_BASE_URL's origin and ALLOWED_ORIGINS, compared
// by scheme, host and port (default ports made explicit, case folded).
// Without a public base URL (a local run) the request's own origin is
// allowed too: the Origin's host and port equal the Host header and its
// scheme is the connection's. With one, the Host header must name the
// public host for that rule, so a forged Host cannot vouch for itself.
func (s *Server) originAllowed(origin string, r *http.Request) bool {
	c, ok := canonicalOrigin(origin)
	if !ok {
		return false
	}
	if s.origins[c] {
		return true
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	self, ok := canonicalOrigin(scheme + "://" + r.Host)
	if !ok || self != c {
		return false
	}
	return s.publicHost == "" || self[strings.Index(self, "://")+3:] == s.publicHost
}

// canonicalOrigin is scheme://host:port in lower case with the scheme's
// default port written out; ok is false for anything but an http(s)
// origin with a host.
func canonicalOrigin(raw string) (string, bool) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(raw), "/"))
	if err != nil || u.Host == "" || u.User != nil {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	switch {
	case scheme != "http" && scheme != "https":
		return "", false
	case port == "" && scheme == "http":
		port = "80"
	case port == "":
		port = "443"
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port), true
}

// CookieSecureFor says whether the session cookie must be Secure for a
// service reached at baseURL: everywhere but a plain-http loopback
// address, where browsers would refuse to store a Secure cookie.
func CookieSecureFor(baseURL string) bool {
	u, err := url.Parse(baseURL)
	if err != nil || !strings.EqualFold(u.Scheme, "http") {
		return true
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return false
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback()
}

func routeOf(r *http.Request) string {
	if r.Pattern != "" {
		return r.Pattern
	}
	return "unmatched"
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "engineVersion": report.EngineVersion})
}

// recorder remembers the status and size for the request log.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int
	wrote  bool
}

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the connection (read deadlines).
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

// anonPerHour is the anonymous allowance the dashboard states.
func anonPerHour(m *metering.Meter) int {
	if m == nil {
		return 0
	}
	return m.AnonPerHour
}
