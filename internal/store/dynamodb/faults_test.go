package dynamodb

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/doctrust/doctrust/internal/ddblocal"
	"github.com/doctrust/doctrust/internal/store"
)

// faultProxy stands between the store and DynamoDB Local and plays its
// outages: paused (connections accepted, nothing answered, as a stopped
// process or a black-holed network does) and down (connections refused).
type faultProxy struct {
	t      *testing.T
	target string
	mu     sync.Mutex
	ln     net.Listener
	addr   string
	paused bool
	conns  []net.Conn
}

func newFaultProxy(t *testing.T, endpoint string) *faultProxy {
	p := &faultProxy{t: t, target: strings.TrimPrefix(endpoint, "http://")}
	p.listen("127.0.0.1:0")
	t.Cleanup(func() { p.down() })
	return p
}

func (p *faultProxy) listen(addr string) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		p.t.Fatal(err)
	}
	p.mu.Lock()
	p.ln, p.addr = ln, ln.Addr().String()
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			p.conns = append(p.conns, c)
			paused := p.paused
			p.mu.Unlock()
			if !paused {
				go p.forward(c)
			}
		}
	}()
}

func (p *faultProxy) forward(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	p.conns = append(p.conns, up)
	p.mu.Unlock()
	go io.Copy(up, c)
	io.Copy(c, up)
	c.Close()
	up.Close()
}

func (p *faultProxy) endpoint() string { return "http://" + p.addr }

// dropConns closes every connection, so pooled ones are not reused.
func (p *faultProxy) dropConns() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *faultProxy) pause() {
	p.dropConns()
	p.mu.Lock()
	p.paused = true
	p.mu.Unlock()
}

func (p *faultProxy) resume() {
	p.dropConns()
	p.mu.Lock()
	p.paused = false
	p.mu.Unlock()
}

func (p *faultProxy) down() {
	p.mu.Lock()
	p.ln.Close()
	p.mu.Unlock()
	p.dropConns()
}

func (p *faultProxy) up() { p.listen(p.addr) }

var faultPrefixes int

func openBehind(t *testing.T, p *faultProxy) *Store {
	t.Helper()
	faultPrefixes++
	s, err := Open(t.Context(), Config{Endpoint: p.endpoint(), Prefix: fmt.Sprintf("fault%d_", faultPrefixes)})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTables(t.Context()); err != nil {
		t.Fatal(err)
	}
	return s
}

// wantUnavailable calls the store and checks it answers ErrUnavailable
// within the 5 s the API promises.
func wantUnavailable(t *testing.T, what string, s *Store) {
	t.Helper()
	start := time.Now()
	_, err := s.Account(t.Context(), "acct_x")
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("%s: the call took %v", what, d)
	}
	if !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("%s: %v, want ErrUnavailable", what, err)
	}
}

func wantAnswer(t *testing.T, what string, s *Store) {
	t.Helper()
	if _, err := s.Account(t.Context(), "acct_x"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("%s: %v, want an answer (not found)", what, err)
	}
}

func TestStorePausedOrDown(t *testing.T) {
	p := newFaultProxy(t, ddblocal.Endpoint(t))
	s := openBehind(t, p)
	wantAnswer(t, "healthy", s)
	p.pause()
	wantUnavailable(t, "paused", s)
	p.resume()
	wantAnswer(t, "resumed", s)
	p.down()
	wantUnavailable(t, "down", s)
	p.up()
	wantAnswer(t, "back up", s)
}

// TestMissingTableRecreatedLocally: DynamoDB Local restarted empty. The
// first call reports the store unavailable and recreates the tables; the
// next one is answered, with no restart of the service.
func TestMissingTableRecreatedLocally(t *testing.T) {
	p := newFaultProxy(t, ddblocal.Endpoint(t))
	s := openBehind(t, p)
	for _, tb := range Tables() {
		if _, err := s.db.DeleteTable(t.Context(), &dynamodb.DeleteTableInput{TableName: aws.String(s.prefix + tb.Name)}); err != nil {
			t.Fatal(err)
		}
	}
	wantUnavailable(t, "tables gone", s)
	wantAnswer(t, "tables recreated", s)
	// On AWS (no endpoint) the tables are the deployment's: reported only.
	s.local = false
	if _, err := s.db.DeleteTable(t.Context(), &dynamodb.DeleteTableInput{TableName: aws.String(s.accounts)}); err != nil {
		t.Fatal(err)
	}
	wantUnavailable(t, "table gone on AWS", s)
	wantUnavailable(t, "still gone on AWS", s)
}
