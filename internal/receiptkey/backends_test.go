package receiptkey_test

import (
	"github.com/doctrust/doctrust/internal/receiptkey"
	"github.com/doctrust/doctrust/internal/store/dynamodb"
	"github.com/doctrust/doctrust/internal/store/sqlite"
)

// Both backends serve the receipt secret: a method dropped or changed in
// either fails the build here, not in the wiring.
var (
	_ receiptkey.Store = (*sqlite.Store)(nil)
	_ receiptkey.Store = (*dynamodb.Store)(nil)
)
