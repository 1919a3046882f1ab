// Command lambdasize measures each Lambda function of functions/ the way
// the Lambda service would start it, on this machine: the binary's size
// (linux/arm64 as deployed, and native), the init duration (process start
// to its first request for work from the Runtime API), and the peak
// resident memory after answering one API Gateway event, the largest the
// function is built for. It prints a markdown report; template.yaml's
// MemorySize values come from it (docs/performance.md).
//
//	go run ./scripts/lambdasize            # or: make lambda-size
//
// A stand-in of the Lambda Runtime API on loopback serves the events;
// DynamoDB Local (make tools) backs the store for the invocation. Without
// it only sizes and init durations are measured. RUNS sets the number of
// cold starts per function (default 10), CORPUS the corpus root.
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/doctrust/doctrust/internal/ddblocal"
	"github.com/doctrust/doctrust/scripts/internal/bench"
)

// function is one Lambda main and the event its memory is measured on.
type function struct {
	name  string
	event func() ([]byte, string, error) // event JSON, what it carries
}

func main() {
	corpus := envOr("CORPUS", "../shared/corpus")
	runs, _ := strconv.Atoi(envOr("RUNS", "10"))
	largestPDF := filepath.Join(corpus, "pdf-redaction/x-ray/no_bad_redactions.5.5.pdf")
	largestImage := filepath.Join(corpus, "image/libavif/dog_exif_extended_xmp_icc.jpg")
	upload := func(route, path string) func() ([]byte, string, error) {
		return func() ([]byte, string, error) { return uploadEvent(route, path) }
	}
	functions := []function{
		{"inspect", upload("inspect", largestPDF)},
		{"metadata", upload("metadata", largestImage)},
		// /compare needs an account's key, which this stand-in has no
		// account for: init only. It reads both files less deeply than
		// one inspection does (docs/performance.md).
		{"compare", nil},
		{"accounts", healthEvent},
		{"billing", healthEvent},
	}
	if _, err := os.Stat("functions/ingest"); err == nil {
		functions = append(functions, function{"ingest", nil})
	}
	// The webhook sweep's event is a schedule's, which carries nothing:
	// init only, like ingest.
	if _, err := os.Stat("functions/webhooks"); err == nil {
		functions = append(functions, function{"webhooks", nil})
	}

	tmp, err := os.MkdirTemp("", "lambdasize")
	check(err)
	defer os.RemoveAll(tmp)
	endpoint, stop, ddbErr := ddblocal.Start()
	if ddbErr == nil {
		defer stop()
	}

	fmt.Printf("# Lambda functions measured locally\n\n%s, %s, load average %s, %d cold starts each.\n",
		time.Now().UTC().Format("2006-01-02"), bench.CPUModel(), bench.Loadavg(), runs)
	if ddbErr != nil {
		fmt.Printf("\nDynamoDB Local unavailable (%v): no invocation, no peak memory.\n", ddbErr)
	}
	fmt.Print("\n| function | arm64 binary | native binary | init median | init p90 | peak RSS after one event | event |\n|---|---:|---:|---:|---:|---:|---|\n")
	for _, f := range functions {
		armSize := build(f.name, filepath.Join(tmp, f.name+"-arm64"), "linux", "arm64")
		bin := filepath.Join(tmp, f.name)
		nativeSize := build(f.name, bin, "", "")
		var inits []time.Duration
		for range runs {
			d, _, err := coldStart(bin, lambdaEnv("", f.name), nil)
			check(err)
			inits = append(inits, d)
		}
		peak, what := "–", "–"
		if ddbErr == nil && f.event != nil {
			ev, carries, err := f.event()
			check(err)
			_, rss, err := coldStart(bin, lambdaEnv(endpoint, f.name), ev)
			check(err)
			peak, what = fmt.Sprintf("%.1f MiB", float64(rss)/(1<<20)), carries
		}
		fmt.Printf("| %s | %.1f MiB | %.1f MiB | %s | %s | %s | %s |\n", f.name,
			float64(armSize)/(1<<20), float64(nativeSize)/(1<<20), bench.Ms(bench.Median(inits)), bench.Ms(bench.Pct(inits, 90)), peak, what)
	}
}

// build compiles functions/<name> as sam build does (trimmed, no symbols)
// and returns the binary's size.
func build(name, out, goos, goarch string) int64 {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./functions/"+name)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if goos != "" {
		cmd.Env = append(cmd.Env, "GOOS="+goos, "GOARCH="+goarch)
	}
	cmd.Stderr = os.Stderr
	check(cmd.Run())
	fi, err := os.Stat(out)
	check(err)
	return fi.Size()
}

// lambdaEnv is what template.yaml and the Lambda service set. Without an
// endpoint the store is configured as on AWS and never reached: init does
// not call DynamoDB.
func lambdaEnv(endpoint, name string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir(),
		"AWS_REGION=us-east-1", "AWS_ACCESS_KEY_ID=lambdasize", "AWS_SECRET_ACCESS_KEY=lambdasize",
		"AWS_LAMBDA_FUNCTION_NAME=" + name, "AWS_LAMBDA_FUNCTION_MEMORY_SIZE=1024",
		"STORE=dynamodb", "RECEIPT_SECRET=lambdasize", "TABLE_PREFIX=lambdasize_", "MAX_UPLOAD_MB=10",
		"INGEST_SECRET=lambdasize", "INGEST_MAIL_DOMAIN=ingest.example",
	}
	if endpoint != "" {
		env = append(env, "DYNAMODB_ENDPOINT="+endpoint)
	}
	return env
}

// coldStart starts bin against a Runtime API stand-in and returns the time
// to its first "next invocation" request. With an event it serves that one
// event and returns the process's peak RSS (VmHWM) once the response came.
func coldStart(bin string, env []string, event []byte) (time.Duration, int64, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, 0, err
	}
	ready := make(chan time.Time, 1)
	answered := make(chan string, 1)
	var served atomic.Bool
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/invocation/next"):
			select {
			case ready <- time.Now():
			default:
			}
			if event == nil || served.Swap(true) {
				<-r.Context().Done()
				return
			}
			w.Header().Set("Lambda-Runtime-Aws-Request-Id", "lambdasize-1")
			w.Header().Set("Lambda-Runtime-Deadline-Ms", strconv.FormatInt(time.Now().Add(15*time.Second).UnixMilli(), 10))
			w.Header().Set("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:us-east-1:000000000000:function:lambdasize")
			w.Write(event)
		default: // response, invocation error or init error
			body, _ := io.ReadAll(r.Body)
			w.WriteHeader(http.StatusAccepted)
			var resp struct{ StatusCode int }
			json.Unmarshal(body, &resp)
			answered <- fmt.Sprintf("%s %d %.200s", r.URL.Path, resp.StatusCode, body)
		}
	})}
	go srv.Serve(ln)
	defer srv.Close()

	cmd := exec.Command(bin)
	cmd.Env = append(env, "AWS_LAMBDA_RUNTIME_API="+ln.Addr().String())
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	var initDone time.Duration
	select {
	case t := <-ready:
		initDone = t.Sub(start)
	case a := <-answered:
		return 0, 0, fmt.Errorf("%s failed its init: %s %s", bin, a, stderr.String())
	case <-time.After(30 * time.Second):
		return 0, 0, fmt.Errorf("%s: no request for work within 30 s: %s", bin, stderr.String())
	}
	if event == nil {
		return initDone, 0, nil
	}
	select {
	case a := <-answered:
		if !strings.Contains(a, "/response 200 ") {
			return 0, 0, fmt.Errorf("%s answered %s", bin, a)
		}
	case <-time.After(30 * time.Second):
		return 0, 0, fmt.Errorf("%s: no answer within 30 s", bin)
	}
	rss, err := peakRSS(cmd.Process.Pid)
	return initDone, rss, err
}

// peakRSS reads VmHWM, the resident high-water mark, in bytes.
func peakRSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmHWM for %d", pid)
}

// uploadEvent is internal/lambdahttp's recorded API Gateway event for the
// route with a multipart body of the file, base64 as API Gateway sends it.
func uploadEvent(route, path string) ([]byte, string, error) {
	ev, err := recorded(route)
	if err != nil {
		return nil, "", err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", filepath.Base(path))
	fw.Write(data)
	mw.Close()
	headers := ev["headers"].(map[string]any)
	headers["content-type"] = mw.FormDataContentType()
	headers["content-length"] = strconv.Itoa(body.Len())
	ev["body"], ev["isBase64Encoded"] = base64.StdEncoding.EncodeToString(body.Bytes()), true
	out, err := json.Marshal(ev)
	return out, fmt.Sprintf("%s (%.1f MiB)", filepath.Base(path), float64(len(data))/(1<<20)), err
}

func healthEvent() ([]byte, string, error) {
	b, err := os.ReadFile("internal/lambdahttp/testdata/apigw-v2-health.json")
	return b, "GET /api/v1/health", err
}

func recorded(route string) (map[string]any, error) {
	b, err := os.ReadFile("internal/lambdahttp/testdata/apigw-v2-" + route + ".json")
	if err != nil {
		return nil, err
	}
	var ev map[string]any
	return ev, json.Unmarshal(b, &ev)
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "lambdasize:", err)
		os.Exit(1)
	}
}
