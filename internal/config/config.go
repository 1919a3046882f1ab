// Package config reads the environment of the local-run contract
// (DESIGN.md) into the HTTP layer's configuration. `doctrust serve`, the
// CLI and every Lambda function build from here, so all deployments read
// the same variables the same way.
package config

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/doctrust/doctrust/internal/accounts"
	"github.com/doctrust/doctrust/internal/analysis"
	"github.com/doctrust/doctrust/internal/baselines"
	"github.com/doctrust/doctrust/internal/billing"
	"github.com/doctrust/doctrust/internal/httpapi"
	"github.com/doctrust/doctrust/internal/ledger"
	"github.com/doctrust/doctrust/internal/mail"
	"github.com/doctrust/doctrust/internal/metering"
	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/pool"
	"github.com/doctrust/doctrust/internal/ratelimit"
	"github.com/doctrust/doctrust/internal/receiptkey"
	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/webhook"
)

// Mode says where the service runs.
type Mode int

const (
	Local  Mode = iota // doctrust serve and the CLI: embedded store by default
	Lambda             // AWS: DynamoDB, one request at a time per instance
)

// Service is everything a process serving the API builds from the
// environment. Close releases the store.
type Service struct {
	HTTP  httpapi.Config
	Store store.Store
	// MailOutbox is the absolute folder mail is written to, or empty when
	// mail goes through SES or nowhere.
	MailOutbox string
}

// mailEnv: locally, with neither MAIL_OUTBOX nor MAIL_FROM set, mail goes
// to DATA_DIR/outbox, so sign-up and password reset work under `make run`
// with the links found on disk. Lambda never defaults: there mail is SES.
func mailEnv(mode Mode, getenv func(string) string) func(string) string {
	if mode != Local || getenv("MAIL_OUTBOX") != "" || getenv("MAIL_FROM") != "" {
		return getenv
	}
	outbox := filepath.Join(DataDir(getenv), "outbox")
	return func(k string) string {
		if k == "MAIL_OUTBOX" {
			return outbox
		}
		return getenv(k)
	}
}

// Close releases what the service holds.
func (s *Service) Close() error { return s.Store.Close() }

// Plans reads the plan table: BUSINESS_QUOTA sets the business quota,
// and the variables the table names set its prices and pack sizes.
func Plans(getenv func(string) string) plans.Table {
	return plans.New(Int(getenv, "BUSINESS_QUOTA", plans.DefaultBusinessQuota)).
		Configure(getenv, func(name string, def int) int { return Int(getenv, name, def) })
}

// Secret is the receipt secret: RECEIPT_SECRET, or the one generated into st.
func Secret(ctx context.Context, getenv func(string) string, st receiptkey.Store) ([]byte, error) {
	secret, err := receiptkey.Load(ctx, getenv("RECEIPT_SECRET"), st)
	if err != nil {
		return nil, fmt.Errorf("config: receipt secret: %w", err)
	}
	return secret, nil
}

// Server builds the service from getenv; logs go to logTo.
func Server(ctx context.Context, mode Mode, getenv func(string) string, logTo io.Writer) (*Service, error) {
	if err := Check(getenv); err != nil {
		return nil, err
	}
	st, err := OpenStore(ctx, mode, getenv)
	if err != nil {
		return nil, err
	}
	secret, err := Secret(ctx, getenv, st)
	if err != nil {
		st.Close()
		return nil, err
	}
	var origins []string
	for _, o := range strings.Split(getenv("ALLOWED_ORIGINS"), ",") {
		if o = strings.TrimSpace(o); o != "" {
			origins = append(origins, o)
		}
	}
	sender, err := mail.FromEnv(ctx, mailEnv(mode, getenv))
	if err != nil && !errors.Is(err, mail.ErrNotConfigured) {
		st.Close()
		return nil, fmt.Errorf("config: mail: %w", err)
	}
	var outbox string
	if o, ok := sender.(*mail.Outbox); ok {
		outbox, _ = filepath.Abs(o.Dir)
	}
	baseURL := getenv("PUBLIC_BASE_URL")
	if baseURL == "" && mode == Local {
		baseURL = "http://127.0.0.1:" + strconv.Itoa(Int(getenv, "PORT", 8080))
	}
	limiter := &ratelimit.Limiter{Store: st}
	logger := slog.New(slog.NewJSONHandler(logTo, nil))
	planTable := Plans(getenv)
	workers, queue := Int(getenv, "WORKERS", 2), NonNegInt(getenv, "QUEUE", 16)
	if mode == Lambda {
		// One request at a time per Lambda instance; concurrency is
		// Lambda's own scaling.
		workers, queue = 1, 0
	}
	// Receivers on this machine or its network are allowed only where the
	// whole service is a local one: `doctrust serve` answering on a plain
	// http loopback address (the same test as the session cookie's).
	// Anywhere else a delivery reaches public addresses only (SSRF).
	hooks := &webhook.Service{Store: st, Local: mode == Local && !httpapi.CookieSecureFor(baseURL), Logger: logger}
	return &Service{Store: st, MailOutbox: outbox, HTTP: httpapi.Config{
		Pipeline:         &analysis.Pipeline{Secret: secret},
		Pool:             pool.New(workers, queue),
		Meter:            &metering.Meter{Store: st, Plans: planTable, AnonPerHour: Int(getenv, "ANON_LIMIT_PER_HOUR", metering.DefaultAnonPerHour)},
		Limiter:          limiter,
		Ledger:           &ledger.Ledger{Store: st, NewID: func() string { return "alert_" + uuid.NewString() }, Webhooks: hooks},
		Webhooks:         hooks,
		IngestSecret:     getenv("INGEST_SECRET"),
		IngestMailDomain: getenv("INGEST_MAIL_DOMAIN"),
		Accounts:         &accounts.Service{Store: st, Plans: planTable, Limiter: limiter, Mail: sender, BaseURL: baseURL, Logger: logger},
		Baselines:        &baselines.Service{Store: st, Plans: planTable, Limiter: limiter, BuiltIn: baselines.BuiltIn()},
		Billing: billing.New(billing.Config{Store: st, Plans: planTable, Limiter: limiter,
			SecretKey: getenv("STRIPE_SECRET_KEY"), WebhookSecret: getenv("STRIPE_WEBHOOK_SECRET"),
			APIBase: getenv("STRIPE_API_BASE"), BaseURL: baseURL, Logger: logger}),
		BillingOffered: getenv("BILLING_ENABLED") == "true",
		// Only a plain-http loopback address may carry the cookie without Secure.
		CookieSecure:     mode == Lambda || httpapi.CookieSecureFor(baseURL),
		TrustedProxyHops: NonNegInt(getenv, "TRUSTED_PROXY_HOPS", 0),
		MaxUploadMB:      Int(getenv, "MAX_UPLOAD_MB", 10),
		AllowedOrigins:   origins,
		PublicBaseURL:    getenv("PUBLIC_BASE_URL"),
		MailOutbox:       outbox,
		Logger:           logger,
	}}, nil
}

// Int reads a positive integer variable, or def (Check refuses a value
// that is set but not one).
func Int(getenv func(string) string, name string, def int) int {
	if v, err := strconv.Atoi(strings.TrimSpace(getenv(name))); err == nil && v > 0 {
		return v
	}
	return def
}

// NonNegInt reads an integer variable that may be 0, or def.
func NonNegInt(getenv func(string) string, name string, def int) int {
	if v, err := strconv.Atoi(strings.TrimSpace(getenv(name))); err == nil && v >= 0 {
		return v
	}
	return def
}
