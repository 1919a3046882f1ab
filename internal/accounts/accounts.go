// Package accounts is the account and session logic behind SPEC.md's
// "Account and session" routes: signup, login and sessions, email
// verification, password reset, key rotation and the account summary.
// Secrets (passwords, session ids, tokens, keys) are kept only as hashes;
// every limiter is counted in the store, so it holds across instances.
package accounts

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/doctrust/doctrust/internal/apikey"
	mailer "github.com/doctrust/doctrust/internal/mail"
	"github.com/doctrust/doctrust/internal/password"
	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/ratelimit"
	"github.com/doctrust/doctrust/internal/store"
	"github.com/google/uuid"
)

// Lifetimes (SPEC.md for the tokens; sessions are ours: docs/api.md).
const (
	SessionLifetime = 7 * 24 * time.Hour
	VerifyLifetime  = 7 * 24 * time.Hour
	ResetLifetime   = time.Hour
)

// Limiters of DESIGN.md.
var (
	SignupRule       = ratelimit.Rule{Name: "signup-ip", Limit: 20, Window: time.Hour}
	LoginIPRule      = ratelimit.Rule{Name: "login-ip", Limit: 30, Window: 15 * time.Minute}
	LoginFailureRule = ratelimit.Rule{Name: "login-fail", Limit: 10, Window: 15 * time.Minute}
	ForgotEmailRule  = ratelimit.Rule{Name: "forgot-email", Limit: 5, Window: time.Hour}
	ForgotIPRule     = ratelimit.Rule{Name: "forgot-ip", Limit: 20, Window: time.Hour}
	ResendRule       = ratelimit.Rule{Name: "resend", Limit: 3, Window: time.Hour}
	RotateRule       = ratelimit.Rule{Name: "rotate", Limit: 10, Window: time.Hour}
	// ResetIPRule and ResetAccountRule bound /auth/reset as /auth/forgot
	// is bounded: every attempt counts per address; per account, only
	// attempts whose token carries a valid MAC (so nobody can use up a
	// victim's resets by naming its account id).
	ResetIPRule      = ratelimit.Rule{Name: "reset-ip", Limit: 20, Window: time.Hour}
	ResetAccountRule = ratelimit.Rule{Name: "reset-account", Limit: 5, Window: time.Hour}
)

// Errors the HTTP layer maps onto SPEC.md's table.
var (
	ErrEmailTaken       = errors.New("accounts: email already registered")
	ErrBadCredentials   = errors.New("accounts: invalid credentials")
	ErrInvalidToken     = errors.New("accounts: invalid token")
	ErrNotAuthenticated = errors.New("accounts: not authenticated")
	ErrKeyNotFound      = errors.New("accounts: no such key")
	ErrMailUnavailable  = errors.New("accounts: mail is not configured")
)

// InputError is a request the service refuses as malformed (400).
type InputError struct{ Message string }

func (e *InputError) Error() string { return e.Message }

// Store is the part of store.Store the account routes use; store.Store
// documents each method. Both backends satisfy it.
type Store interface {
	// Accounts and their keys.
	CreateAccount(ctx context.Context, a store.Account, first store.APIKey) error
	Account(ctx context.Context, id string) (store.Account, error)
	AccountByEmail(ctx context.Context, email string) (store.Account, error)
	RotateKey(ctx context.Context, accountID, oldKeyID string, replacement store.APIKey) error
	Keys(ctx context.Context, accountID string) ([]store.APIKey, error)
	// Secret holds the key of the reset tokens' MAC.
	Secret(ctx context.Context, name string, candidate []byte) ([]byte, error)

	// Sessions and emailed tokens.
	CreateSession(ctx context.Context, sess store.Session) error
	Session(ctx context.Context, hash string) (store.Session, error)
	DeleteSession(ctx context.Context, hash string) error
	CreateToken(ctx context.Context, tok store.Token) error
	VerifyEmail(ctx context.Context, tokenHash string) (accountID string, err error)
	ResetPassword(ctx context.Context, tokenHash, passwordHash string) (accountID string, err error)

	// The summary's balance and usage.
	Balance(ctx context.Context, accountID, month string) (store.Balance, error)
	UsageSince(ctx context.Context, accountID string, from time.Time) ([]store.UsageRecord, error)
}

// Service holds what the account routes need.
type Service struct {
	Store   Store
	Plans   plans.Table
	Limiter *ratelimit.Limiter
	// Mail sends verification and reset links; nil when no sender is
	// configured.
	Mail mailer.Sender
	// BaseURL is where links in mails point (PUBLIC_BASE_URL).
	BaseURL string
	Logger  *slog.Logger
	Now     func() time.Time
	// ForgotTime is how long every /auth/forgot answer takes, whether or
	// not the address has an account (0: DefaultForgotTime).
	ForgotTime time.Duration

	macMu  sync.Mutex
	macKey []byte // the reset tokens' MAC key, read from the store once
}

// DefaultForgotTime covers the account lookup, the token write and the
// mail send of an address that has an account, so the answer for one
// that has none cannot be told apart by its timing.
const DefaultForgotTime = 1500 * time.Millisecond

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func (s *Service) log() *slog.Logger {
	if s.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return s.Logger
}

// secret returns a random URL-safe value and its storage hash.
func secret() (plain, hash string) {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand, Go 1.24+)
	plain = base64.RawURLEncoding.EncodeToString(b)
	return plain, HashSecret(plain)
}

// HashSecret is how session ids and tokens are stored.
func HashSecret(plain string) string {
	sum := sha256.Sum256([]byte(plain))
	return hex.EncodeToString(sum[:])
}

// NormaliseEmail checks an address and returns its stored form.
func NormaliseEmail(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	a, err := mail.ParseAddress(raw)
	if err != nil || a.Name != "" || a.Address != raw || len(raw) > 254 || !strings.Contains(raw, "@") {
		return "", &InputError{Message: "email must be a plain address such as name@example.com"}
	}
	return strings.ToLower(raw), nil
}

// NewKey is a plaintext key shown once, with its stored form.
type NewKey struct {
	Plaintext string
	Key       store.APIKey
}

func (s *Service) newKey(accountID string) NewKey {
	plain, hash, preview := apikey.New()
	return NewKey{Plaintext: plain, Key: store.APIKey{ID: "key_" + uuid.NewString(), AccountID: accountID, Hash: hash, Preview: preview, Created: s.now()}}
}

// Signup creates an account on the Free plan with its first key, and
// mails a verification link when mail is configured.
func (s *Service) Signup(ctx context.Context, email, pw, ip string) (store.Account, NewKey, error) {
	if err := s.Limiter.Allow(ctx, SignupRule, ip); err != nil {
		return store.Account{}, NewKey{}, err
	}
	email, err := NormaliseEmail(email)
	if err != nil {
		return store.Account{}, NewKey{}, err
	}
	if err := password.Check(pw); err != nil {
		return store.Account{}, NewKey{}, &InputError{Message: err.Error()}
	}
	a := store.Account{ID: "acct_" + uuid.NewString(), Email: email, PasswordHash: password.Hash(pw), Plan: plans.Free, Created: s.now()}
	k := s.newKey(a.ID)
	if err := s.Store.CreateAccount(ctx, a, k.Key); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return store.Account{}, NewKey{}, ErrEmailTaken
		}
		return store.Account{}, NewKey{}, err
	}
	if err := s.sendVerification(ctx, a); err != nil && !errors.Is(err, ErrMailUnavailable) {
		// The account exists; the link can be sent again from the dashboard.
		s.log().Warn("verification mail not sent", "err", err.Error())
	}
	return a, k, nil
}

func (s *Service) link(path string, q url.Values) string {
	return strings.TrimRight(s.BaseURL, "/") + path + "?" + q.Encode()
}

func (s *Service) sendVerification(ctx context.Context, a store.Account) error {
	if s.Mail == nil {
		return ErrMailUnavailable
	}
	plain, hash := secret()
	if err := s.Store.CreateToken(ctx, store.Token{Hash: hash, Kind: store.TokenVerify, AccountID: a.ID, Expires: s.now().Add(VerifyLifetime)}); err != nil {
		return err
	}
	link := s.link("/api/v1/auth/verify", url.Values{"token": {plain}})
	return s.Mail.Send(ctx, mailer.Message{To: a.Email, Subject: "Confirm your email address",
		Text: "Confirm the address of your doctrust account by opening this link within 7 days:\n\n" + link +
			"\n\nIf you did not sign up, ignore this mail.\n"})
}

// Login checks credentials and starts a session; it returns the cookie
// value. Unknown addresses and wrong passwords are the same error after
// the same work.
func (s *Service) Login(ctx context.Context, email, pw, ip string) (string, store.Session, error) {
	if err := s.Limiter.Allow(ctx, LoginIPRule, ip); err != nil {
		return "", store.Session{}, err
	}
	email, err := NormaliseEmail(email)
	if err != nil || len(pw) > password.MaxBytes {
		password.Waste(pw)
		return "", store.Session{}, ErrBadCredentials
	}
	if err := s.Limiter.Check(ctx, LoginFailureRule, email); err != nil {
		return "", store.Session{}, err
	}
	a, err := s.Store.AccountByEmail(ctx, email)
	switch {
	case errors.Is(err, store.ErrNotFound):
		password.Waste(pw)
	case err != nil:
		return "", store.Session{}, err
	}
	if err != nil || !password.Verify(pw, a.PasswordHash) {
		if lerr := s.Limiter.Allow(ctx, LoginFailureRule, email); lerr != nil {
			var ex *ratelimit.Exceeded
			if !errors.As(lerr, &ex) {
				return "", store.Session{}, lerr
			}
		}
		return "", store.Session{}, ErrBadCredentials
	}
	return s.StartSession(ctx, a)
}

// StartSession begins a session of a (after a login, or right after
// signup) and returns the cookie value.
func (s *Service) StartSession(ctx context.Context, a store.Account) (string, store.Session, error) {
	plain, hash := secret()
	sess := store.Session{Hash: hash, AccountID: a.ID, Epoch: a.SessionEpoch, Created: s.now(), Expires: s.now().Add(SessionLifetime)}
	return plain, sess, s.Store.CreateSession(ctx, sess)
}

// Authenticate resolves a session cookie value to its account. A session
// from before a password reset (an older epoch) is dead.
func (s *Service) Authenticate(ctx context.Context, cookie string) (store.Account, store.Session, error) {
	if cookie == "" || len(cookie) > 128 {
		return store.Account{}, store.Session{}, ErrNotAuthenticated
	}
	sess, err := s.Store.Session(ctx, HashSecret(cookie))
	if errors.Is(err, store.ErrNotFound) {
		return store.Account{}, store.Session{}, ErrNotAuthenticated
	}
	if err != nil {
		return store.Account{}, store.Session{}, err
	}
	a, err := s.Store.Account(ctx, sess.AccountID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && a.SessionEpoch != sess.Epoch) {
		return store.Account{}, store.Session{}, ErrNotAuthenticated
	}
	if err != nil {
		return store.Account{}, store.Session{}, err
	}
	return a, sess, nil
}

// Logout ends the session of cookie (if any).
func (s *Service) Logout(ctx context.Context, cookie string) error {
	if cookie == "" {
		return nil
	}
	return s.Store.DeleteSession(ctx, HashSecret(cookie))
}

// Verify consumes a verification token.
func (s *Service) Verify(ctx context.Context, token string) error {
	if token == "" || len(token) > 128 {
		return ErrInvalidToken
	}
	_, err := s.Store.VerifyEmail(ctx, HashSecret(token))
	if errors.Is(err, store.ErrNotFound) {
		return ErrInvalidToken
	}
	return err
}

// ResendVerification mails a fresh link to the account.
func (s *Service) ResendVerification(ctx context.Context, a store.Account) error {
	if s.Mail == nil {
		return ErrMailUnavailable
	}
	if err := s.Limiter.Allow(ctx, ResendRule, a.ID); err != nil {
		return err
	}
	if a.Verified {
		return nil // nothing to confirm; the answer does not differ
	}
	return s.sendVerification(ctx, a)
}

// Forgot mails a reset link when the address has an account. Whether it
// has one, and whether mail could be sent, never shows in the result, nor
// in its timing: the lookup, the token and the mail run beside a fixed
// wait (ForgotTime) that every answer takes. Work that outlasts the wait
// finishes after the answer.
func (s *Service) Forgot(ctx context.Context, email, ip string) error {
	if err := s.Limiter.Allow(ctx, ForgotIPRule, ip); err != nil {
		return err
	}
	email, err := NormaliseEmail(email)
	if err != nil {
		return nil
	}
	if err := s.Limiter.Allow(ctx, ForgotEmailRule, email); err != nil {
		return err
	}
	wait := s.ForgotTime
	if wait <= 0 {
		wait = DefaultForgotTime
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	go s.sendReset(context.WithoutCancel(ctx), email)
	select {
	case <-timer.C:
	case <-ctx.Done():
	}
	return nil
}

// resetWorkTimeout bounds a reset mail's work once nobody waits for it.
const resetWorkTimeout = 30 * time.Second

func (s *Service) sendReset(ctx context.Context, email string) {
	ctx, cancel := context.WithTimeout(ctx, resetWorkTimeout)
	defer cancel()
	a, err := s.Store.AccountByEmail(ctx, email)
	if err != nil || s.Mail == nil {
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			s.log().Warn("forgot: account lookup failed", "err", err.Error())
		}
		return
	}
	key, err := s.resetKey(ctx)
	if err != nil {
		s.log().Warn("forgot: token key unavailable", "err", err.Error())
		return
	}
	random, _ := secret()
	// The token names the account and its session epoch, which every
	// reset bumps: a reset ends every other reset token outstanding.
	plain := resetToken(key, a.ID, a.SessionEpoch, random)
	if err := s.Store.CreateToken(ctx, store.Token{Hash: HashSecret(plain), Kind: store.TokenReset, AccountID: a.ID, Expires: s.now().Add(ResetLifetime)}); err != nil {
		s.log().Warn("forgot: token not stored", "err", err.Error())
		return
	}
	link := s.link("/account", url.Values{"reset": {plain}})
	if err := s.Mail.Send(ctx, mailer.Message{To: a.Email, Subject: "Reset your password",
		Text: "Choose a new password for your doctrust account within one hour:\n\n" + link +
			"\n\nEvery session of the account is signed out when the password changes.\nIf you did not ask for this, ignore this mail.\n"}); err != nil {
		s.log().Warn("forgot: mail not sent", "err", err.Error())
	}
}

// resetKeyName names the reset tokens' MAC key in the store's secrets.
const resetKeyName = "reset-token-mac"

// resetKey is the reset tokens' MAC key: drawn once and kept in the
// store, so every instance checks the tokens any of them issued.
func (s *Service) resetKey(ctx context.Context) ([]byte, error) {
	s.macMu.Lock()
	defer s.macMu.Unlock()
	if s.macKey != nil {
		return s.macKey, nil
	}
	candidate := make([]byte, 32)
	rand.Read(candidate)
	key, err := s.Store.Secret(ctx, resetKeyName, []byte(hex.EncodeToString(candidate)))
	if err != nil {
		return nil, err
	}
	s.macKey = key
	return key, nil
}

// resetMAC signs a reset token's account, epoch and random part.
func resetMAC(key []byte, body string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("reset\x00" + body))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// resetToken is a reset token's plaintext: account, epoch, the random
// secret and a MAC over them. The epoch lets Reset tell a token issued
// before the last reset; the MAC lets it refuse a made-up token before
// any store read or password hashing.
func resetToken(key []byte, accountID string, epoch int, random string) string {
	body := accountID + "." + strconv.Itoa(epoch) + "." + random
	return body + "." + resetMAC(key, body)
}

// parseResetToken splits a reset token and checks its MAC; ok is false
// for any other shape or a MAC that does not hold. It does the same work
// whatever the account id, so its time tells nothing about the id.
func parseResetToken(key []byte, token string) (accountID string, epoch int, ok bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 4 || parts[0] == "" || parts[2] == "" {
		return "", 0, false
	}
	want := resetMAC(key, parts[0]+"."+parts[1]+"."+parts[2])
	if !hmac.Equal([]byte(want), []byte(parts[3])) {
		return "", 0, false
	}
	epoch, err := strconv.Atoi(parts[1])
	return parts[0], epoch, err == nil && epoch >= 0
}

// Reset sets a new password with a reset token, ending every session.
// Nothing costly happens until the token is proven: the address's
// limiter, then the token's MAC (a made-up token, an unknown account id
// and a stale epoch under a forged MAC all end here after the same work),
// then the account's limiter and epoch, and only then the password hash
// (argon2id, 19 MiB) and the store's consumption of the token.
//
// An unverified account taken over by a reset loses its keys: whoever
// signed up with the address may not be who owns it (docs/api.md).
func (s *Service) Reset(ctx context.Context, token, pw, ip string) error {
	if err := s.Limiter.Allow(ctx, ResetIPRule, ip); err != nil {
		return err
	}
	if err := password.Check(pw); err != nil {
		return &InputError{Message: err.Error()}
	}
	if token == "" || len(token) > 200 {
		return ErrInvalidToken
	}
	key, err := s.resetKey(ctx)
	if err != nil {
		return err
	}
	accountID, epoch, ok := parseResetToken(key, token)
	if !ok {
		return ErrInvalidToken
	}
	if err := s.Limiter.Allow(ctx, ResetAccountRule, accountID); err != nil {
		return err
	}
	// A token issued before the account's last reset is void: the epoch
	// it carries is behind the account's.
	a, err := s.Store.Account(ctx, accountID)
	if errors.Is(err, store.ErrNotFound) || err == nil && a.SessionEpoch != epoch {
		return ErrInvalidToken
	}
	if err != nil {
		return err
	}
	if !a.Verified {
		if err := s.revokeKeys(ctx, a.ID); err != nil {
			return err
		}
	}
	_, err = s.Store.ResetPassword(ctx, HashSecret(token), password.Hash(pw))
	if errors.Is(err, store.ErrNotFound) {
		return ErrInvalidToken
	}
	return err
}

// revokeKeys replaces every active key of the account by one whose
// plaintext nobody was shown: the keys handed out at signup stop working,
// and the new owner takes a key they can see by rotating that one.
// Revoking before the password changes means a failure leaves the
// password as it was and the reset can be tried again.
func (s *Service) revokeKeys(ctx context.Context, accountID string) error {
	keys, err := s.Store.Keys(ctx, accountID)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if k.Revoked {
			continue
		}
		err := s.Store.RotateKey(ctx, accountID, k.ID, s.newKey(accountID).Key)
		if err != nil && !errors.Is(err, store.ErrNotFound) { // ErrNotFound: revoked meanwhile
			return fmt.Errorf("accounts: revoke keys: %w", err)
		}
	}
	return nil
}

// Rotate revokes one of the account's active keys and issues its
// replacement; the plan and the monthly count are the account's, so both
// carry over.
func (s *Service) Rotate(ctx context.Context, a store.Account, keyID string) (NewKey, error) {
	if err := s.Limiter.Allow(ctx, RotateRule, a.ID); err != nil {
		return NewKey{}, err
	}
	k := s.newKey(a.ID)
	err := s.Store.RotateKey(ctx, a.ID, keyID, k.Key)
	if errors.Is(err, store.ErrNotFound) {
		return NewKey{}, ErrKeyNotFound
	}
	if err != nil {
		return NewKey{}, fmt.Errorf("accounts: rotate: %w", err)
	}
	return k, nil
}
