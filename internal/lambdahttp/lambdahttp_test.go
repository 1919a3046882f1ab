package lambdahttp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"mime/multipart"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func loadEvent(t *testing.T, name string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var ev events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	return ev
}

func handler(t *testing.T) Handler {
	t.Helper()
	h, err := New(env(map[string]string{"RECEIPT_SECRET": "lambda-test"}))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestLambdaNeedsSecret(t *testing.T) {
	if _, err := New(env(nil)); err == nil {
		t.Fatal("a Lambda without RECEIPT_SECRET started")
	}
}

func TestHealthEvent(t *testing.T) {
	resp, err := handler(t)(context.Background(), loadEvent(t, "apigw-v2-health.json"))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %d %s", err, resp.StatusCode, resp.Body)
	}
}

// TestInspectBase64Multipart: a PDF uploaded as multipart arrives base64
// encoded in the event and must reach the engine byte for byte.
func TestInspectBase64Multipart(t *testing.T) {
	pdf, err := os.ReadFile("../../../shared/corpus/pdf-incremental/qpdf/incremental-2.pdf")
	if err != nil {
		t.Skip("corpus not present")
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("issuer", "acme-bank")
	fw, _ := mw.CreateFormFile("file", "statement.pdf")
	fw.Write(pdf)
	mw.Close()
	ev := loadEvent(t, "apigw-v2-inspect.json")
	ev.Headers["content-type"] = mw.FormDataContentType()
	ev.Headers["content-length"] = strconv.Itoa(body.Len())
	ev.Body = base64.StdEncoding.EncodeToString(body.Bytes())

	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	resp, err := handler(t)(ctx, ev)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %d %s", err, resp.StatusCode, resp.Body)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(resp.Body), &r); err != nil {
		t.Fatal(err)
	}
	doc := r["document"].(map[string]any)
	if doc["sizeBytes"] != float64(len(pdf)) || doc["revisions"] != float64(2) {
		t.Fatalf("upload did not arrive intact: %v", doc)
	}
	if r["receipt"].(map[string]any)["redacted"] != true || r["timing"] == nil || r["issuerBaseline"] == nil {
		t.Fatalf("query and parts not honoured: %v", r)
	}
}

// TestDeadlineReservesTimeToAnswer: the analysis deadline sits under the
// function's, so the client gets a 422 rather than a killed function.
func TestDeadlineReservesTimeToAnswer(t *testing.T) {
	ev := loadEvent(t, "apigw-v2-inspect.json")
	ev.Headers["content-type"] = "application/pdf"
	ev.Body = base64.StdEncoding.EncodeToString([]byte("%PDF-1.7\n"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Second) // less than the reserve
	defer cancel()
	resp, err := handler(t)(ctx, ev)
	if err != nil || resp.StatusCode != 422 || !bytes.Contains([]byte(resp.Body), []byte(`"analysis_timeout"`)) {
		t.Fatalf("%v %d %s", err, resp.StatusCode, resp.Body)
	}
}
