// Command doctrust is the whole local program: `inspect` and `metadata`
// print the same JSON the API returns with no server (one file, or JSON
// Lines over folders), `compare` prints the CompareReport of two PDFs,
// `serve` runs the API on loopback and `admin` changes accounts for
// support.
//
// The service stack (store, mail, billing, pool) is built only by the
// commands that use it: serve, admin, and inspect when the receipt secret
// must come from the store. The analysis commands touch the engine alone.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/doctrust/doctrust/engine/baseline"
	"github.com/doctrust/doctrust/internal/analysis"
	"github.com/doctrust/doctrust/internal/baselines"
	"github.com/doctrust/doctrust/internal/cli"
	"github.com/doctrust/doctrust/internal/config"
	"github.com/doctrust/doctrust/internal/store"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	return cli.Run(args, map[string]cli.Command{
		"inspect":  cli.InspectLocal(cli.Local{Secret: receiptSecret, AccountBaselines: accountBaselines}),
		"compare":  cli.Compare,
		"metadata": cli.Metadata,
		"verify":   cli.Verify(receiptSecret),
		"serve":    checked(serve),
		"admin":    checked(admin),
		"version":  cli.Version,
	}, stdout, stderr)
}

// checked refuses an invalid environment before a command that reads it
// builds anything.
func checked(c cli.Command) cli.Command {
	return func(args []string, stdout, stderr io.Writer) int {
		if err := config.Check(os.Getenv); err != nil {
			fmt.Fprintf(stderr, "doctrust: %v\n", err)
			return 2
		}
		return c(args, stdout, stderr)
	}
}

// receiptSecret is the secret the service of this install signs with:
// RECEIPT_SECRET, else the one kept in the store (opened only then), so a
// receipt printed here verifies through the API, and through `verify` run
// from any folder: the store is the per-user data folder, not the working
// folder, unless DATA_DIR says otherwise.
func receiptSecret() ([]byte, error) {
	if env := os.Getenv("RECEIPT_SECRET"); env != "" {
		return []byte(env), nil
	}
	if err := config.Check(os.Getenv); err != nil {
		return nil, err
	}
	ctx := context.Background()
	st, err := config.OpenStore(ctx, config.Local, os.Getenv)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	secret, err := config.Secret(ctx, os.Getenv, st)
	if err != nil {
		return nil, fmt.Errorf("the receipt secret in %s: %w", config.StoreName(config.Local, os.Getenv), err)
	}
	return secret, nil
}

// accountBaselines is inspect --account: the account's own baselines in
// the install's store, then the built-in ones, as the API resolves them
// for that account's key.
func accountBaselines(ctx context.Context, email string) (analysis.Resolver, func(), error) {
	if err := config.Check(os.Getenv); err != nil {
		return nil, nil, err
	}
	st, err := config.OpenStore(ctx, config.Local, os.Getenv)
	if err != nil {
		return nil, nil, err
	}
	email = strings.ToLower(strings.TrimSpace(email))
	a, err := st.AccountByEmail(ctx, email)
	if err != nil {
		st.Close()
		where := config.StoreName(config.Local, os.Getenv)
		if errors.Is(err, store.ErrNotFound) {
			return nil, nil, fmt.Errorf("no account with email %s in %s", email, where)
		}
		return nil, nil, fmt.Errorf("%s: %w", where, err)
	}
	svc := &baselines.Service{Store: st, BuiltIn: baselines.BuiltIn()}
	return func(ctx context.Context, issuer string) (*baseline.Profile, string, error) {
		return svc.Resolve(ctx, a.ID, issuer)
	}, func() { st.Close() }, nil
}
