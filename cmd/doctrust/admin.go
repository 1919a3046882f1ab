package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/doctrust/doctrust/internal/cli"
	"github.com/doctrust/doctrust/internal/config"
	"github.com/doctrust/doctrust/internal/store"
)

// admin runs support commands against the store `serve` uses; the embedded
// store is in WAL mode, so this works while serve runs on the same DATA_DIR.
func admin(args []string, stdout, stderr io.Writer) int {
	if len(args) != 3 || args[0] != "plan" {
		fmt.Fprint(stderr, cli.Usage)
		return 2
	}
	email, planName := strings.ToLower(strings.TrimSpace(args[1])), args[2]
	plan, err := config.Plans(os.Getenv).Parse(planName)
	if err != nil {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
		return 2
	}
	ctx := context.Background()
	st, err := config.OpenStore(ctx, config.Local, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
		return 1
	}
	defer st.Close()
	where := config.StoreName(config.Local, os.Getenv)
	a, err := st.AccountByEmail(ctx, email)
	if errors.Is(err, store.ErrNotFound) {
		fmt.Fprintf(stderr, "doctrust: no account with email %s in %s\n", email, where)
		return 1
	}
	if err == nil {
		err = st.SetPlan(ctx, a.ID, plan.Name)
	}
	if err != nil {
		fmt.Fprintf(stderr, "doctrust: %s: %v\n", where, err)
		return 1
	}
	was := a.Plan
	if old, err := config.Plans(os.Getenv).Parse(a.Plan); err == nil {
		was = old.Listing + " (" + old.Name + ")"
	}
	fmt.Fprintf(stdout, "%s: plan %s (%s), was %s, %d documents a month\n", email, plan.Listing, plan.Name, was, plan.Quota)
	return 0
}
