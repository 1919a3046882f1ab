// Command doctrust-server is the full doctrust program: `serve` runs the API
// on loopback with its store, mail and billing, `admin` changes accounts for
// support, and the analysis commands read the receipt secret from the store.
// Users call it through doctrust, which hands it serve and admin.
package main

import (
	"context"
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
		"inspect":  cli.Inspect(storeSecret),
		"compare":  cli.Compare,
		"metadata": cli.Metadata,
		"serve":    serve,
		"admin":    admin,
	}, stdout, stderr)
}

// storeSecret is the receipt secret the service would use: RECEIPT_SECRET,
// else the one kept in the store.
func storeSecret() ([]byte, error) {
	if env := os.Getenv("RECEIPT_SECRET"); env != "" {
		return []byte(env), nil
	}
	ctx := context.Background()
	st, err := config.OpenStore(ctx, config.Local, os.Getenv)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return config.Secret(ctx, os.Getenv, st)
}
