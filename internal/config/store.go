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

// DataDir is DATA_DIR, else the per-user data folder of the XDG base
// directory rules ($XDG_DATA_HOME/doctrust, ~/.local/share/doctrust), so a
// CLI run leaves no state in the folder it runs from and every run of one
// user shares one store and one receipt secret (DESIGN.md, local-run
// contract; `make run` sets .data in the checkout). Without a home folder
// it falls back to .data.
func DataDir(getenv func(string) string) string {
	if d := getenv("DATA_DIR"); d != "" {
		return d
	}
	// The specification ignores a relative XDG_DATA_HOME.
	if x := getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "doctrust")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "share", "doctrust")
	}
	return ".data"
}

// StoreName says which store OpenStore opens, for messages: the embedded
// store's folder, or the DynamoDB tables.
func StoreName(mode Mode, getenv func(string) string) string {
	kind := strings.TrimSpace(getenv("STORE"))
	if mode == Lambda || kind == "dynamodb" {
		name := "the DynamoDB tables"
		if p := getenv("TABLE_PREFIX"); p != "" {
			name += " prefixed " + p
		}
		if e := getenv("DYNAMODB_ENDPOINT"); e != "" {
			name += " at " + e
		}
		return name
	}
	dir := DataDir(getenv)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return "the embedded store " + dir + " (DATA_DIR)"
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
			return nil, fmt.Errorf("config: %s: %w", StoreName(mode, getenv), err)
		}
		return st, nil
	case "dynamodb":
		st, err := openDynamo(ctx, getenv)
		if err != nil {
			return nil, fmt.Errorf("config: %s: %w", StoreName(mode, getenv), err)
		}
		return st, nil
	}
	return nil, errStoreKind
}
