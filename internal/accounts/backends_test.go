package accounts_test

import (
	"github.com/doctrust/doctrust/internal/accounts"
	"github.com/doctrust/doctrust/internal/store/dynamodb"
	"github.com/doctrust/doctrust/internal/store/sqlite"
)

// Both backends serve the account routes: a method dropped or changed in
// either fails the build here, not in the wiring.
var (
	_ accounts.Store = (*sqlite.Store)(nil)
	_ accounts.Store = (*dynamodb.Store)(nil)
)
