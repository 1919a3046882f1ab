// Package cli holds doctrust's analysis commands: inspect, metadata and
// compare print the JSON the API returns, with no server and no store
// beyond the receipt secret.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/doctrust/doctrust/engine/policy"
	"github.com/doctrust/doctrust/internal/analysis"
	"github.com/doctrust/doctrust/internal/httpapi"
)

// Usage is doctrust's help text.
const Usage = `usage:
  doctrust serve
  doctrust inspect FILE [--redact] [--triage] [--timing] [--policy JSON] [--format json|text]
                        [--issuer NAME [--account EMAIL]] [--fail-on BAND]
  doctrust inspect PATH... [same flags] [--jobs N]   (PATH: file, folder, or - for paths on stdin)
  doctrust metadata FILE
  doctrust metadata PATH... [--jobs N]
  doctrust compare ORIGINAL CANDIDATE [--format json|text]
  doctrust verify REPORT              (a report inspect printed, or - for stdin)
  doctrust admin plan EMAIL PLAN      (PLAN: free, solo or Starter, team or Growth, business)
  doctrust version

--issuer NAME matches the file against an issuer baseline: the built-in one, or
with --account EMAIL that account's own in the local store first. --fail-on BAND
(low, elevated or high) exits 5 when any file's band reaches it; so does a
--policy whose verdict is reject.

A batch prints one JSON Lines record per file, {"path":...,"report":{...}} or
{"path":...,"error":{...}}, in the order the files are found (folders walked
recursively in name order, hidden entries skipped), and a summary on stderr;
on a terminal, stderr also shows progress (files done, of how many, rate).
--format text prints a summary a person reads instead of JSON: per file the
band, the score and each signal above info with its severity, title and pages
(coloured on a terminal unless NO_COLOR is set).
Exit status: 0 done, 1 error (a batch: some path could not be read), 2 usage or
invalid environment, 3 not a readable format (a batch: some file refused),
4 analysis timeout, 5 a file reached --fail-on or a policy said reject (verify:
the receipt is not valid). 1 to 4 win over 5.

Environment: PORT (8080), DATA_DIR ($XDG_DATA_HOME/doctrust, else
~/.local/share/doctrust), STORE (embedded|dynamodb),
DYNAMODB_ENDPOINT, TABLE_PREFIX, RECEIPT_SECRET, MAX_UPLOAD_MB (10), WORKERS (2),
QUEUE (16), ANON_LIMIT_PER_HOUR (10), TRUSTED_PROXY_HOPS (0), BUSINESS_QUOTA (50000),
ALLOWED_ORIGINS, PUBLIC_BASE_URL, MAIL_OUTBOX, MAIL_FROM; billing (docs/billing.md):
STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE, STRIPE_PRICE_SOLO, STRIPE_PRICE_TEAM,
STRIPE_PRICE_BUSINESS, STRIPE_PRICE_CREDITS_SMALL, STRIPE_PRICE_CREDITS_LARGE,
CREDITS_SMALL_DOCUMENTS (100), CREDITS_LARGE_DOCUMENTS (1000).
`

// Exit codes: 0 report printed, 1 error, 2 usage, 3 unreadable file, 4
// deadline, 5 the gate (gate.go). A batch exits 0 when every file has a report, 3 when some file
// was refused (not_a_pdf, analysis_timeout), 1 when some path could not be
// read (1 wins).
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
// install, so a receipt printed here verifies through its API. One FILE
// prints the API's body; folders, several paths or "-" run a batch.
func Inspect(secret func() ([]byte, error)) Command {
	return InspectLocal(Local{Secret: secret})
}

// InspectLocal is Inspect with the install's store for --account.
func InspectLocal(l Local) Command {
	return func(args []string, stdout, stderr io.Writer) int {
		return inspect(args, l, stdout, stderr)
	}
}

func inspect(args []string, l Local, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	redact := fs.Bool("redact", false, "apply ?redact=payload")
	triage := fs.Bool("triage", false, "triage mode: no per-page content walk")
	timing := fs.Bool("timing", false, "add the timing block")
	policyJSON := fs.String("policy", "", "verdict policy as a JSON object")
	jobs := fs.Int("jobs", defaultJobs(), "files analysed at once in a batch")
	formatName := fs.String("format", "json", "json, or text for a person")
	issuer := fs.String("issuer", "", "match against this issuer's baseline")
	account := fs.String("account", "", "with --issuer: this account's own baselines first")
	failOn := fs.String("fail-on", "", "exit 5 when a file's band reaches this (low, elevated, high)")
	paths, ok := parse(fs, args)
	form, known := parseFormat(*formatName)
	if !ok || len(paths) == 0 || *jobs < 1 || !known {
		fmt.Fprint(stderr, Usage)
		return exitUsage
	}
	g, err := newGate(*failOn)
	if err != nil {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
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
	if !isBatch(paths) {
		data, err := os.ReadFile(paths[0])
		if err != nil {
			fmt.Fprintf(stderr, "doctrust: %v\n", err)
			return exitError
		}
		req.Data = data
	}
	if *account != "" && *issuer == "" {
		fmt.Fprintln(stderr, "doctrust: --account names whose baselines --issuer uses; give --issuer too")
		return exitUsage
	}
	if *issuer != "" && !*triage { // triage mode ignores the issuer, as the API does
		if !issuerSlug.MatchString(*issuer) {
			fmt.Fprintf(stderr, "doctrust: --issuer %q: lower-case letters, digits and hyphens, starting with a letter or a digit, at most 64 characters\n", *issuer)
			return exitUsage
		}
		resolve, done, err := l.resolver(context.Background(), *issuer, *account)
		if err != nil {
			fmt.Fprintf(stderr, "doctrust: %v\n", err)
			return exitError
		}
		defer done()
		req.Issuer, req.Baselines = *issuer, resolve
	}
	key, err := l.Secret()
	if err != nil {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
		return exitError
	}
	pl := &analysis.Pipeline{Secret: key}
	if isBatch(paths) {
		b := newBatch(paths, *jobs, stdout, stderr, true, func(ctx context.Context, data []byte) ([]byte, string, error) {
			r := req
			r.Data = data
			res, err := pl.Inspect(ctx, r)
			if err != nil {
				return nil, "", err
			}
			g.see(res.Unredacted)
			return res.Body, string(res.Unredacted.Summary.RiskBand), nil
		})
		if form == formatText {
			st := styleFor(stdout)
			b.text = func(path string, body []byte) ([]byte, error) { return inspectText(path, body, st) }
		}
		return g.exit(b.run())
	}
	res, err := pl.Inspect(context.Background(), req)
	if code := failed(err, stderr); code != 0 {
		return code
	}
	g.see(res.Unredacted)
	if form == formatText {
		return g.exit(printedText(stdout, stderr, func() ([]byte, error) { return inspectText(paths[0], res.Body, styleFor(stdout)) }))
	}
	return g.exit(printed(stdout, res.Body))
}

// Compare prints the CompareReport /compare returns for two PDFs.
func Compare(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	formatName := fs.String("format", "json", "json, or text for a person")
	args, ok := parse(fs, args)
	form, known := parseFormat(*formatName)
	if !ok || len(args) != 2 || !known {
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
	if err != nil {
		err = httpapi.CompareRefused(err)
	}
	if code := failed(err, stderr); code != 0 {
		return code
	}
	if form == formatText {
		return printedText(stdout, stderr, func() ([]byte, error) { return compareText(args[0], args[1], body, styleFor(stdout)) })
	}
	return printed(stdout, body)
}

// Metadata prints the MetadataReport POST /api/v1/metadata returns, or
// JSON Lines of them for a batch. It needs no store: a listing carries no
// receipt.
func Metadata(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("metadata", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jobs := fs.Int("jobs", defaultJobs(), "files analysed at once in a batch")
	paths, ok := parse(fs, args)
	if !ok || len(paths) == 0 || *jobs < 1 {
		fmt.Fprint(stderr, Usage)
		return exitUsage
	}
	pl := &analysis.Pipeline{}
	if isBatch(paths) {
		return newBatch(paths, *jobs, stdout, stderr, false, func(ctx context.Context, data []byte) ([]byte, string, error) {
			l, err := pl.Metadata(ctx, data)
			if err != nil {
				return nil, "", err
			}
			return l.Body, "", nil
		}).run()
	}
	data, err := os.ReadFile(paths[0])
	if err != nil {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
		return exitError
	}
	l, err := pl.Metadata(context.Background(), data)
	if code := failed(err, stderr); code != 0 {
		return code
	}
	return printed(stdout, l.Body)
}

// Stdin is where "-" reads its list of paths (a variable for tests).
var Stdin io.Reader = os.Stdin

func newBatch(paths []string, jobs int, stdout, stderr io.Writer, bands bool, fn analyse) *batch {
	return &batch{paths: paths, stdin: Stdin, jobs: jobs, analyse: fn, bands: bands,
		stdout: stdout, stderr: stderr, progress: isTerminal(stderr), gc: true, now: time.Now}
}

// isBatch: anything but one path naming a file (a folder, "-", several
// paths) prints JSON Lines. A single path that cannot be read stays a
// single-file run, so its error is the plain one.
func isBatch(paths []string) bool {
	if len(paths) != 1 || paths[0] == "-" {
		return true
	}
	fi, err := os.Stat(paths[0])
	return err == nil && fi.IsDir()
}

// parse lets paths and flags come in any order ("-" is a path; after "--"
// everything is).
func parse(fs *flag.FlagSet, args []string) ([]string, bool) {
	var paths []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return paths, true
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(paths, rest...), true
		}
		paths, args = append(paths, rest[0]), rest[1:]
	}
}

func printedText(stdout, stderr io.Writer, text func() ([]byte, error)) int {
	b, err := text()
	if err != nil {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
		return exitError
	}
	stdout.Write(b)
	return 0
}

func printed(stdout io.Writer, body []byte) int {
	stdout.Write(body)
	fmt.Fprintln(stdout)
	return 0
}

// failed prints an analysis error as the API's error body and returns the
// exit code (0 when err is nil).
func failed(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	code, body := errorBody(err)
	if exit, ok := refusals[httpapi.Code(code)]; ok {
		fmt.Fprintf(stderr, "%s\n", body)
		return exit
	}
	fmt.Fprintf(stderr, "doctrust: %v\n", err)
	return exitError
}

// refusals are the codes by which the service refuses a document (the
// status table's 422s of an analysis), with the exit code of each. Any
// other error is the run's fault, exit 1.
var refusals = map[httpapi.Code]int{
	httpapi.NotAPDF:         exitUnreadable,
	httpapi.AnalysisTimeout: exitDeadline,
}

const codeReadError = string(httpapi.ReadError)

// errorBody is the error object of an analysis error: the API's error body
// from its one table (internal/httpapi/errors.go), code and message.
func errorBody(err error) (string, []byte) {
	var re *readError
	if errors.As(err, &re) {
		err = httpapi.E(httpapi.ReadError, "message", "The file could not be read: "+re.Error()+".")
	}
	code, body := httpapi.Body(err)
	b, _ := json.Marshal(body)
	return string(code), b
}
