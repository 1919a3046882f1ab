package billing

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/store"
)

// The events handled (SPEC.md, "Events"); any other answers 200 and
// changes nothing.
const (
	EventCheckoutCompleted     = "checkout.session.completed"
	EventAsyncPaymentSucceeded = "checkout.session.async_payment_succeeded"
	EventAsyncPaymentFailed    = "checkout.session.async_payment_failed"
	EventSubscriptionUpdated   = "customer.subscription.updated"
	EventSubscriptionDeleted   = "customer.subscription.deleted"
)

// maxPackDocuments bounds the size a credit pack's metadata may grant.
const maxPackDocuments = 10_000_000

// Webhook verifies one delivery (payload and its Stripe-Signature header)
// and applies its event. It returns ErrBadSignature for a bad or stale
// signature, *ratelimit.Exceeded past the limiter, a storage error when
// the event could not be applied (Stripe will deliver it again), and nil
// when the event was applied, was a replay, was older than what the
// account holds, or is one that changes nothing.
func (s *Service) Webhook(ctx context.Context, payload []byte, signature string) error {
	if s == nil || s.cfg.WebhookSecret == "" {
		return ErrUnavailable
	}
	if webhook.ValidatePayload(payload, signature, s.cfg.WebhookSecret) != nil {
		return ErrBadSignature
	}
	// Decoded here rather than by webhook.ConstructEvent, which refuses an
	// event rendered in another API version than v76's 2023-10-16. The
	// handlers read only fields every version since has kept (the period,
	// which 2025-03-31 moved onto the items, is read in both places), so an
	// endpoint on a newer version still works.
	var ev stripe.Event
	if json.Unmarshal(payload, &ev) != nil {
		return ErrBadEvent
	}
	// Counted only once the signature holds: forged requests cost an HMAC,
	// never a store write.
	if err := s.cfg.Limiter.Allow(ctx, WebhookRule, "stripe"); err != nil {
		return err
	}
	log := s.cfg.Logger.With("event", ev.ID, "type", string(ev.Type))
	var (
		outcome string
		err     error
	)
	switch ev.Type {
	case EventCheckoutCompleted, EventAsyncPaymentSucceeded:
		outcome, err = s.fulfil(ctx, ev)
	case EventAsyncPaymentFailed:
		outcome, err = s.paymentFailed(ctx, ev)
	case EventSubscriptionUpdated, EventSubscriptionDeleted:
		outcome, err = s.subscriptionChanged(ctx, ev)
	default:
		outcome = "not handled"
	}
	if err != nil {
		log.Error("billing event failed", "err", err.Error())
		return err
	}
	log.Info("billing event", "outcome", outcome)
	return nil
}

// version orders plan states by the event's creation time (seconds); at
// the same second the end of a subscription outranks any other state, so
// a deletion is never undone by an update of the same instant.
func version(ev stripe.Event, terminal bool) int64 {
	v := ev.Created * 2
	if terminal {
		v++
	}
	return v
}

func decode(ev stripe.Event, v any) error {
	if ev.Data == nil || len(ev.Data.Raw) == 0 || json.Unmarshal(ev.Data.Raw, v) != nil {
		return ErrBadEvent
	}
	return nil
}

// ignorable reports the store's answers that mean "nothing to do" for an
// event: the account is not ours (or gone), or the account already holds
// something newer.
func ignorable(err error) (string, bool) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return "ignored: unknown account", true
	case errors.Is(err, store.ErrRefused):
		return "ignored: superseded (an older event, or the end of a replaced subscription)", true
	}
	return "", false
}

func sessionAccount(cs *stripe.CheckoutSession) string {
	if cs.ClientReferenceID != "" {
		return cs.ClientReferenceID
	}
	return cs.Metadata[metaAccount]
}

// fulfil handles checkout.session.completed and async_payment_succeeded:
// the customer is recorded either way; the purchase is granted only once
// the session says it is paid, so a delayed method (its completed event
// says unpaid) is fulfilled by async_payment_succeeded.
func (s *Service) fulfil(ctx context.Context, ev stripe.Event) (string, error) {
	var cs stripe.CheckoutSession
	if err := decode(ev, &cs); err != nil {
		return "", err
	}
	acct := sessionAccount(&cs)
	if acct == "" {
		return "ignored: no account named", nil
	}
	if cs.Customer != nil && cs.Customer.ID != "" {
		if err := s.cfg.Store.SetCustomer(ctx, acct, cs.Customer.ID); err != nil {
			if outcome, ok := ignorable(err); ok {
				return outcome, nil
			}
			return "", err
		}
	}
	switch cs.PaymentStatus {
	case stripe.CheckoutSessionPaymentStatusPaid, stripe.CheckoutSessionPaymentStatusNoPaymentRequired:
	default:
		return "awaiting payment", nil
	}
	var err error
	outcome := "applied"
	switch cs.Mode {
	case stripe.CheckoutSessionModeSubscription:
		outcome, err = s.subscribe(ctx, ev, &cs, acct)
	case stripe.CheckoutSessionModePayment:
		outcome, err = s.grantCredits(ctx, &cs, acct)
	default:
		return "ignored: mode " + string(cs.Mode), nil
	}
	if o, ok := ignorable(err); ok {
		return o, nil
	}
	return outcome, err
}

// subscribe assigns the plan bought, as an absolute state. When the
// account already records this subscription, its own events have said
// more than the session can (the period, a plan changed in the portal
// while a delayed payment was pending), so the session adds nothing.
func (s *Service) subscribe(ctx context.Context, ev stripe.Event, cs *stripe.CheckoutSession, acct string) (string, error) {
	p, err := s.cfg.Plans.Parse(cs.Metadata[metaPlan])
	if err != nil || !p.Paid || cs.Subscription == nil || cs.Subscription.ID == "" {
		return "ignored: the session names no paid plan or subscription", nil
	}
	a, err := s.cfg.Store.Account(ctx, acct)
	if err != nil {
		return "", err
	}
	if a.Billing.SubscriptionID == cs.Subscription.ID {
		return "subscription recorded already", nil
	}
	st := store.PlanState{Plan: p.Name, SubscriptionID: cs.Subscription.ID, Version: version(ev, false)}
	return "plan " + p.Name, s.cfg.Store.ApplyPlan(ctx, acct, st)
}

// grantCredits adds the pack's documents once per checkout session: a
// replay finds the grant applied and adds nothing.
func (s *Service) grantCredits(ctx context.Context, cs *stripe.CheckoutSession, acct string) (string, error) {
	n, err := strconv.Atoi(cs.Metadata[metaDocuments])
	if err != nil || n < 1 || n > maxPackDocuments {
		k, ok := s.cfg.Plans.Pack(cs.Metadata[metaPack])
		if !ok {
			return "ignored: the session names no credit pack", nil
		}
		n = k.Documents
	}
	_, err = s.cfg.Store.AddCredits(ctx, acct, n, cs.ID)
	if errors.Is(err, store.ErrConflict) {
		return "replay: credits granted already", nil
	}
	return strconv.Itoa(n) + " credits", err
}

// paymentFailed records a delayed payment's failure and leaves the plan.
func (s *Service) paymentFailed(ctx context.Context, ev stripe.Event) (string, error) {
	var cs stripe.CheckoutSession
	if err := decode(ev, &cs); err != nil {
		return "", err
	}
	acct := sessionAccount(&cs)
	if acct == "" {
		return "ignored: no account named", nil
	}
	err := s.cfg.Store.RecordPaymentFailure(ctx, acct, store.PaymentFailure{At: time.Unix(ev.Created, 0).UTC(), Ref: cs.ID})
	if o, ok := ignorable(err); ok {
		return o, nil
	}
	return "payment failure recorded", err
}

// subscriptionChanged maps a subscription's state onto the account:
// active, trialing or past due (Stripe still retrying) holds the plan its
// price is sold as; unpaid or paused keeps the subscription on the Free
// quota until it is paid; canceled (and every deletion) returns the
// account to Free, unless another subscription has replaced this one.
// An incomplete subscription (first payment pending) changes nothing.
func (s *Service) subscriptionChanged(ctx context.Context, ev stripe.Event) (string, error) {
	var sub stripe.Subscription
	if err := decode(ev, &sub); err != nil {
		return "", err
	}
	acct := sub.Metadata[metaAccount]
	if acct == "" || sub.ID == "" {
		return "ignored: no account named", nil
	}
	var st store.PlanState
	switch {
	case ev.Type == EventSubscriptionDeleted || sub.Status == stripe.SubscriptionStatusCanceled ||
		sub.Status == stripe.SubscriptionStatusIncompleteExpired:
		st = store.PlanState{Plan: plans.Free, Version: version(ev, true), IfSubscription: sub.ID}
	case sub.Status == stripe.SubscriptionStatusActive || sub.Status == stripe.SubscriptionStatusTrialing ||
		sub.Status == stripe.SubscriptionStatusPastDue:
		p, ok := s.planOf(&sub)
		if !ok {
			s.cfg.Logger.Error("billing: subscription price sold as no plan; set the STRIPE_PRICE_* variables", "subscription", sub.ID)
			return "ignored: price of no plan", nil
		}
		st = store.PlanState{Plan: p.Name, SubscriptionID: sub.ID, Version: version(ev, false)}
	case sub.Status == stripe.SubscriptionStatusUnpaid || sub.Status == stripe.SubscriptionStatusPaused:
		st = store.PlanState{Plan: plans.Free, SubscriptionID: sub.ID, Version: version(ev, false)}
	default:
		return "ignored: status " + string(sub.Status), nil
	}
	if st.SubscriptionID != "" {
		st.PeriodStart, st.PeriodEnd = period(&sub, ev.Data.Raw)
	}
	err := s.cfg.Store.ApplyPlan(ctx, acct, st)
	if o, ok := ignorable(err); ok {
		return o, nil
	}
	return "plan " + st.Plan, err
}

// planOf is the plan sold at the first of the subscription's prices that
// sells one.
func (s *Service) planOf(sub *stripe.Subscription) (plans.Plan, bool) {
	if sub.Items == nil {
		return plans.Plan{}, false
	}
	for _, it := range sub.Items.Data {
		if it != nil && it.Price != nil {
			if p, ok := s.cfg.Plans.ByPrice(it.Price.ID); ok {
				return p, true
			}
		}
	}
	return plans.Plan{}, false
}

// period is the subscription's current period: on the subscription up to
// API version 2025-03-31, on its items from then on.
func period(sub *stripe.Subscription, raw json.RawMessage) (time.Time, time.Time) {
	start, end := sub.CurrentPeriodStart, sub.CurrentPeriodEnd
	if end == 0 {
		var items struct {
			Items struct {
				Data []struct {
					Start int64 `json:"current_period_start"`
					End   int64 `json:"current_period_end"`
				} `json:"data"`
			} `json:"items"`
		}
		if json.Unmarshal(raw, &items) == nil && len(items.Items.Data) > 0 {
			start, end = items.Items.Data[0].Start, items.Items.Data[0].End
		}
	}
	if end == 0 {
		return time.Time{}, time.Time{}
	}
	return time.Unix(start, 0).UTC(), time.Unix(end, 0).UTC()
}
