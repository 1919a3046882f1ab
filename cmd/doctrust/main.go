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
	"fmt"
	"io"
	"os"

	"github.com/doctrust/doctrust/internal/cli"
	"github.com/doctrust/doctrust/internal/config"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	return cli.Run(args, map[string]cli.Command{
		"inspect":  cli.Inspect(receiptSecret),
		"compare":  cli.Compare,
		"metadata": cli.Metadata,
		"serve":    checked(serve),
		"admin":    checked(admin),
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
// receipt printed here verifies through the API.
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
	return config.Secret(ctx, os.Getenv, st)
}
