package ledger_test

import (
	"github.com/doctrust/doctrust/internal/ledger"
	"github.com/doctrust/doctrust/internal/store/dynamodb"
	"github.com/doctrust/doctrust/internal/store/sqlite"
)

// Both backends serve the ledger: a method dropped or changed in either
// fails the build here, not in the wiring.
var (
	_ ledger.Store = (*sqlite.Store)(nil)
	_ ledger.Store = (*dynamodb.Store)(nil)
)
