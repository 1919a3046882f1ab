package lambdahttp

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/doctrust/doctrust/internal/stripemock"
)

// webhookEvent is the recorded webhook delivery carrying a Stripe event
// around object, signed with secret; base64 as API Gateway sends a body
// it does not take for text.
func webhookEvent(t *testing.T, secret, typ string, object map[string]any, b64 bool) (ev events.APIGatewayV2HTTPRequest) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"id": fmt.Sprint("evt_", time.Now().UnixNano()), "object": "event",
		"api_version": stripe.APIVersion, "created": time.Now().Unix(), "type": typ, "data": map[string]any{"object": object}})
	ev = loadEvent(t, "apigw-v2-billing-webhook.json")
	ev.Headers["stripe-signature"] = webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: secret}).Header
	ev.Headers["content-length"] = strconv.Itoa(len(body))
	ev.Body, ev.IsBase64Encoded = string(body), b64
	if b64 {
		ev.Body = base64.StdEncoding.EncodeToString(body)
	}
	return ev
}

// TestBillingFunction: through the billing function's handler on
// DynamoDB, a signed-in account opens a Checkout Session (stripe-mock
// answers for Stripe), the signed webhook fulfils it (also with a base64
// body), and another instance sees the plan at once.
func TestBillingFunction(t *testing.T) {
	vars := lambdaEnv(t)
	for k, v := range map[string]string{
		"STRIPE_SECRET_KEY": "sk_test_lambda", "STRIPE_WEBHOOK_SECRET": "whsec_lambda",
		"STRIPE_API_BASE": stripemock.Start(t), "PUBLIC_BASE_URL": "https://doctrust.example",
		"STRIPE_PRICE_TEAM": "price_team", "STRIPE_PRICE_CREDITS_SMALL": "price_small", "CREDITS_SMALL_DOCUMENTS": "250",
	} {
		vars[k] = v
	}
	one, two := handlerFor(t, vars), handlerFor(t, vars)
	resp, err := one(t.Context(), event(t, "POST", "/api/v1/auth/signup", `{"email":"payer@example.com","password":"correct horse battery"}`, nil))
	if err != nil || resp.StatusCode != 201 {
		t.Fatalf("signup: %v %d %s", err, resp.StatusCode, resp.Body)
	}
	cookie := strings.SplitN(resp.Cookies[0], ";", 2)[0]
	me, _ := one(t.Context(), event(t, "GET", "/api/v1/me", "", []string{cookie}))
	var who struct {
		User struct{ ID string } `json:"user"`
	}
	json.Unmarshal([]byte(me.Body), &who)

	co, _ := two(t.Context(), event(t, "POST", "/api/v1/billing/checkout", `{"plan":"team"}`, []string{cookie}))
	if co.StatusCode != 200 || !strings.Contains(co.Body, `"url":"https://`) {
		t.Fatalf("checkout: %d %s", co.StatusCode, co.Body)
	}
	cr, _ := one(t.Context(), event(t, "POST", "/api/v1/billing/credits", `{"pack":"small"}`, []string{cookie}))
	if cr.StatusCode != 200 {
		t.Fatalf("credits: %d %s", cr.StatusCode, cr.Body)
	}
	// The plan has no price here: 503, not a session for nothing.
	if r, _ := one(t.Context(), event(t, "POST", "/api/v1/billing/checkout", `{"plan":"solo"}`, []string{cookie})); r.StatusCode != 503 {
		t.Fatalf("unpriced plan: %d %s", r.StatusCode, r.Body)
	}

	session := func(id, mode string, meta map[string]string, sub any) map[string]any {
		meta["account_id"] = who.User.ID
		return map[string]any{"id": id, "object": "checkout.session", "mode": mode, "payment_status": "paid",
			"client_reference_id": who.User.ID, "metadata": meta, "customer": "cus_lambda", "subscription": sub}
	}
	wh, err := one(t.Context(), webhookEvent(t, "whsec_lambda", "checkout.session.completed",
		session("cs_pack", "payment", map[string]string{"pack": "small", "documents": "250"}, nil), true))
	if err != nil || wh.StatusCode != 200 {
		t.Fatalf("credit pack webhook (base64 body): %v %d %s", err, wh.StatusCode, wh.Body)
	}
	wh, err = one(t.Context(), webhookEvent(t, "whsec_lambda", "checkout.session.completed",
		session("cs_team", "subscription", map[string]string{"plan": "team"}, "sub_lambda"), false))
	if err != nil || wh.StatusCode != 200 {
		t.Fatalf("plan webhook: %v %d %s", err, wh.StatusCode, wh.Body)
	}
	forged, _ := one(t.Context(), webhookEvent(t, "whsec_other", "checkout.session.completed",
		session("cs_forged", "payment", map[string]string{"pack": "small", "documents": "250"}, nil), false))
	if forged.StatusCode != 400 || !strings.Contains(forged.Body, "invalid_signature") {
		t.Fatalf("forged webhook: %d %s", forged.StatusCode, forged.Body)
	}
	me, _ = two(t.Context(), event(t, "GET", "/api/v1/me", "", []string{cookie}))
	if !strings.Contains(me.Body, `"plan":"team"`) || !strings.Contains(me.Body, `"credits":250`) || !strings.Contains(me.Body, `"portal":true`) {
		t.Fatalf("me on the other instance: %s", me.Body)
	}
	portal, _ := two(t.Context(), event(t, "POST", "/api/v1/billing/portal", "", []string{cookie}))
	if portal.StatusCode != 200 || !strings.Contains(portal.Body, `"url":`) {
		t.Fatalf("portal: %d %s", portal.StatusCode, portal.Body)
	}
}
