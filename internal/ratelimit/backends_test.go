package ratelimit_test

import (
	"github.com/doctrust/doctrust/internal/ratelimit"
	"github.com/doctrust/doctrust/internal/store/dynamodb"
	"github.com/doctrust/doctrust/internal/store/sqlite"
)

// Both backends serve the limiter: a method dropped or changed in either
// fails the build here, not in the wiring.
var (
	_ ratelimit.Store = (*sqlite.Store)(nil)
	_ ratelimit.Store = (*dynamodb.Store)(nil)
)
