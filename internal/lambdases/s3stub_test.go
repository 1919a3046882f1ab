package lambdases

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// s3Stub is an in-process S3 for path-style requests
// (/<bucket>/<key>): GetObject, HeadObject and DeleteObject, with S3's
// error bodies. It remembers which keys were read.
type s3Stub struct {
	mu      sync.Mutex
	objects map[string][]byte // "bucket/key"
	reads   map[string]int
	deny    map[string]bool // answer 403 AccessDenied to reads
	srv     *httptest.Server
}

func newS3Stub(t *testing.T) *s3Stub {
	s := &s3Stub{objects: map[string][]byte{}, reads: map[string]int{}, deny: map[string]bool{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *s3Stub) put(bucket, key string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.objects[bucket+"/"+key] = data
}

func (s *s3Stub) has(bucket, key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.objects[bucket+"/"+key]
	return ok
}

func (s *s3Stub) readCount(bucket, key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reads[bucket+"/"+key]
}

// client is an S3 client for the stand-in, configured as S3_ENDPOINT
// configures the function's.
func (s *s3Stub) client() *s3.Client {
	return s3.New(s3.Options{Region: "eu-west-1", BaseEndpoint: aws.String(s.srv.URL), UsePathStyle: true,
		DisableLogOutputChecksumValidationSkipped: true, Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
}

func (s *s3Stub) serve(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ") {
		s3Error(w, http.StatusForbidden, "AccessDenied", "unsigned request")
		return
	}
	path := strings.TrimPrefix(r.URL.Path, "/")
	if !strings.Contains(path, "/") {
		s3Error(w, http.StatusBadRequest, "InvalidRequest", "path-style /bucket/key expected")
		return
	}
	s.mu.Lock()
	data, ok := s.objects[path]
	denied := s.deny[path]
	if r.Method == http.MethodGet {
		s.reads[path]++
	}
	if r.Method == http.MethodDelete {
		delete(s.objects, path)
	}
	s.mu.Unlock()
	switch r.Method {
	case http.MethodDelete:
		w.WriteHeader(http.StatusNoContent) // S3 answers 204 for a missing key too
	case http.MethodGet, http.MethodHead:
		switch {
		case denied:
			s3Error(w, http.StatusForbidden, "AccessDenied", "Access Denied")
		case !ok && r.Method == http.MethodHead:
			w.WriteHeader(http.StatusNotFound) // HEAD carries no body
		case !ok:
			s3Error(w, http.StatusNotFound, "NoSuchKey", "The specified key does not exist.")
		default:
			w.Header().Set("Content-Length", strconv.Itoa(len(data)))
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("ETag", fmt.Sprintf("%q", fmt.Sprint(len(data))))
			w.WriteHeader(http.StatusOK)
			if r.Method == http.MethodGet {
				w.Write(data)
			}
		}
	default:
		s3Error(w, http.StatusMethodNotAllowed, "MethodNotAllowed", "not in the stand-in")
	}
}

func s3Error(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(status)
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<Error><Code>%s</Code><Message>%s</Message><RequestId>stub</RequestId></Error>`, code, msg)
}

// TestStubSpeaksS3: the SDK reads, heads and deletes through the stand-in.
func TestStubSpeaksS3(t *testing.T) {
	s := newS3Stub(t)
	s.put("b", "k/1", []byte("hello"))
	c, ctx := s.client(), context.Background()
	head, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("b"), Key: aws.String("k/1")})
	if err != nil || *head.ContentLength != 5 {
		t.Fatalf("head: %v", err)
	}
	if _, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("b"), Key: aws.String("k/1")}); err != nil || s.has("b", "k/1") {
		t.Fatalf("delete: %v", err)
	}
	if _, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("b"), Key: aws.String("k/1")}); err == nil {
		t.Fatal("head of a deleted object succeeded")
	}
}
