package cli

import (
	"context"
	"fmt"
	"regexp"

	"github.com/doctrust/doctrust/engine/baseline"
	"github.com/doctrust/doctrust/internal/analysis"
	"github.com/doctrust/doctrust/internal/baselines"
)

// issuerSlug is SPEC.md's issuer rule, the one the API applies.
var issuerSlug = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// Local is what inspect takes from the install beyond the engine.
type Local struct {
	// Secret is the receipt secret of the install.
	Secret func() ([]byte, error)
	// AccountBaselines opens the install's store for the account with
	// this email and resolves issuers as the API does for its key: the
	// account's own profile, else the built-in one. done closes the store.
	// Nil: --account is refused.
	AccountBaselines func(ctx context.Context, email string) (r analysis.Resolver, done func(), err error)
}

// resolver is --issuer's baseline source: the account's own profiles when
// --account names one, else the built-in set, which needs no store.
func (l Local) resolver(ctx context.Context, issuer, account string) (analysis.Resolver, func(), error) {
	if account == "" {
		svc := &baselines.Service{BuiltIn: baselines.BuiltIn()}
		return func(ctx context.Context, issuer string) (*baseline.Profile, string, error) {
			return svc.Resolve(ctx, "", issuer)
		}, func() {}, nil
	}
	if l.AccountBaselines == nil {
		return nil, nil, fmt.Errorf("--account needs the install's store, which this build does not open")
	}
	return l.AccountBaselines(ctx, account)
}
