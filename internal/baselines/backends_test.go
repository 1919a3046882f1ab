package baselines_test

import (
	"github.com/doctrust/doctrust/internal/baselines"
	"github.com/doctrust/doctrust/internal/store/dynamodb"
	"github.com/doctrust/doctrust/internal/store/sqlite"
)

// Both backends serve the baseline service: a method dropped or changed in
// either fails the build here, not in the wiring.
var (
	_ baselines.Store = (*sqlite.Store)(nil)
	_ baselines.Store = (*dynamodb.Store)(nil)
)
