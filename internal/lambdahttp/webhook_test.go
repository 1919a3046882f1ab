package lambdahttp

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

// alertHookEvent is the recorded PUT /api/v1/ap/webhook event with the
// session cookie and the body put in.
func alertHookEvent(t *testing.T, cookie, body string) events.APIGatewayV2HTTPRequest {
	ev := loadEvent(t, "apigw-v2-ap-webhook.json")
	ev.Cookies = []string{cookie}
	ev.Body, ev.Headers["content-length"] = body, strconv.Itoa(len(body))
	return ev
}

// TestLedgerWebhookEvents: through the accounts function on DynamoDB, a
// session sets the alert webhook (the secret is shown once), the ledger
// shows it without the secret, a URL a deployment may not post to is
// refused with invalid_request, and DELETE removes it.
func TestLedgerWebhookEvents(t *testing.T) {
	vars := lambdaEnv(t)
	h := handlerFor(t, vars)
	resp, err := h(t.Context(), event(t, "POST", "/api/v1/auth/signup", `{"email":"hook@example.com","password":"correct horse battery"}`, nil))
	if err != nil || resp.StatusCode != 201 {
		t.Fatalf("signup: %v %d %s", err, resp.StatusCode, resp.Body)
	}
	cookie := strings.SplitN(resp.Cookies[0], ";", 2)[0]

	put, err := h(t.Context(), alertHookEvent(t, cookie, `{"url":"https://hooks.example.com/doctrust"}`))
	if err != nil || put.StatusCode != 200 || put.Headers["Cache-Control"] != "no-store" {
		t.Fatalf("PUT webhook: %v %d %v %s", err, put.StatusCode, put.Headers, put.Body)
	}
	var set struct{ URL, Secret string }
	json.Unmarshal([]byte(put.Body), &set)
	if set.URL != "https://hooks.example.com/doctrust" || !strings.HasPrefix(set.Secret, "whsec_") {
		t.Fatalf("PUT webhook answered %s", put.Body)
	}
	view, _ := h(t.Context(), event(t, "GET", "/api/v1/ap/ledger", "", []string{cookie}))
	if view.StatusCode != 200 || !strings.Contains(view.Body, `"webhook":{"url":"https://hooks.example.com/doctrust"`) || strings.Contains(view.Body, set.Secret) {
		t.Fatalf("ledger: %d %s", view.StatusCode, view.Body)
	}
	// A deployment never posts to http, a loopback or a private address.
	for _, u := range []string{"http://hooks.example.com/x", "http://127.0.0.1:9000/x", "https://10.0.0.7/x", "https://user:pw@hooks.example.com/x"} {
		bad, _ := h(t.Context(), alertHookEvent(t, cookie, `{"url":"`+u+`"}`))
		if bad.StatusCode != 400 || !strings.Contains(bad.Body, `"error":"invalid_request"`) {
			t.Errorf("%s: %d %s", u, bad.StatusCode, bad.Body)
		}
	}
	if anon, _ := h(t.Context(), alertHookEvent(t, "svc_session=nope", `{"url":"https://hooks.example.com/x"}`)); anon.StatusCode != 401 {
		t.Fatalf("without a session: %d %s", anon.StatusCode, anon.Body)
	}
	del, _ := h(t.Context(), event(t, "DELETE", "/api/v1/ap/webhook", "", []string{cookie}))
	if del.StatusCode != 200 || !strings.Contains(del.Body, `"deleted":true`) {
		t.Fatalf("DELETE webhook: %d %s", del.StatusCode, del.Body)
	}
	if view, _ := h(t.Context(), event(t, "GET", "/api/v1/ap/ledger", "", []string{cookie})); !strings.Contains(view.Body, `"webhook":null`) {
		t.Fatalf("ledger after DELETE: %s", view.Body)
	}
}
