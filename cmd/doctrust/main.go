// Command doctrust is the local all-in-one tool: `serve` runs the API on
// loopback, `inspect` and `metadata` print the same JSON the API returns
// with no server, `compare` prints the CompareReport of two PDFs, `admin`
// changes accounts for support.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/doctrust/doctrust/engine/policy"
	"github.com/doctrust/doctrust/internal/analysis"
	"github.com/doctrust/doctrust/internal/config"
)

const usage = `usage:
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

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit codes: 0 report printed, 1 error, 2 usage, 3 unreadable file, 4 deadline.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "inspect":
		return inspect(args[1:], stdout, stderr)
	case "compare":
		return compareFiles(args[1:], stdout, stderr)
	case "metadata":
		return listMetadata(args[1:], stdout, stderr)
	case "serve":
		return serve(args[1:], stdout, stderr)
	case "admin":
		return admin(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "doctrust: unknown command %q\n%s", args[0], usage)
	return 2
}

func inspect(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	redact := fs.Bool("redact", false, "apply ?redact=payload")
	triage := fs.Bool("triage", false, "triage mode: no per-page content walk")
	timing := fs.Bool("timing", false, "add the timing block")
	policyJSON := fs.String("policy", "", "verdict policy as a JSON object")
	path, rest := splitPath(args)
	if err := fs.Parse(rest); err != nil {
		return 2
	}
	if path == "" && fs.NArg() == 1 {
		path = fs.Arg(0)
	}
	if path == "" {
		fmt.Fprint(stderr, usage)
		return 2
	}
	req := analysis.Request{Redact: *redact, Triage: *triage, Timing: *timing}
	if *policyJSON != "" {
		p, err := policy.Parse([]byte(*policyJSON))
		if err != nil {
			fmt.Fprintf(stderr, "doctrust: %v\n", err)
			return 2
		}
		req.Policy = &p
	}
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
		return 1
	}
	req.Data = data
	secret, err := cliSecret()
	if err != nil {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
		return 1
	}
	pl := &analysis.Pipeline{Secret: secret}
	res, err := pl.Inspect(context.Background(), req)
	if code := failed(err, stderr); code != 0 {
		return code
	}
	stdout.Write(res.Body)
	fmt.Fprintln(stdout)
	return 0
}

// compareFiles prints the CompareReport /compare returns for two PDFs.
func compareFiles(args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var files [2][]byte
	for i, p := range args {
		b, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintf(stderr, "doctrust: %v\n", err)
			return 1
		}
		files[i] = b
	}
	body, _, err := (&analysis.Pipeline{}).Compare(context.Background(), files[0], files[1])
	if code := failed(err, stderr); code != 0 {
		return code
	}
	stdout.Write(body)
	fmt.Fprintln(stdout)
	return 0
}

// listMetadata prints the MetadataReport POST /api/v1/metadata returns. It
// needs no store: a listing carries no receipt.
func listMetadata(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || args[0] == "" || args[0][0] == '-' {
		fmt.Fprint(stderr, usage)
		return 2
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
		return 1
	}
	l, err := (&analysis.Pipeline{}).Metadata(context.Background(), data)
	if code := failed(err, stderr); code != 0 {
		return code
	}
	stdout.Write(l.Body)
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
		return 3
	case errors.Is(err, analysis.ErrDeadline):
		fmt.Fprintln(stderr, `{"error":"analysis_timeout","timeoutMs":15000}`)
		return 4
	}
	fmt.Fprintf(stderr, "doctrust: %v\n", err)
	return 1
}

// splitPath lets the file come before or after the flags.
func splitPath(args []string) (string, []string) {
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		return args[0], args[1:]
	}
	return "", args
}

// cliSecret is the receipt secret the service would use, so a receipt
// printed by the CLI verifies through the API of the same install.
func cliSecret() ([]byte, error) {
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
