package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/google/uuid"

	"github.com/doctrust/doctrust/internal/store"
)

const (
	// Timeout bounds one attempt, connection to last header.
	Timeout = 5 * time.Second
	// Lifetime bounds a delivery's retries; the schedule below ends
	// well inside it, so it is a backstop for a sweep that stopped.
	Lifetime = 24 * time.Hour
	// claimLease is how long an attempt holds its row before another
	// sweep may take it: past Timeout and the writes around it.
	claimLease = time.Minute
	// bodyRead is how much of a receiver's answer is read (then dropped),
	// so a connection can be reused and a huge body costs nothing.
	bodyRead = 4 << 10
	// sweepBatch and sweepParallel bound one sweep's work.
	sweepBatch    = 50
	sweepParallel = 4
)

// Backoff is the wait before each retry: after the first failed attempt
// 1 minute, then 5 minutes, 30 minutes, 2 hours and 8 hours; the sixth
// failed attempt gives the event up.
var Backoff = []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 8 * time.Hour}

// MaxAttempts is how many times an event is tried.
var MaxAttempts = len(Backoff) + 1

// FirstDue is when the sweep may first take a delivery written at now:
// the attempt made right after intake has it until then.
func FirstDue(now time.Time) time.Time { return now.Add(Backoff[0]) }

// Store is the part of store.Store webhooks use; store.Store documents
// each method.
type Store interface {
	PutWebhook(ctx context.Context, w store.Webhook) error
	Webhook(ctx context.Context, accountID string) (store.Webhook, error)
	DeleteWebhook(ctx context.Context, accountID string) error
	RecordDelivery(ctx context.Context, accountID, webhookID string, o store.DeliveryOutcome) error
	DueDeliveries(ctx context.Context, now time.Time, limit int) ([]store.Delivery, error)
	SaveDelivery(ctx context.Context, d store.Delivery) error
	DeleteDelivery(ctx context.Context, d store.Delivery) error
}

// Service sets webhooks and delivers their events.
type Service struct {
	Store Store
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Local allows http:// URLs and private, loopback and link-local
	// addresses: `doctrust serve` on a loopback address and tests, where
	// the receiver is on the same machine. Never on AWS.
	Local bool
	// Client posts the events; nil builds one that refuses non-public
	// addresses unless Local, follows no redirect and times out after
	// Timeout.
	Client *http.Client
	Logger *slog.Logger

	once   sync.Once
	client *http.Client
}

// Set checks rawURL and stores it with a fresh secret, replacing any
// webhook the account had; the returned webhook carries the secret, which
// is shown this once.
func (s *Service) Set(ctx context.Context, accountID, rawURL string) (store.Webhook, error) {
	u, err := CheckURL(rawURL, s.Local)
	if err != nil {
		return store.Webhook{}, err
	}
	w := store.Webhook{AccountID: accountID, ID: "wh_" + uuid.NewString(), URL: u, Secret: NewSecret(), Created: s.now().UTC()}
	if err := s.Store.PutWebhook(ctx, w); err != nil {
		return store.Webhook{}, err
	}
	return w, nil
}

// Remove removes the account's webhook; pending events are dropped when
// next attempted.
func (s *Service) Remove(ctx context.Context, accountID string) error {
	return s.Store.DeleteWebhook(ctx, accountID)
}

func (s *Service) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

func (s *Service) logger() *slog.Logger {
	if s.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return s.Logger
}

// errRefusedAddress is a connection to an address deliveries may not
// reach.
var errRefusedAddress = errors.New("the address is not public")

func (s *Service) httpClient() *http.Client {
	if s.Client != nil {
		return s.Client
	}
	s.once.Do(func() { s.client = NewClient(s.Local) })
	return s.client
}

// NewClient is the client deliveries use: it dials only public addresses
// unless local (the check runs on the address actually dialled, after
// name resolution, so a name that resolves to a private address is
// refused too), uses no proxy, follows no redirect and gives up after
// Timeout.
func NewClient(local bool) *http.Client {
	dialer := &net.Dialer{Timeout: Timeout}
	if !local {
		dialer.Control = func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return errRefusedAddress
			}
			ip, err := netip.ParseAddr(host)
			if err != nil || !Public(ip) {
				return errRefusedAddress
			}
			return nil
		}
	}
	return &http.Client{
		Timeout: Timeout,
		Transport: &http.Transport{
			Proxy:                 nil,
			DialContext:           dialer.DialContext,
			TLSHandshakeTimeout:   Timeout,
			ResponseHeaderTimeout: Timeout,
			MaxIdleConnsPerHost:   2,
			IdleConnTimeout:       30 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// post sends one event: the status read, or why none was.
func (s *Service) post(ctx context.Context, w store.Webhook, d store.Delivery) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(d.Event))
	if err != nil {
		return 0, errors.New("the URL could not be used")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set(EventIDHeader, d.ID)
	req.Header.Set(SignatureHeader, Sign(w.Secret, s.now(), d.Event))
	resp, err := s.httpClient().Do(req)
	if err != nil {
		return 0, errors.New(describe(err))
	}
	io.CopyN(io.Discard, resp.Body, bodyRead)
	resp.Body.Close()
	return resp.StatusCode, nil
}

// describe says why no answer came in a few words, without the URL (the
// account sees it on the ledger page).
func describe(err error) string {
	var ne net.Error
	switch {
	case errors.Is(err, errRefusedAddress):
		return "refused: the URL resolves to an address that is not public"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "no answer within " + Timeout.String()
	case errors.Is(err, context.Canceled):
		return "the attempt was cut short"
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return "the host name could not be resolved"
	}
	return "the connection failed"
}

// Attempt delivers d, which the caller holds (written just now by intake,
// or claimed by Sweep), and records what came of it: the row is removed
// when delivered or given up, else moved to its next retry. Errors are
// logged; the row stays for the sweep.
func (s *Service) Attempt(ctx context.Context, d store.Delivery) {
	log := s.logger().With("event", d.ID, "account", d.AccountID)
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < Timeout+time.Second {
		// Too little time left to wait for an answer (a request whose
		// documents took its budget): the sweep makes this attempt, so a
		// cut-short one does not count against the event.
		log.Info("webhook delivery: left to the sweep")
		return
	}
	w, err := s.Store.Webhook(ctx, d.AccountID)
	if errors.Is(err, store.ErrNotFound) {
		// The webhook was removed: nothing to deliver to.
		if err := s.Store.DeleteDelivery(ctx, d); err != nil && !errors.Is(err, store.ErrConflict) {
			log.Error("webhook delivery: dropping", "err", err.Error())
		}
		return
	}
	if err != nil {
		log.Error("webhook delivery: reading the webhook", "err", err.Error())
		return
	}
	now := s.now().UTC()
	o := store.DeliveryOutcome{EventID: d.ID, Attempts: d.Attempts + 1}
	var status int
	if now.Before(d.Expires) {
		status, err = s.post(ctx, w, d)
		o.Status = status
		if err != nil {
			o.Error = err.Error()
		} else if status < 200 || status > 299 {
			o.Error = "answered " + strconv.Itoa(status) + " " + http.StatusText(status)
		}
	} else {
		o.Attempts, o.Error = d.Attempts, "expired before it could be delivered"
	}
	o.At = s.now().UTC()
	switch {
	case o.Error == "":
		o.State = store.DeliveryDelivered
		err = s.Store.DeleteDelivery(ctx, d)
	case o.Attempts >= MaxAttempts || !o.At.Before(d.Expires):
		o.State = store.DeliveryFailed
		err = s.Store.DeleteDelivery(ctx, d)
	default:
		o.State, o.Next = store.DeliveryRetrying, o.At.Add(Backoff[o.Attempts-1])
		next := d
		next.Attempts, next.Due = o.Attempts, o.Next
		err = s.Store.SaveDelivery(ctx, next)
	}
	if err != nil {
		// Delivered but not removed: the sweep sends it again, and the
		// receiver drops the repeat by its event id.
		log.Error("webhook delivery: updating the outbox", "err", err.Error())
	}
	if err := s.Store.RecordDelivery(ctx, d.AccountID, w.ID, o); err != nil && !errors.Is(err, store.ErrNotFound) {
		log.Error("webhook delivery: recording the outcome", "err", err.Error())
	}
	log.Info("webhook delivery", "state", o.State, "attempts", o.Attempts, "status", o.Status, "error", o.Error)
}

// SweepResult counts what one sweep did.
type SweepResult struct {
	Due, Attempted int
}

// Sweep attempts the deliveries that are due: each is claimed first (its
// due time moved past this attempt), so two sweeps, or a sweep and the
// attempt after intake, never post the same event at once.
func (s *Service) Sweep(ctx context.Context) (SweepResult, error) {
	now := s.now().UTC()
	due, err := s.Store.DueDeliveries(ctx, now, sweepBatch)
	if err != nil {
		return SweepResult{}, fmt.Errorf("webhook sweep: %w", err)
	}
	res := SweepResult{Due: len(due)}
	sem := make(chan struct{}, sweepParallel)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, d := range due {
		sem <- struct{}{}
		if ctx.Err() != nil {
			break // what is left stays due for the next sweep
		}
		wg.Go(func() {
			defer func() { <-sem }()
			// Claimed just before the attempt, so the lease covers the
			// attempt and not the wait for a place.
			claim := d
			claim.Due = s.now().UTC().Add(claimLease)
			if err := s.Store.SaveDelivery(ctx, claim); err != nil {
				if !errors.Is(err, store.ErrConflict) {
					s.logger().Error("webhook sweep: claiming", "event", d.ID, "err", err.Error())
				}
				return
			}
			claim.Rev++
			s.Attempt(ctx, claim)
			mu.Lock()
			res.Attempted++
			mu.Unlock()
		})
	}
	wg.Wait()
	return res, nil
}

// Run sweeps every interval until ctx ends: `doctrust serve`'s stand-in
// for the scheduled function on AWS.
func (s *Service) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := s.Sweep(ctx); err != nil {
				s.logger().Error("webhook sweep", "err", err.Error())
			}
		}
	}
}
