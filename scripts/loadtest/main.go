// Command loadtest drives `doctrust serve`'s handler on loopback with a
// bounded number of requests in two phases and prints a markdown report
// (make loadtest; numbers go in docs/performance.md):
//
//   - within capacity: no more requests in flight than workers plus queue;
//     every request must answer 200;
//   - overload: many more in flight; every request must answer 200 or
//     503 busy with Retry-After: 5, and nothing else (no 5xx, no timeout).
//
// It exits 1 when either rule is broken. The server is built exactly as
// `doctrust serve` builds it (config.Server, embedded store in a temporary
// DATA_DIR), with the anonymous limit lifted so the pool is what is tested.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/internal/config"
	"github.com/doctrust/doctrust/internal/httpapi"
)

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "folder of sample documents")
	workers := flag.Int("workers", 2, "WORKERS")
	queue := flag.Int("queue", 4, "QUEUE")
	n := flag.Int("n", 400, "requests per phase")
	over := flag.Int("overload", 48, "requests in flight in the overload phase")
	flag.Parse()

	docs, err := samples(*corpus)
	if err != nil || len(docs) == 0 {
		fmt.Fprintf(os.Stderr, "loadtest: no sample documents under %s: %v\n", *corpus, err)
		os.Exit(1)
	}
	dataDir, err := os.MkdirTemp("", "doctrust-loadtest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(dataDir)
	env := map[string]string{
		"DATA_DIR": dataDir, "WORKERS": fmt.Sprint(*workers), "QUEUE": fmt.Sprint(*queue),
		"ANON_LIMIT_PER_HOUR": "100000000", "RECEIPT_SECRET": "loadtest",
	}
	svc, err := config.Server(context.Background(), config.Local, func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
	defer svc.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
	srv := &http.Server{Handler: httpapi.New(svc.HTTP)}
	go srv.Serve(ln)
	defer srv.Close()
	url := "http://" + ln.Addr().String() + "/api/v1/inspect"

	fmt.Printf("# Load test on loopback\n\n%s/%s, %d CPUs, Go %s; WORKERS=%d QUEUE=%d; %d sample documents\n\n",
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), *workers, *queue, len(docs))
	fmt.Println("| phase | in flight | requests | 200 | 503 busy | other | req/s | p50 ms | p95 ms | p99 ms | max ms |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	ok := true
	within := phase(url, docs, *n, *workers+*queue)
	within.print("within capacity")
	if within.other > 0 || within.busy > 0 {
		ok = false
		fmt.Fprintf(os.Stderr, "loadtest: within capacity, %d busy and %d other answers (%v)\n", within.busy, within.other, within.otherCodes)
	}
	overload := phase(url, docs, *n, *over)
	overload.print("overload")
	if overload.other > 0 || overload.busy == 0 {
		ok = false
		fmt.Fprintf(os.Stderr, "loadtest: overload gave %d busy and %d other answers (%v)\n", overload.busy, overload.other, overload.otherCodes)
	}
	fmt.Println()
	if !ok {
		os.Exit(1)
	}
}

// samples are the readable corpus PDFs under 1 MiB, read once into
// memory; files the engine refuses (422) would only blur the count.
func samples(dir string) ([][]byte, error) {
	var docs [][]byte
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(strings.ToLower(p), ".pdf") {
			return nil
		}
		if fi, err := d.Info(); err != nil || fi.Size() > 1<<20 {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		if _, err := engine.Inspect(context.Background(), b, engine.Options{Triage: true}); err == nil {
			docs = append(docs, b)
		}
		return nil
	})
	return docs, err
}

type result struct {
	requests, inFlight, ok, busy, other int
	otherCodes                          map[int]int
	elapsed                             time.Duration
	latencies                           []time.Duration
}

func phase(url string, docs [][]byte, n, inFlight int) *result {
	res := &result{requests: n, inFlight: inFlight, otherCodes: map[int]int{}}
	var mu sync.Mutex
	jobs := make(chan int)
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: inFlight}}
	start := time.Now()
	for range inFlight {
		wg.Go(func() {
			for i := range jobs {
				t0 := time.Now()
				code, retry := post(client, url, docs[i%len(docs)])
				d := time.Since(t0)
				mu.Lock()
				res.latencies = append(res.latencies, d)
				switch {
				case code == 200:
					res.ok++
				case code == 503 && retry == "5":
					res.busy++
				default:
					res.other++
					res.otherCodes[code]++
				}
				mu.Unlock()
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	res.elapsed = time.Since(start)
	return res
}

// post returns the status (0 for a transport failure) and Retry-After.
func post(c *http.Client, url string, doc []byte) (int, string) {
	resp, err := c.Post(url, "application/pdf", bytes.NewReader(doc))
	if err != nil {
		return 0, ""
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Retry-After")
}

func (r *result) print(name string) {
	sort.Slice(r.latencies, func(i, j int) bool { return r.latencies[i] < r.latencies[j] })
	q := func(p float64) string {
		d := r.latencies[min(int(p*float64(len(r.latencies))), len(r.latencies)-1)]
		return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000)
	}
	fmt.Printf("| %s | %d | %d | %d | %d | %d | %.0f | %s | %s | %s | %s |\n", name, r.inFlight, r.requests, r.ok, r.busy, r.other,
		float64(r.requests)/r.elapsed.Seconds(), q(0.50), q(0.95), q(0.99), q(1))
}
