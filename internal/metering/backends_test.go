package metering_test

import (
	"github.com/doctrust/doctrust/internal/metering"
	"github.com/doctrust/doctrust/internal/store/dynamodb"
	"github.com/doctrust/doctrust/internal/store/sqlite"
)

// Both backends serve the meter: a method dropped or changed in either
// fails the build here, not in the wiring.
var (
	_ metering.Store = (*sqlite.Store)(nil)
	_ metering.Store = (*dynamodb.Store)(nil)
)
