package ledger

import (
	"context"
	"crypto/rand"
	"errors"
	"net/mail"
	"strings"

	"github.com/doctrust/doctrust/internal/store"
)

// ErrUnknownAlias is a recipient that names no account's alias.
var ErrUnknownAlias = errors.New("ledger: unknown alias")

// aliasAlphabet has no look-alike characters, so an alias read aloud or
// copied by hand survives.
const aliasAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"

// newAlias draws "ap-" and 12 characters (about 59 bits): aliases are
// addresses anyone can mail, so they must not be guessable.
func newAlias() string {
	b := make([]byte, 12)
	rand.Read(b)
	for i := range b {
		b[i] = aliasAlphabet[int(b[i])%len(aliasAlphabet)]
	}
	return "ap-" + string(b)
}

// Alias returns the account's ingest alias, creating it on first call.
func (l *Ledger) Alias(ctx context.Context, accountID string) (string, error) {
	for range 5 {
		a, err := l.Store.EnsureAlias(ctx, accountID, newAlias())
		if !errors.Is(err, store.ErrConflict) {
			return a, err
		}
	}
	return "", errors.New("ledger: no free alias")
}

// Resolve maps a recipient address to its account. domain, when set, must
// be the recipient's domain; a "+tag" after the alias is ignored.
func (l *Ledger) Resolve(ctx context.Context, recipient, domain string) (alias, accountID string, err error) {
	addr := recipient
	if a, err := mail.ParseAddress(recipient); err == nil {
		addr = a.Address
	}
	at := strings.LastIndexByte(addr, '@')
	if at <= 0 {
		return "", "", ErrUnknownAlias
	}
	local, host := strings.ToLower(addr[:at]), strings.ToLower(addr[at+1:])
	if domain != "" && host != strings.ToLower(domain) {
		return "", "", ErrUnknownAlias
	}
	if plus := strings.IndexByte(local, '+'); plus >= 0 {
		local = local[:plus]
	}
	if !strings.HasPrefix(local, "ap-") || len(local) > 64 {
		return "", "", ErrUnknownAlias
	}
	id, err := l.Store.AliasAccount(ctx, local)
	if errors.Is(err, store.ErrNotFound) {
		return "", "", ErrUnknownAlias
	}
	return local, id, err
}
