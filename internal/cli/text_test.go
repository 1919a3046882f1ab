package cli

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/analysis"
)

var update = flag.Bool("update", false, "rewrite the golden text files")

// The statements the dashboard's browser test uses
// (scripts/fixtures/seeit/statement.py).
const (
	genuineStatement   = "../web/testdata/statement.pdf"
	forgedStatement    = "../web/testdata/statement-forged.pdf"
	rewrittenStatement = "../web/testdata/statement-rewritten.pdf"
)

// testdata is absolute: the batch test runs in its own folder.
var testdata, _ = filepath.Abs("testdata")

func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join(testdata, name)
	if *update {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test ./internal/cli -run %s -update):\n got: %q\nwant: %q", name, t.Name(), got, want)
	}
}

// TestInspectText: --format text prints the band, the score and each
// signal above info on one line with its severity, title and pages; no
// colour when stdout is not a terminal, the same lines coloured when it is.
func TestInspectText(t *testing.T) {
	code, out, errs := runBatch(t, "", testInspect, "--format", "text", forgedStatement)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden(t, "inspect-forged.txt", out)
	if strings.Contains(out, "\033[") {
		t.Error("colour on a buffer")
	}
	// The same report coloured, as on a terminal.
	res, err := testPipeline().Inspect(context.Background(), requestOf(t, forgedStatement))
	if err != nil {
		t.Fatal(err)
	}
	tty, err := inspectText(forgedStatement, res.Body, style{colour: true})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "inspect-forged-tty.txt", string(tty))
	if plain := regexp.MustCompile("\033\\[[0-9;]*m").ReplaceAllString(string(tty), ""); plain != out {
		t.Errorf("the coloured text is not the plain text coloured:\n%q\n%q", plain, out)
	}
	// A genuine file: the headline alone.
	_, out, _ = runBatch(t, "", testInspect, genuineStatement, "--format=text")
	golden(t, "inspect-genuine.txt", out)
	if code, _, _ := runBatch(t, "", testInspect, "--format", "yaml", genuineStatement); code != exitUsage {
		t.Errorf("--format yaml: exit %d, want 2", code)
	}
}

// TestCompareText: compare --format text names the relationship and each
// finding above info.
func TestCompareText(t *testing.T) {
	code, out, errs := runBatch(t, "", Compare, "--format", "text", genuineStatement, forgedStatement)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden(t, "compare-extends.txt", out)
	_, out, _ = runBatch(t, "", Compare, genuineStatement, rewrittenStatement, "--format", "text")
	golden(t, "compare-rewritten.txt", out)
	if _, out, _ = runBatch(t, "", Compare, genuineStatement, rewrittenStatement); !strings.HasPrefix(out, "{") {
		t.Errorf("JSON is not the default: %.60s", out)
	}
}

// TestBatchTextAndProgress: a batch in the text format prints each file's
// summary in order; stderr carries only the closing summary when it is not
// a terminal, and the progress line (files done, of how many, rate) before
// it when it is.
func TestBatchTextAndProgress(t *testing.T) {
	t.Chdir(folder(t))
	run := func(progress bool) (string, string) {
		var out, errb bytes.Buffer
		// The run starts at t0 and every later reading is 2 s on, so the
		// summary's time does not depend on how often progress was drawn.
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		clock := t0
		b := newBatch([]string{"."}, 1, &out, &errb, true, func(ctx context.Context, data []byte) ([]byte, string, error) {
			time.Sleep(30 * time.Millisecond) // long enough for a progress tick
			res, err := testPipeline().Inspect(ctx, requestData(data))
			if err != nil {
				return nil, "", err
			}
			return res.Body, string(res.Unredacted.Summary.RiskBand), nil
		})
		b.progress, b.every = progress, 5*time.Millisecond
		b.now = func() time.Time { now := clock; clock = t0.Add(2 * time.Second); return now }
		b.text = func(path string, body []byte) ([]byte, error) { return inspectText(path, body, style{}) }
		b.run()
		return out.String(), errb.String()
	}
	out, plain := run(false)
	golden(t, "batch.txt", out)
	golden(t, "batch-stderr.txt", plain)
	ttyOut, tty := run(true)
	if ttyOut != out {
		t.Errorf("stdout depends on progress:\n%s\n%s", ttyOut, out)
	}
	progress := regexp.MustCompile(`\r\033\[K(doctrust: \d of \d\+? files, [0-9.]+ files/s, [0-9.]+ s)?`)
	lines := progress.FindAllStringSubmatch(tty, -1)
	drawn := 0
	for _, m := range lines {
		if m[1] != "" {
			drawn++
		}
	}
	if drawn == 0 {
		t.Errorf("no progress line on the terminal: %q", tty)
	}
	if rest := progress.ReplaceAllString(tty, ""); rest != plain {
		t.Errorf("the terminal's stderr, progress aside, is not the summary alone:\n%q\n%q", rest, plain)
	}
	golden(t, "progress.txt", strings.Join([]string{
		progressLine(0, 12, true, 0),
		progressLine(3, 12, true, 1500*time.Millisecond),
		progressLine(40, 40, false, 8*time.Second),
	}, "\n")+"\n")
}

// TestTerminalDecision: progress and colour only on a terminal (a
// pseudo-terminal here), never on /dev/null, a pipe or a file; NO_COLOR
// turns the colour off.
func TestTerminalDecision(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, f := range map[string]*os.File{"/dev/null": null, "a pipe": w} {
		if isTerminal(f) || newBatch(nil, 1, f, f, true, nil).progress || styleFor(f).colour {
			t.Errorf("%s taken for a terminal", name)
		}
	}
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skip("no pseudo-terminal here:", err)
	}
	defer pty.Close()
	t.Setenv("NO_COLOR", "")
	if !isTerminal(pty) || !newBatch(nil, 1, pty, pty, true, nil).progress || !styleFor(pty).colour {
		t.Error("a terminal not recognised")
	}
	t.Setenv("NO_COLOR", "1")
	if styleFor(pty).colour {
		t.Error("colour despite NO_COLOR")
	}
}

func testPipeline() *analysis.Pipeline { return &analysis.Pipeline{Secret: []byte("batch-test")} }

func requestData(data []byte) analysis.Request { return analysis.Request{Data: data} }

func requestOf(t *testing.T, path string) analysis.Request {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return requestData(data)
}
