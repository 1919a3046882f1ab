package deploy

import "testing"

// TestLedgerRoutesGoToAccounts: the supplier ledger's session routes,
// acknowledging an alert among them, reach the accounts function, which
// holds the session and the ledger.
func TestLedgerRoutesGoToAccounts(t *testing.T) {
	owner := map[[2]string]string{}
	for _, fn := range functions(t) {
		for _, rt := range fn.routes {
			owner[rt] = fn.codeURI
		}
	}
	for _, rt := range [][2]string{
		{"POST", "/api/v1/ap/alias"},
		{"GET", "/api/v1/ap/ledger"},
		{"POST", "/api/v1/ap/alerts/{id}/acknowledge"},
		{"PUT", "/api/v1/ap/webhook"},
		{"DELETE", "/api/v1/ap/webhook"},
	} {
		if owner[rt] != "functions/accounts/" {
			t.Errorf("%s %s goes to %q, want functions/accounts/", rt[0], rt[1], owner[rt])
		}
	}
}
