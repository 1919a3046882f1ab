// Package cli holds doctrust's analysis commands: inspect, metadata and
// compare print the JSON the API returns, with no server and no store
// beyond the receipt secret.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/doctrust/doctrust/engine/policy"
	"github.com/doctrust/doctrust/internal/analysis"
)

// Usage is doctrust's help text.
const Usage = `usage:
  doctrust serve
  doctrust inspect FILE [--redact] [--triage] [--timing] [--policy JSON]
  doctrust metadata FILE
  doctrust compare ORIGINAL CANDIDATE
  doctrust admin plan EMAIL PLAN      (PLAN: free, solo, team, business)

Environment: PORT (8080), DATA_DIR (.data), STORE (embedded|dynamodb),
DYNAMODB_ENDPOINT, TABLE_PREFIX, RECEIPT_SECRET, MAX_UPLOAD_MB (10), WORKERS (2),
QUEUE (16), ANON_LIMIT_PER_HOUR (10), TRUSTED_PROXY_HOPS (0), BUSINESS_QUOTA (50000),
ALLOWED_ORIGINS, PUBLIC_BASE_URL, MAIL_OUTBOX, MAIL_FROM; billing (docs/billing.md):
STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE, STRIPE_PRICE_SOLO, STRIPE_PRICE_TEAM,
STRIPE_PRICE_BUSINESS, STRIPE_PRICE_CREDITS_SMALL, STRIPE_PRICE_CREDITS_LARGE,
CREDITS_SMALL_DOCUMENTS (100), CREDITS_LARGE_DOCUMENTS (1000).
`

// Exit codes: 0 report printed, 1 error, 2 usage, 3 unreadable file, 4 deadline.
const (
	exitError      = 1
	exitUsage      = 2
	exitUnreadable = 3
	exitDeadline   = 4
)

// Command is one subcommand: its arguments in, an exit code out.
type Command func(args []string, stdout, stderr io.Writer) int

// Run dispatches a command line to the program's commands.
func Run(args []string, commands map[string]Command, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, Usage)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "--help":
		fmt.Fprint(stdout, Usage)
		return 0
	}
	if c, ok := commands[args[0]]; ok {
		return c(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "doctrust: unknown command %q\n%s", args[0], Usage)
	return exitUsage
}

// Inspect is `doctrust inspect`; secret gives the receipt secret of the
// install, so a receipt printed here verifies through its API.
func Inspect(secret func() ([]byte, error)) Command {
	return func(args []string, stdout, stderr io.Writer) int {
		return inspect(args, secret, stdout, stderr)
	}
}

func inspect(args []string, secret func() ([]byte, error), stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	redact := fs.Bool("redact", false, "apply ?redact=payload")
	triage := fs.Bool("triage", false, "triage mode: no per-page content walk")
	timing := fs.Bool("timing", false, "add the timing block")
	policyJSON := fs.String("policy", "", "verdict policy as a JSON object")
	path, rest := splitPath(args)
	if err := fs.Parse(rest); err != nil {
		return exitUsage
	}
	if path == "" && fs.NArg() == 1 {
		path = fs.Arg(0)
	}
	if path == "" {
		fmt.Fprint(stderr, Usage)
		return exitUsage
	}
	req := analysis.Request{Redact: *redact, Triage: *triage, Timing: *timing}
	if *policyJSON != "" {
		p, err := policy.Parse([]byte(*policyJSON))
		if err != nil {
			fmt.Fprintf(stderr, "doctrust: %v\n", err)
			return exitUsage
		}
		req.Policy = &p
	}
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
		return exitError
	}
	req.Data = data
	key, err := secret()
	if err != nil {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
		return exitError
	}
	pl := &analysis.Pipeline{Secret: key}
	res, err := pl.Inspect(context.Background(), req)
	if code := failed(err, stderr); code != 0 {
		return code
	}
	return printed(stdout, res.Body)
}

// Compare prints the CompareReport /compare returns for two PDFs.
func Compare(args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprint(stderr, Usage)
		return exitUsage
	}
	var files [2][]byte
	for i, p := range args {
		b, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintf(stderr, "doctrust: %v\n", err)
			return exitError
		}
		files[i] = b
	}
	body, _, err := (&analysis.Pipeline{}).Compare(context.Background(), files[0], files[1])
	if code := failed(err, stderr); code != 0 {
		return code
	}
	return printed(stdout, body)
}

// Metadata prints the MetadataReport POST /api/v1/metadata returns. It
// needs no store: a listing carries no receipt.
func Metadata(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || args[0] == "" || args[0][0] == '-' {
		fmt.Fprint(stderr, Usage)
		return exitUsage
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
		return exitError
	}
	l, err := (&analysis.Pipeline{}).Metadata(context.Background(), data)
	if code := failed(err, stderr); code != 0 {
		return code
	}
	return printed(stdout, l.Body)
}

func printed(stdout io.Writer, body []byte) int {
	stdout.Write(body)
	fmt.Fprintln(stdout)
	return 0
}

// failed prints an analysis error as the API's error body and returns the
// exit code (0 when err is nil).
func failed(err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, analysis.ErrUnreadable):
		fmt.Fprintln(stderr, `{"error":"not_a_pdf"}`)
		return exitUnreadable
	case errors.Is(err, analysis.ErrDeadline):
		fmt.Fprintln(stderr, `{"error":"analysis_timeout","timeoutMs":15000}`)
		return exitDeadline
	}
	fmt.Fprintf(stderr, "doctrust: %v\n", err)
	return exitError
}

// splitPath lets the file come before or after the flags.
func splitPath(args []string) (string, []string) {
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		return args[0], args[1:]
	}
	return "", args
}
