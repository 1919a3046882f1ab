package httpapi

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/internal/baselines"
	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/ratelimit"
)

func withBaselines(c *Config) {
	st := storeOf(c)
	c.Baselines = &baselines.Service{Store: st, Plans: plans.New(0), Limiter: &ratelimit.Limiter{Store: st}, BuiltIn: baselines.BuiltIn()}
}

func writerPDF(producer string, n int) []byte {
	b := pdftest.OnePage(fmt.Sprintf("Statement %d", n))
	b.Set(6, "<< /Producer "+pdftest.Lit(producer)+" >>")
	b.Trailer("/Root 1 0 R /Info 6 0 R")
	return b.Bytes()
}

type filePart struct {
	name string
	data []byte
}

func trainingBody(issuer, label string, files ...filePart) (*bytes.Buffer, string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	if issuer != "" {
		mw.WriteField("issuer", issuer)
	}
	if label != "" {
		mw.WriteField("label", label)
	}
	for _, f := range files {
		fw, _ := mw.CreateFormFile("file", f.name)
		fw.Write(f.data)
	}
	mw.Close()
	return &b, mw.FormDataContentType()
}

func (b *browser) train(t *testing.T, body *bytes.Buffer, ct string) (int, map[string]any) {
	t.Helper()
	resp, got, _ := b.e.do(t, "POST", "/api/v1/baselines", body, map[string]string{"Content-Type": ct, "Cookie": SessionCookie + "=" + b.cookie})
	return resp.StatusCode, got
}

func TestBaselineLifecycle(t *testing.T) {
	e := newEnv(t, withBaselines)
	b, key, _ := signup(t, e, "team@example.com", "correct horse battery")
	var files []filePart
	for i := range 5 {
		files = append(files, filePart{fmt.Sprintf("s%d.pdf", i), writerPDF("Acme Statements 4.2", i)})
	}
	files = append(files, filePart{"notes.txt", []byte("hello")})

	// Free plan: 403 plan_required.
	body, ct := trainingBody("acme-bank", "Acme Bank", files...)
	if code, got := b.train(t, body, ct); code != 403 || got["error"] != "plan_required" {
		t.Fatalf("free plan: %d %v", code, got)
	}
	a, _ := e.store.AccountByEmail(context.Background(), "team@example.com")
	if err := e.store.SetPlan(context.Background(), a.ID, plans.Team); err != nil {
		t.Fatal(err)
	}

	body, ct = trainingBody("acme-bank", "Acme Bank", files...)
	code, got := b.train(t, body, ct)
	if code != 200 || got["merged"] != false || got["filesReceived"] != 6.0 || got["filesUsed"] != 5.0 {
		t.Fatalf("train: %d %v", code, got)
	}
	if sk := got["skipped"].([]any); len(sk) != 1 || sk[0].(map[string]any)["reason"] != "not_a_pdf" || sk[0].(map[string]any)["filename"] != "notes.txt" {
		t.Fatalf("skipped %v", sk)
	}
	p := got["profile"].(map[string]any)
	if p["issuer"] != "acme-bank" || p["label"] != "Acme Bank" || p["source"] != "customer" || p["builtIn"] != false ||
		p["matchingActive"] != true || p["minSamplesForMatching"] != 5.0 || p["sampleCount"] != 5.0 || p["createdAt"] == nil {
		t.Fatalf("profile %v", p)
	}

	// Merge.
	body, ct = trainingBody("acme-bank", "", files[0])
	if code, got := b.train(t, body, ct); code != 200 || got["merged"] != true || got["profile"].(map[string]any)["sampleCount"] != 6.0 {
		t.Fatalf("merge: %d %v", code, got)
	}

	// Privacy: a tool's producer carrying an e-mail address keeps only
	// the tool. (A producer naming no tool is kept only as
	// "(unrecognised)".)
	body, ct = trainingBody("acme-bank", "", filePart{"x.pdf", writerPDF("Microsoft Word, prepared for jane@example.com", 1)})
	if code, got := b.train(t, body, ct); code != 200 || strings.Contains(fmt.Sprint(got), "jane") {
		t.Fatalf("privacy: %d %v", code, got)
	}

	// Nothing usable: 422 with the skipped list.
	body, ct = trainingBody("acme-bank", "", filePart{"a.txt", []byte("x")})
	if code, got := b.train(t, body, ct); code != 422 || got["error"] != "not_a_pdf" {
		t.Fatalf("nothing usable: %d %v", code, got)
	}

	resp, list := b.call(t, "GET", "/api/v1/baselines", nil)
	own := list["baselines"].([]any)[0].(map[string]any)
	if resp.StatusCode != 200 || len(list["baselines"].([]any)) != 1+len(baselines.Specimens) ||
		own["issuer"] != "acme-bank" || own["sampleCount"] != 7.0 || own["builtIn"] != false {
		t.Fatalf("list %d %v", resp.StatusCode, list)
	}
	for _, v := range list["baselines"].([]any)[1:] {
		if v := v.(map[string]any); v["builtIn"] != true || v["source"] != "public-specimen" || v["createdAt"] != nil {
			t.Fatalf("built-in %v", v)
		}
	}
	// A built-in profile cannot be deleted.
	resp, got2 := b.call(t, "DELETE", "/api/v1/baselines/"+baselines.Specimens[0].Issuer, nil)
	wantError(t, resp, got2, 404, "not_found")

	// /inspect with the issuer, by key.
	inspect := func(pdf []byte) map[string]any {
		mb, ct := multipartBody(t, [2]string{"issuer", "acme-bank"}, [2]string{"file", string(pdf)})
		resp, body, _ := e.do(t, "POST", "/api/v1/inspect", mb, map[string]string{"Content-Type": ct, "Authorization": "Bearer " + key})
		if resp.StatusCode != 200 {
			t.Fatalf("inspect %d %v", resp.StatusCode, body)
		}
		return body
	}
	rep := inspect(writerPDF("Acme Statements 4.2", 77))
	ib := rep["issuerBaseline"].(map[string]any)
	if ib["resolved"] != true || ib["source"] != "customer" || ib["matchingActive"] != true || ib["divergence"] != 0.0 || ib["sampleCount"] != 7.0 {
		t.Fatalf("same writer: %v", ib)
	}
	// An editor the catalogue knows (an uncatalogued writer would read as
	// "(unrecognised)", like the issuer's in-house one: privacy.go).
	rep = inspect(writerPDF("iLovePDF", 77))
	ib = rep["issuerBaseline"].(map[string]any)
	if ib["divergence"].(float64) <= 0 || fmt.Sprint(ib["mismatchedDimensions"]) != "[producers]" {
		t.Fatalf("other writer: %v", ib)
	}
	if !hasSignal(rep, "issuer-mismatch") {
		t.Fatal("no issuer-mismatch signal")
	}
	// Anonymous callers see no account's profile, but the built-in ones.
	mb, ct2 := multipartBody(t, [2]string{"issuer", "acme-bank"}, [2]string{"file", string(writerPDF("x", 1))})
	_, anon, _ := e.do(t, "POST", "/api/v1/inspect", mb, map[string]string{"Content-Type": ct2})
	if ib := anon["issuerBaseline"].(map[string]any); ib["resolved"] != false || ib["reason"] != "no_profile" {
		t.Fatalf("anonymous: %v", ib)
	}
	mb, ct2 = multipartBody(t, [2]string{"issuer", baselines.Specimens[0].Issuer}, [2]string{"file", string(writerPDF("x", 1))})
	_, anon, _ = e.do(t, "POST", "/api/v1/inspect", mb, map[string]string{"Content-Type": ct2})
	if ib := anon["issuerBaseline"].(map[string]any); ib["resolved"] != true || ib["source"] != "public-specimen" {
		t.Fatalf("anonymous, built-in: %v", ib)
	}

	// Bearer only: 401 on session routes.
	resp, got2, _ = e.do(t, "GET", "/api/v1/baselines", nil, map[string]string{"Authorization": "Bearer " + key})
	wantError(t, resp, got2, 401, "not_authenticated")

	// Another account cannot delete it; unknown slugs are 404.
	other, _, _ := signup(t, e, "other@example.com", "correct horse battery")
	resp, got2 = other.call(t, "DELETE", "/api/v1/baselines/acme-bank", nil)
	wantError(t, resp, got2, 404, "not_found")
	resp, got2 = b.call(t, "DELETE", "/api/v1/baselines/unknown", nil)
	wantError(t, resp, got2, 404, "not_found")
	resp, _ = b.call(t, "DELETE", "/api/v1/baselines/acme-bank", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("delete %d", resp.StatusCode)
	}
	_, list = b.call(t, "GET", "/api/v1/baselines", nil)
	if len(list["baselines"].([]any)) != len(baselines.Specimens) {
		t.Fatalf("after delete %v", list)
	}

	// Five training requests an hour: the privacy refusal and the
	// unusable upload counted too, so the next one is the sixth.
	body, ct = trainingBody("acme-bank", "", files[0])
	if code, got := b.train(t, body, ct); code != 200 {
		t.Fatalf("fifth: %d %v", code, got)
	}
	body, ct = trainingBody("acme-bank", "", files[0])
	if code, got := b.train(t, body, ct); code != 429 || got["error"] != "rate_limited" {
		t.Fatalf("sixth: %d %v", code, got)
	}
}

func TestBaselineTrainingRefusals(t *testing.T) {
	e := newEnv(t, withBaselines)
	b, _, _ := signup(t, e, "t@example.com", "correct horse battery")
	a, _ := e.store.AccountByEmail(context.Background(), "t@example.com")
	e.store.SetPlan(context.Background(), a.ID, plans.Team)
	pdf := filePart{"a.pdf", writerPDF("w", 1)}
	for name, tc := range map[string]struct {
		issuer string
		files  []filePart
		status int
		code   string
	}{
		"no issuer":  {"", []filePart{pdf}, 400, "invalid_request"},
		"bad issuer": {"Not_A_Slug", []filePart{pdf}, 422, "invalid_issuer"},
		"no file":    {"acme", nil, 400, "no_file"},
	} {
		body, ct := trainingBody(tc.issuer, "", tc.files...)
		if code, got := b.train(t, body, ct); code != tc.status || got["error"] != tc.code {
			t.Errorf("%s: %d %v", name, code, got)
		}
	}
	var many []filePart
	for range baselines.MaxFiles + 1 {
		many = append(many, pdf)
	}
	body, ct := trainingBody("acme", "", many...)
	if code, got := b.train(t, body, ct); code != 400 {
		t.Errorf("26 files: %d %v", code, got)
	}
}
