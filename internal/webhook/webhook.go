// Package webhook posts ledger alerts to the URL an account sets
// (docs/ledger.md, "Webhook"): signed the way Stripe signs its events,
// attempted once right after intake and retried from a durable outbox by a
// sweep, never to a private address unless the server runs locally. The
// events carry the stored, masked form of the ledger only: no document
// byte, no full account number, no message body.
package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Headers of a delivery.
const (
	SignatureHeader = "Doctrust-Signature"
	EventIDHeader   = "Doctrust-Event-Id"
	UserAgent       = "doctrust-webhook/1 (+https://github.com/doctrust/doctrust)"
)

// EventType is the type of every event posted.
const EventType = "ledger.alert"

// MaxURLLength bounds the URL an account may set.
const MaxURLLength = 2048

// SecretPrefix starts every signing secret, as Stripe's whsec_.
const SecretPrefix = "whsec_"

// InputError is a URL the account may not set; Message says why in
// plain English.
type InputError struct{ Message string }

func (e *InputError) Error() string { return "webhook: " + e.Message }

// CheckURL returns the URL to store, or an *InputError: https only (http
// too when local), no user name or password, a host, at most
// MaxURLLength characters. Outside local mode a host written as a
// private, loopback or link-local address (or localhost) is refused at
// once; names that resolve to one are refused by the dialer at delivery.
func CheckURL(raw string, local bool) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", &InputError{"url is required"}
	}
	if len(raw) > MaxURLLength {
		return "", &InputError{"the URL is longer than " + strconv.Itoa(MaxURLLength) + " characters"}
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return "", &InputError{"the URL could not be read; give an absolute https:// URL"}
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && local:
	case u.Scheme == "http":
		return "", &InputError{"the URL must use https"}
	default:
		return "", &InputError{"the URL must be an https:// URL"}
	}
	if u.User != nil {
		return "", &InputError{"the URL may not carry a user name or password; authenticate deliveries by their signature"}
	}
	host := u.Hostname()
	if host == "" {
		return "", &InputError{"the URL has no host"}
	}
	if !local {
		if ip, err := netip.ParseAddr(host); err == nil && !Public(ip) {
			return "", &InputError{"the URL's address is private, loopback or link-local; give a public address"}
		}
		if h := strings.ToLower(strings.TrimSuffix(host, ".")); h == "localhost" || strings.HasSuffix(h, ".localhost") {
			return "", &InputError{"the URL names this machine; give a public address"}
		}
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String(), nil
}

// nonPublic are the ranges Public refuses beyond what netip classifies.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),      // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),  // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),   // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),  // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),    // reserved, and broadcast
	netip.MustParsePrefix("64:ff9b::/96"),   // NAT64: would reach any IPv4 address
	netip.MustParsePrefix("64:ff9b:1::/48"), // local-use NAT64
	netip.MustParsePrefix("2001:db8::/32"),  // documentation
	netip.MustParsePrefix("100::/64"),       // discard
	netip.MustParsePrefix("2002::/16"),      // 6to4: embeds any IPv4 address
	netip.MustParsePrefix("2001::/32"),      // Teredo: embeds any IPv4 address
}

// Public reports whether a delivery may connect to ip: a global unicast
// address that is not private, loopback, link-local, unspecified or one of
// the special ranges above (IPv4-mapped addresses are judged as IPv4).
func Public(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || !ip.IsGlobalUnicast() || ip.IsPrivate() || ip.IsLoopback() || ip.IsLinkLocalUnicast() ||
		ip.IsUnspecified() || ip.IsMulticast() || ip.IsInterfaceLocalMulticast() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// NewSecret draws a signing secret: whsec_ and 32 random bytes in hex.
func NewSecret() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand, Go 1.24+)
	return SecretPrefix + hex.EncodeToString(b)
}

// Sign is the Doctrust-Signature header of body sent at t: Stripe's
// scheme, t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>"> keyed
// with the whole secret string.
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + mac(secret, ts, body)
}

func mac(secret, ts string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts))
	m.Write([]byte("."))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Verification errors.
var (
	ErrBadHeader = errors.New("webhook: the signature header could not be read")
	ErrNoMatch   = errors.New("webhook: no signature matches the body")
	ErrTooOld    = errors.New("webhook: the signature's time is outside the tolerance")
)

// Verify is what a receiver does (README shows the same steps): find t
// and every v1 in header, check that one v1 is the body's HMAC, and that t
// is within tolerance of now (replays).
func Verify(header string, body []byte, secret string, tolerance time.Duration, now time.Time) error {
	var ts string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return ErrBadHeader
	}
	want := []byte(mac(secret, ts, body))
	matched := false
	for _, s := range sigs {
		if hmac.Equal([]byte(s), want) {
			matched = true
		}
	}
	if !matched {
		return ErrNoMatch
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return ErrTooOld
	}
	return nil
}
