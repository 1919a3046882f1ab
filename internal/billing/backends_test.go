package billing_test

import (
	"github.com/doctrust/doctrust/internal/billing"
	"github.com/doctrust/doctrust/internal/store/dynamodb"
	"github.com/doctrust/doctrust/internal/store/sqlite"
)

// Both backends serve the webhook: a method dropped or changed in either
// fails the build here, not in the wiring.
var (
	_ billing.Store = (*sqlite.Store)(nil)
	_ billing.Store = (*dynamodb.Store)(nil)
)
