package httpapi

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/internal/plans"
)

func TestCompareRoute(t *testing.T) {
	e := newEnv(t)
	a, h := e.keyed(t, plans.Free)
	orig := pdftest.OnePage("Total due 100.00").Bytes()
	u := pdftest.Update(orig)
	u.Stream(pdftest.ContentObj, "", []byte("BT /F1 24 Tf 72 700 Td (Total due 900.00) Tj ET"))
	u.Trailer(fmt.Sprintf("/Root %d 0 R", pdftest.CatalogObj))
	cand := u.Bytes()

	mb, ct := multipartBody(t, [2]string{"original", string(orig)}, [2]string{"candidate", string(cand)})
	h["Content-Type"] = ct
	resp, body, raw := e.do(t, "POST", "/api/v1/compare", mb, h)
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, raw)
	}
	if body["relationship"] != "candidate-extends-original" || body["ancestry"].(map[string]any)["contentTouched"] != true {
		t.Fatalf("report %s", raw)
	}
	if got := quota(resp); got != "25 2 23 0 within" {
		t.Fatalf("a comparison costs two documents: %q", got)
	}
	rows, _ := e.store.UsageSince(t.Context(), a.ID, time.Now().Add(-time.Hour))
	if len(rows) != 1 || rows[0].Route != "compare" || rows[0].Documents != 2 {
		t.Fatalf("usage rows %+v", rows)
	}
	// Same pair, same body: the report is deterministic.
	mb, h["Content-Type"] = multipartBody(t, [2]string{"original", string(orig)}, [2]string{"candidate", string(cand)})
	if _, _, again := e.do(t, "POST", "/api/v1/compare", mb, h); !bytes.Equal(again, raw) {
		t.Fatal("two comparisons of one pair differ")
	}
}

func TestCompareErrors(t *testing.T) {
	e := newEnv(t)
	_, h := e.keyed(t, plans.Free)
	pdf := string(pdfBytes(t))
	withCT := func(ct string) map[string]string {
		m := map[string]string{}
		for k, v := range h {
			m[k] = v
		}
		m["Content-Type"] = ct
		return m
	}

	// No key: a comparison has no anonymous allowance.
	mb, ct := multipartBody(t, [2]string{"original", pdf}, [2]string{"candidate", pdf})
	resp, body, _ := e.do(t, "POST", "/api/v1/compare", mb, map[string]string{"Content-Type": ct})
	wantError(t, resp, body, 401, "invalid_api_key")

	mb, ct = multipartBody(t, [2]string{"original", pdf})
	resp, body, _ = e.do(t, "POST", "/api/v1/compare", mb, withCT(ct))
	wantError(t, resp, body, 400, "no_file")

	resp, body, _ = e.do(t, "POST", "/api/v1/compare", strings.NewReader(pdf), withCT("application/pdf"))
	wantError(t, resp, body, 400, "no_file")

	mb, ct = multipartBody(t, [2]string{"original", pdf}, [2]string{"candidate", "GIF89a not a pdf"})
	resp, body, raw := e.do(t, "POST", "/api/v1/compare", mb, withCT(ct))
	wantError(t, resp, body, 422, "not_a_pdf")
	if !strings.Contains(string(raw), "Compare takes two PDFs") {
		t.Errorf("the refusal does not say what compare takes: %s", raw)
	}
	if strings.Contains(string(raw), "GIF89a") || quota(resp) != "25 0 25 0 within" {
		t.Fatalf("refused comparison: %q %s", quota(resp), raw)
	}

	big := strings.Repeat("x", (1<<20)+1) // the test server caps uploads at 1 MB
	mb, ct = multipartBody(t, [2]string{"original", pdf}, [2]string{"candidate", big})
	resp, body, _ = e.do(t, "POST", "/api/v1/compare", mb, withCT(ct))
	wantError(t, resp, body, 413, "file_too_large")
}
