// Command doctrust is the local all-in-one tool: `inspect` and `metadata`
// print the same JSON the API returns with no server, `compare` prints the
// CompareReport of two PDFs, `serve` runs the API on loopback and `admin`
// changes accounts for support.
//
// This program links the engine and nothing of the service: the stores, the
// AWS SDK, Stripe and the MIME parser cost tens of milliseconds of package
// initialisation at every process start, more than inspecting a typical
// file. The commands that need them (serve, admin, and inspect when the
// receipt secret must come from the store) run doctrust-server in its place.
package main

import (
	"io"
	"os"

	"github.com/doctrust/doctrust/internal/cli"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	return cli.Run(args, map[string]cli.Command{
		"inspect":  inspect,
		"compare":  cli.Compare,
		"metadata": cli.Metadata,
		"serve":    handOver("serve"),
		"admin":    handOver("admin"),
	}, stdout, stderr)
}

// inspect signs with RECEIPT_SECRET in this process; without it the secret
// is the install's, kept in the store, and doctrust-server reads it.
func inspect(args []string, stdout, stderr io.Writer) int {
	secret := os.Getenv("RECEIPT_SECRET")
	if secret == "" {
		return handOver("inspect")(args, stdout, stderr)
	}
	return cli.Inspect(func() ([]byte, error) { return []byte(secret), nil })(args, stdout, stderr)
}
