// Package billing sells the paid plans and the prepaid credit packs
// through Stripe (SPEC.md, "Billing" and "Events"; docs/billing.md): it
// opens hosted Checkout Sessions and Billing Portal sessions for a signed-in
// account, and applies the payment processor's signed webhook events to the
// account's plan, subscription and credits in the store.
//
// Fulfilment is gated on payment status; every plan change is an absolute
// state ordered by the event's time, so replays and events delivered out of
// order converge; a credit pack is a delta applied once per checkout
// session. Any storage failure is returned, so the webhook answers 500 and
// Stripe delivers the event again.
package billing

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v76"
	portalsession "github.com/stripe/stripe-go/v76/billingportal/session"
	checkoutsession "github.com/stripe/stripe-go/v76/checkout/session"

	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/ratelimit"
	"github.com/doctrust/doctrust/internal/store"
)

// WebhookRule is the webhook's limiter (DESIGN.md: 600 a minute), one
// window for the whole endpoint, counted once an event's signature holds.
var WebhookRule = ratelimit.Rule{Name: "webhook", Limit: 600, Window: time.Minute}

// requestTimeout bounds each attempt of a call to Stripe; the request's
// context (in Lambda, the invocation's deadline) bounds the call with its
// retry.
const requestTimeout = 10 * time.Second

// Metadata keys set on every Checkout Session (and on the subscription it
// creates), so that the webhook finds the account and what was bought.
const (
	metaAccount   = "account_id"
	metaPlan      = "plan"
	metaPack      = "pack"
	metaDocuments = "documents"
)

// Errors the HTTP layer maps onto its error table.
var (
	// ErrUnavailable: billing is not configured (no secret key, no
	// webhook secret, no public address, or no price for what was asked).
	ErrUnavailable = errors.New("billing: not configured")
	// ErrAlreadyOnPlan: checkout for the plan the account is on.
	ErrAlreadyOnPlan = errors.New("billing: the account is already on this plan")
	// ErrSubscriptionActive: checkout for another plan while a
	// subscription is live; the plan is changed in the billing portal, so
	// the account is never billed twice.
	ErrSubscriptionActive = errors.New("billing: a subscription is active; change plans in the billing portal")
	// ErrFreePlanOnly: credit packs are sold to accounts on Free only.
	ErrFreePlanOnly = errors.New("billing: credit packs are for accounts on the Free plan")
	// ErrNoCustomer: the portal needs a customer, made by a first checkout.
	ErrNoCustomer = errors.New("billing: the account has no billing customer yet")
	// ErrBadSignature: the webhook's Stripe-Signature header is missing,
	// malformed, wrong or stale.
	ErrBadSignature = errors.New("billing: invalid webhook signature")
	// ErrBadEvent: a signed event whose object cannot be read.
	ErrBadEvent = errors.New("billing: unreadable event")
)

// InputError is a request naming no plan or pack we sell (400).
type InputError struct{ Message string }

func (e *InputError) Error() string { return e.Message }

// ProcessorError is Stripe failing or refusing a call (502). It keeps the
// cause for logs; nothing of it reaches a response.
type ProcessorError struct {
	Op  string
	Err error
}

func (e *ProcessorError) Error() string { return "billing: " + e.Op + ": " + e.Err.Error() }
func (e *ProcessorError) Unwrap() error { return e.Err }

// Store is the part of store.Store the webhook reads and writes; store.Store
// documents each method. Both backends satisfy it.
type Store interface {
	Account(ctx context.Context, id string) (store.Account, error)
	SetCustomer(ctx context.Context, accountID, customerID string) error
	ApplyPlan(ctx context.Context, accountID string, st store.PlanState) error
	AddCredits(ctx context.Context, accountID string, n int, grantID string) (store.Balance, error)
	RecordPaymentFailure(ctx context.Context, accountID string, f store.PaymentFailure) error
}

// Config is what the service is built from (the mains read it from the
// environment: internal/config).
type Config struct {
	Store   Store
	Plans   plans.Table // with prices (plans.Table.Configure)
	Limiter *ratelimit.Limiter
	// SecretKey is STRIPE_SECRET_KEY; empty: checkout, credits and portal
	// answer ErrUnavailable.
	SecretKey string
	// WebhookSecret is STRIPE_WEBHOOK_SECRET; empty: the webhook answers
	// ErrUnavailable.
	WebhookSecret string
	// APIBase is STRIPE_API_BASE: another address for Stripe's API
	// (stripe-mock in tests); empty: Stripe itself.
	APIBase string
	// BaseURL is PUBLIC_BASE_URL, where Checkout and the portal send the
	// browser back (to /account).
	BaseURL string
	// HTTPClient carries the calls to Stripe; nil: one with requestTimeout.
	HTTPClient *http.Client
	Logger     *slog.Logger
}

// Service is billing. A nil *Service is billing not configured: every
// method answers ErrUnavailable.
type Service struct {
	cfg      Config
	checkout checkoutsession.Client
	portal   portalsession.Client
}

// New builds the service and its Stripe client.
func New(cfg Config) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: requestTimeout}
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	bc := &stripe.BackendConfig{
		HTTPClient: cfg.HTTPClient,
		// One retry of a failed network call; stripe-go sends an
		// idempotency key with it, so a retried creation is not doubled.
		MaxNetworkRetries: stripe.Int64(1),
		// stripe-go logs to standard error by default; errors reach our
		// log through ProcessorError instead.
		LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull},
	}
	if cfg.APIBase != "" {
		bc.URL = stripe.String(strings.TrimRight(cfg.APIBase, "/"))
	}
	backend := stripe.GetBackendWithConfig(stripe.APIBackend, bc)
	return &Service{
		cfg:      cfg,
		checkout: checkoutsession.Client{B: backend, Key: cfg.SecretKey},
		portal:   portalsession.Client{B: backend, Key: cfg.SecretKey},
	}
}

// sells reports whether sessions can be opened at all.
func (s *Service) sells() bool {
	return s != nil && s.cfg.SecretKey != "" && s.cfg.BaseURL != ""
}

// Available reports whether checkout and the portal can open (the
// dashboard shows its billing buttons only then).
func (s *Service) Available() bool { return s.sells() }

// Checkout opens a hosted Checkout Session in subscription mode for a paid
// plan and returns its URL, for the browser to follow.
func (s *Service) Checkout(ctx context.Context, a store.Account, planName string) (string, error) {
	if !s.sells() {
		return "", ErrUnavailable
	}
	p, err := s.cfg.Plans.Parse(planName)
	if err != nil || !p.Paid {
		return "", &InputError{Message: "plan must be one of " + strings.Join(s.cfg.Plans.PaidNames(), ", ")}
	}
	switch {
	case a.Plan == p.Name:
		return "", ErrAlreadyOnPlan
	case a.Billing.SubscriptionID != "":
		return "", ErrSubscriptionActive
	case p.Price == "":
		return "", ErrUnavailable
	}
	meta := map[string]string{metaAccount: a.ID, metaPlan: p.Name}
	params := s.sessionParams(a, stripe.CheckoutSessionModeSubscription, p.Price, meta)
	// The subscription carries the account too: its later events
	// (renewals, plan changes in the portal, cancellation) name it.
	params.SubscriptionData = &stripe.CheckoutSessionSubscriptionDataParams{Metadata: meta}
	return s.open(ctx, params)
}

// Credits opens a one-time Checkout Session for a credit pack; only an
// account on Free may buy one.
func (s *Service) Credits(ctx context.Context, a store.Account, packName string) (string, error) {
	if !s.sells() {
		return "", ErrUnavailable
	}
	k, ok := s.cfg.Plans.Pack(packName)
	if !ok {
		return "", &InputError{Message: "pack must be one of " + strings.Join(s.cfg.Plans.PackNames(), ", ")}
	}
	switch {
	case a.Plan != plans.Free:
		return "", ErrFreePlanOnly
	case k.Price == "":
		return "", ErrUnavailable
	}
	// The size sold is written down now: a later change of configuration
	// does not change what this purchase grants.
	meta := map[string]string{metaAccount: a.ID, metaPack: k.Name, metaDocuments: strconv.Itoa(k.Documents)}
	params := s.sessionParams(a, stripe.CheckoutSessionModePayment, k.Price, meta)
	if a.Billing.CustomerID == "" {
		// A one-time payment makes no customer unless asked; the portal
		// (receipts, payment methods) needs one.
		params.CustomerCreation = stripe.String(string(stripe.CheckoutSessionCustomerCreationAlways))
	}
	return s.open(ctx, params)
}

func (s *Service) sessionParams(a store.Account, mode stripe.CheckoutSessionMode, price string, meta map[string]string) *stripe.CheckoutSessionParams {
	params := &stripe.CheckoutSessionParams{
		Mode:              stripe.String(string(mode)),
		LineItems:         []*stripe.CheckoutSessionLineItemParams{{Price: stripe.String(price), Quantity: stripe.Int64(1)}},
		ClientReferenceID: stripe.String(a.ID),
		// Stripe fills in {CHECKOUT_SESSION_ID}; it must stay unescaped.
		SuccessURL: stripe.String(s.cfg.BaseURL + "/account?checkout=success&session={CHECKOUT_SESSION_ID}"),
		CancelURL:  stripe.String(s.cfg.BaseURL + "/account?checkout=cancelled"),
		Metadata:   meta,
	}
	if a.Billing.CustomerID != "" {
		params.Customer = stripe.String(a.Billing.CustomerID)
	} else {
		params.CustomerEmail = stripe.String(a.Email)
	}
	return params
}

func (s *Service) open(ctx context.Context, params *stripe.CheckoutSessionParams) (string, error) {
	params.Context = ctx
	sess, err := s.checkout.New(params)
	if err != nil {
		return "", s.processorError("checkout session", err)
	}
	if sess.URL == "" {
		return "", s.processorError("checkout session", errors.New("no url in the answer"))
	}
	return sess.URL, nil
}

// Portal opens a Billing Portal session for the account's customer.
func (s *Service) Portal(ctx context.Context, a store.Account) (string, error) {
	if !s.sells() {
		return "", ErrUnavailable
	}
	if a.Billing.CustomerID == "" {
		return "", ErrNoCustomer
	}
	params := &stripe.BillingPortalSessionParams{
		Customer:  stripe.String(a.Billing.CustomerID),
		ReturnURL: stripe.String(s.cfg.BaseURL + "/account"),
	}
	params.Context = ctx
	sess, err := s.portal.New(params)
	if err != nil {
		return "", s.processorError("portal session", err)
	}
	if sess.URL == "" {
		return "", s.processorError("portal session", errors.New("no url in the answer"))
	}
	return sess.URL, nil
}

// processorError logs what Stripe said (its error type and code, never its
// message, which may quote a parameter such as an email address) and wraps
// it as a 502.
func (s *Service) processorError(op string, err error) error {
	attrs := []any{"op", op}
	var se *stripe.Error
	if errors.As(err, &se) {
		attrs = append(attrs, "status", se.HTTPStatusCode, "type", string(se.Type), "code", string(se.Code),
			"param", se.Param, "requestId", se.RequestID)
	} else {
		attrs = append(attrs, "err", err.Error())
	}
	s.cfg.Logger.Error("payment processor error", attrs...)
	return &ProcessorError{Op: op, Err: err}
}
