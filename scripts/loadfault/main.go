// Command loadfault measures the service's behaviour under pressure, the
// figures of issue 27 side by side in one run, against a server it starts
// itself (`bin/doctrust serve`, built by scripts/loadfault.sh):
//
//	memory     UPLOADS concurrent anonymous uploads of UPLOAD_MB each: peak
//	           RSS of the server and the answers (200 or 503 busy, no other)
//	goodput    WORKERS clients, then OVERLOAD x WORKERS clients, each in a
//	           closed loop on a small PDF for PHASE seconds: successes per
//	           second, and the overload's as a share of capacity's; with
//	           BACKOFF set, once more with clients that wait Retry-After
//	clients    DISCONNECTS uploads cut short and TRICKLES that stop sending:
//	           how many answers were 5xx (should be none)
//	hostile    a 4 KB PDF listing a million xref entries and a docx of
//	           100,000 entries: time to the answer and its status
//	store      (STORE_FAULT=1, needs DynamoDB Local from `make tools`) the
//	           server on DynamoDB behind a proxy that is then paused and
//	           stopped: time to the 503 store_unavailable answer
//
// It prints a markdown table on stdout; progress goes to stderr. Numbers
// from a shared or busy machine are not the service's: retake them on a
// quiet one (docs/reliability.md).
package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/zlib"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/doctrust/doctrust/internal/ddblocal"
)

func env(k string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(k)); err == nil && v >= 0 {
		return v
	}
	return def
}

func logf(format string, a ...any) { fmt.Fprintf(os.Stderr, "loadfault: "+format+"\n", a...) }

// server is a running `doctrust serve`.
type server struct {
	cmd *exec.Cmd
	url string
}

func start(bin string, extra ...string) (*server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	data, err := os.MkdirTemp("", "loadfault-")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port), "DATA_DIR="+data,
		"RECEIPT_SECRET=loadfault-dummy-secret-not-for-production", "ANON_LIMIT_PER_HOUR=1000000000", "TRUSTED_PROXY_HOPS=1",
		"WORKERS="+strconv.Itoa(env("WORKERS", 2)), "QUEUE="+strconv.Itoa(env("QUEUE", 16)))
	cmd.Env = append(cmd.Env, extra...)
	// The server's log goes to the null device itself: io.Discard would
	// be a pipe this process reads, a read for every request the server
	// logs, on the cores the server is measured on.
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, nil
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, url: "http://127.0.0.1:" + strconv.Itoa(port)}
	for range 200 {
		if resp, err := http.Get(s.url + "/api/v1/health"); err == nil {
			resp.Body.Close()
			return s, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.stop()
	return nil, fmt.Errorf("server did not start: %s", out.String())
}

func (s *server) stop() {
	s.cmd.Process.Kill()
	s.cmd.Wait()
}

func (s *server) rssKiB() int {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return 0
}

// samplePeak records the server's peak RSS until stop is closed.
func (s *server) samplePeak(stop <-chan struct{}) *atomic.Int64 {
	var peak atomic.Int64
	go func() {
		for {
			if n := int64(s.rssKiB()); n > peak.Load() {
				peak.Store(n)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return &peak
}

var client = &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 1024}}

func post(url string, body []byte) (int, error) {
	code, _, err := postRetry(url, body)
	return code, err
}

// postRetry is post that also returns the answer's Retry-After.
func postRetry(url string, body []byte) (int, time.Duration, error) {
	req, err := http.NewRequest(http.MethodPost, url+"/api/v1/inspect?mode=triage", bytes.NewReader(body))
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Content-Type", "application/pdf")
	req.Header.Set("X-Forwarded-For", clientAddress())
	resp, err := client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	return resp.StatusCode, time.Duration(wait) * time.Second, nil
}

// lastClient numbers the callers' addresses.
var lastClient atomic.Uint32

// clientAddress is a new caller's address, which the server reads from
// X-Forwarded-For (TRUSTED_PROXY_HOPS=1): the run's load comes from many
// callers, as in service, not from one address, whose bodies the server
// reads only a few at a time (docs/reliability.md, "Slow uploads").
func clientAddress() string {
	n := lastClient.Add(1)
	return fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255)
}

// bigPDF is a one-page PDF carrying n bytes of incompressible stream data.
func bigPDF(n int) []byte {
	junk := make([]byte, n)
	rand.Read(junk)
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n")
	fmt.Fprintf(&b, "4 0 obj\n<< /Length %d >>\nstream\n", n)
	b.Write(junk)
	b.WriteString("\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n")
	return b.Bytes()
}

type counts struct {
	mu sync.Mutex
	m  map[string]int
}

func (c *counts) add(code int, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]int{}
	}
	if err != nil {
		c.m["error"]++
		return
	}
	c.m[strconv.Itoa(code)]++
}

func (c *counts) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var parts []string
	for _, k := range []string{"200", "400", "408", "413", "422", "429", "500", "503", "error"} {
		if c.m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s: %d", k, c.m[k]))
		}
	}
	return strings.Join(parts, ", ")
}

func (c *counts) fivexx() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for k, v := range c.m {
		if strings.HasPrefix(k, "5") && k != "503" {
			n += v
		}
	}
	return n
}

func memory(s *server) []string {
	n, mb := env("UPLOADS", 100), env("UPLOAD_MB", 10)
	body := bigPDF(mb<<20 - 4096)
	logf("memory: %d concurrent uploads of %d MB", n, mb)
	stop := make(chan struct{})
	peak := s.samplePeak(stop)
	var c counts
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() { c.add(post(s.url, body)) })
	}
	wg.Wait()
	close(stop)
	return []string{fmt.Sprintf("| memory | %d uploads of %d MB at once | peak RSS %d MB | %s |", n, mb, peak.Load()>>10, c.String())}
}

func goodput(s *server, small []byte) []string {
	workers, over, phase := env("WORKERS", 2), env("OVERLOAD", 25), env("PHASE", 20)
	// run keeps clients in a closed loop; with backoff a refused client
	// waits the answer's Retry-After (at most what is left of the phase)
	// before it sends again, as SPEC.md asks of clients.
	run := func(clients int, backoff bool) (float64, *counts) {
		var c counts
		var ok atomic.Int64
		end := time.Now().Add(time.Duration(phase) * time.Second)
		var wg sync.WaitGroup
		for range clients {
			wg.Go(func() {
				for time.Now().Before(end) {
					code, wait, err := postRetry(s.url, small)
					c.add(code, err)
					if code == 200 {
						ok.Add(1)
					}
					if backoff && wait > 0 {
						time.Sleep(min(wait, time.Until(end)))
					}
				}
			})
		}
		wg.Wait()
		return float64(ok.Load()) / float64(phase), &c
	}
	logf("goodput: %d clients, then %d, %d s each", workers, workers*over, phase)
	capRate, cc := run(workers, false)
	overRate, oc := run(workers*over, false)
	share := func(rate float64) float64 {
		if capRate > 0 {
			return rate / capRate * 100
		}
		return 0
	}
	rows := []string{
		fmt.Sprintf("| goodput at capacity | %d clients, closed loop, %d s | %.1f successes/s | %s |", workers, phase, capRate, cc.String()),
		fmt.Sprintf("| goodput at %dx | %d clients, closed loop, %d s | %.1f successes/s (%.0f%% of capacity) | %s |", over, workers*over, phase, overRate, share(overRate), oc.String()),
	}
	if os.Getenv("BACKOFF") != "" {
		logf("goodput: %d clients honouring Retry-After, %d s", workers*over, phase)
		rate, bc := run(workers*over, true)
		rows = append(rows, fmt.Sprintf("| goodput at %dx, Retry-After honoured | %d clients, closed loop, %d s | %.1f successes/s (%.0f%% of capacity) | %s |",
			over, workers*over, phase, rate, share(rate), bc.String()))
	}
	return rows
}

// rawUpload sends headers declaring length bytes, then sent bytes, then
// either closes its side (cut) or waits for the answer (trickle).
func rawUpload(url string, length int, sent []byte, cut bool) (int, error) {
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/v1/inspect HTTP/1.1\r\nHost: x\r\nContent-Type: application/pdf\r\nX-Forwarded-For: %s\r\nContent-Length: %d\r\n\r\n", clientAddress(), length)
	conn.Write(sent)
	if cut {
		conn.(*net.TCPConn).CloseWrite()
	}
	conn.SetReadDeadline(time.Now().Add(90 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

func clientFaults(s *server) []string {
	cuts, trickles := env("DISCONNECTS", 20), env("TRICKLES", 4)
	logf("clients: %d cut short, %d trickling (these end at the minimum upload rate, after its 3 s grace)", cuts, trickles)
	var c counts
	var wg sync.WaitGroup
	start := time.Now()
	for range cuts {
		wg.Go(func() { c.add(rawUpload(s.url, 1<<20, []byte("%PDF-1.7\n"), true)) })
	}
	for range trickles {
		wg.Go(func() { c.add(rawUpload(s.url, 1<<20, []byte("%PDF-1.7\n"), false)) })
	}
	wg.Wait()
	return []string{fmt.Sprintf("| client faults | %d disconnects, %d stalled bodies | %d answers 5xx, all done in %.1f s | %s |",
		cuts, trickles, c.fivexx(), time.Since(start).Seconds(), c.String())}
}

func hostile(s *server) []string {
	var rows []string
	for _, h := range []struct {
		name string
		data []byte
	}{{"4 KB PDF, 1,000,000 xref entries", millionXref()}, {"docx, 100,000 entries", manyEntries(100000)}} {
		start := time.Now()
		code, err := post(s.url, h.data)
		rows = append(rows, fmt.Sprintf("| hostile | %s (%d bytes) | %d ms | status %d %v |", h.name, len(h.data), time.Since(start).Milliseconds(), code, errText(err)))
	}
	return rows
}

func errText(err error) string {
	if err != nil {
		return err.Error()
	}
	return ""
}

func millionXref() []byte {
	const n = 1000000
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	o1 := b.Len()
	b.WriteString("1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n")
	o2 := b.Len()
	b.WriteString("2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n")
	rows := make([]byte, 0, n*4)
	for i := range n {
		off := o2
		if i == 1 {
			off = o1
		}
		rows = append(rows, 1, byte(off>>8), byte(off), 0)
	}
	var z bytes.Buffer
	w, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	w.Write(rows)
	w.Close()
	xo := b.Len()
	fmt.Fprintf(&b, "3 0 obj\n<< /Type /XRef /Size %d /W [1 2 1] /Root 1 0 R /Filter /FlateDecode /Length %d >>\nstream\n", n, z.Len())
	b.Write(z.Bytes())
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", xo)
	return b.Bytes()
}

func manyEntries(n int) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for name, body := range map[string]string{
		"[Content_Types].xml": `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"_rels/.rels":         `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml":   `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Invoice</w:t></w:r></w:p></w:body></w:document>`,
	} {
		f, _ := w.Create(name)
		f.Write([]byte(body))
	}
	for i := range n {
		w.CreateHeader(&zip.FileHeader{Name: strconv.FormatInt(int64(i), 36), Method: zip.Store})
	}
	w.Close()
	return b.Bytes()
}

// blackHole forwards to target until paused; paused, it accepts and never
// answers; stopped, it refuses connections.
type blackHole struct {
	ln     net.Listener
	target string
	paused atomic.Bool
	mu     sync.Mutex
	conns  []net.Conn
}

func (p *blackHole) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		p.conns = append(p.conns, c)
		p.mu.Unlock()
		if p.paused.Load() {
			continue
		}
		go func() {
			up, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				return
			}
			go io.Copy(up, c)
			io.Copy(c, up)
			c.Close()
			up.Close()
		}()
	}
}

func (p *blackHole) dropAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func storeFault(bin string, small []byte) []string {
	endpoint, stopDDB, err := ddblocal.Start()
	if err != nil {
		return []string{"| store | DynamoDB Local did not start | | " + err.Error() + " |"}
	}
	defer stopDDB()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil
	}
	p := &blackHole{ln: ln, target: strings.TrimPrefix(endpoint, "http://")}
	go p.serve()
	s, err := start(bin, "STORE=dynamodb", "DYNAMODB_ENDPOINT=http://"+ln.Addr().String(), "TABLE_PREFIX=loadfault_")
	if err != nil {
		return []string{"| store | server on DynamoDB did not start | | " + err.Error() + " |"}
	}
	defer s.stop()
	var rows []string
	measure := func(name string) {
		start := time.Now()
		resp, err := client.Post(s.url+"/api/v1/inspect?mode=triage", "application/pdf", bytes.NewReader(small))
		code, body := 0, ""
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			code, body = resp.StatusCode, strings.TrimSpace(string(b))
			if len(body) > 80 {
				body = body[:80]
			}
		}
		rows = append(rows, fmt.Sprintf("| store | %s | %d ms | status %d %s %s |", name, time.Since(start).Milliseconds(), code, body, errText(err)))
	}
	measure("DynamoDB healthy")
	p.paused.Store(true)
	p.dropAll()
	measure("DynamoDB paused (no answer)")
	p.ln.Close()
	p.dropAll()
	measure("DynamoDB stopped (refused)")
	return rows
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: loadfault <doctrust binary>")
		os.Exit(2)
	}
	bin := os.Args[1]
	s, err := start(bin)
	if err != nil {
		logf("%v", err)
		os.Exit(1)
	}
	defer s.stop()
	small := bigPDF(2048)
	// ONLY=goodput (or a comma list of memory, goodput, clients, hostile)
	// runs those phases alone: to repeat one figure, before and after a
	// change, on a machine whose load moves.
	only := map[string]bool{}
	for _, p := range strings.Split(os.Getenv("ONLY"), ",") {
		if p = strings.TrimSpace(p); p != "" {
			only[p] = true
		}
	}
	var rows []string
	for _, ph := range []struct {
		name string
		run  func() []string
	}{
		{"memory", func() []string { return memory(s) }},
		{"goodput", func() []string { return goodput(s, small) }},
		{"clients", func() []string { return clientFaults(s) }},
		{"hostile", func() []string { return hostile(s) }},
	} {
		if len(only) == 0 || only[ph.name] {
			rows = append(rows, ph.run()...)
		}
	}
	if os.Getenv("STORE_FAULT") == "1" {
		rows = append(rows, storeFault(bin, small)...)
	}
	fmt.Printf("WORKERS=%d QUEUE=%d, %s\n\n", env("WORKERS", 2), env("QUEUE", 16), time.Now().UTC().Format(time.RFC3339))
	fmt.Println("| Phase | Load | Figure | Answers |")
	fmt.Println("|---|---|---|---|")
	for _, r := range rows {
		fmt.Println(r)
	}
}
