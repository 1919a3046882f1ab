package config

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/store/sqlite"
)

var errStoreKind = errors.New(`config: STORE must be "embedded" or "dynamodb"`)

// DataDir is DATA_DIR, default ".data".
func DataDir(getenv func(string) string) string {
	if d := getenv("DATA_DIR"); d != "" {
		return d
	}
	return ".data"
}

// OpenStore opens the store STORE names: the embedded SQLite file under
// DATA_DIR (the local default) or DynamoDB (always in Lambda).
func OpenStore(ctx context.Context, mode Mode, getenv func(string) string) (store.Store, error) {
	kind := strings.TrimSpace(getenv("STORE"))
	if mode == Lambda {
		kind = "dynamodb"
	}
	switch kind {
	case "", "embedded":
		st, err := sqlite.Open(filepath.Join(DataDir(getenv), sqlite.FileName), nil)
		if err != nil {
			return nil, fmt.Errorf("config: embedded store: %w", err)
		}
		return st, nil
	case "dynamodb":
		return openDynamo(ctx, getenv)
	}
	return nil, errStoreKind
}
