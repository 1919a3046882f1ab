package lambdasweep

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/ddblocal"
	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/store/dynamodb"
)

func TestMain(m *testing.M) { ddblocal.Main(m) }

// TestSweepOnAWSRefusesPrivateAddresses: the scheduled function, built as
// on AWS against DynamoDB Local, sweeps a due delivery; the webhook names
// a receiver on loopback, which a deployment may never reach, so the
// receiver hears nothing and the ledger shows why the attempt failed.
func TestSweepOnAWSRefusesPrivateAddresses(t *testing.T) {
	vars := map[string]string{
		"DYNAMODB_ENDPOINT": ddblocal.Endpoint(t),
		"TABLE_PREFIX":      fmt.Sprintf("sweep%d_", time.Now().UnixNano()%1e6),
		"RECEIPT_SECRET":    "sweep-test",
	}
	var log bytes.Buffer
	h, err := New(t.Context(), func(k string) string { return vars[k] }, &log)
	if err != nil {
		t.Fatal(err)
	}
	var reached atomic.Int64
	recv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached.Add(1) }))
	defer recv.Close()

	st, err := dynamodb.Open(t.Context(), dynamodb.Config{Endpoint: vars["DYNAMODB_ENDPOINT"], Prefix: vars["TABLE_PREFIX"]})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	if err := st.PutWebhook(t.Context(), store.Webhook{AccountID: "acct_s", ID: "wh_s", URL: recv.URL, Secret: "whsec_s", Created: now}); err != nil {
		t.Fatal(err)
	}
	a := store.Alert{ID: "alert_s", AccountID: "acct_s", Kind: store.AlertLookalikeDomain, SupplierKey: "tax:GB011886419", At: now, Expires: now.Add(time.Hour)}
	d := store.Delivery{ID: "evt_s", AccountID: "acct_s", Event: []byte(`{"id":"evt_s"}`), Due: now.Add(-time.Second), Created: now, Expires: now.Add(time.Hour)}
	if err := st.AddAlertDelivery(t.Context(), a, d); err != nil {
		t.Fatal(err)
	}
	res, err := h(t.Context())
	if err != nil || res.Due != 1 || res.Attempted != 1 {
		t.Fatalf("sweep: %+v, %v\n%s", res, err, log.String())
	}
	if reached.Load() != 0 {
		t.Fatal("the function posted to a loopback address")
	}
	w, err := st.Webhook(t.Context(), "acct_s")
	if err != nil || w.Last.State != store.DeliveryRetrying || w.Last.Attempts != 1 || w.Last.Error != "refused: the URL resolves to an address that is not public" {
		t.Fatalf("outcome: %+v, %v", w.Last, err)
	}
	due, _ := st.DueDeliveries(t.Context(), now.Add(2*time.Minute), 10)
	if len(due) != 1 || due[0].Attempts != 1 || due[0].Rev != 3 {
		t.Fatalf("the retry's row: %+v", due)
	}
}
