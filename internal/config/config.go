// Package config reads the environment of the local-run contract
// (DESIGN.md) into the HTTP layer's configuration. `doctrust serve` and
// every Lambda function build their server from here, so both deployments
// read the same variables the same way.
package config

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"

	"github.com/doctrust/doctrust/internal/analysis"
	"github.com/doctrust/doctrust/internal/httpapi"
	"github.com/doctrust/doctrust/internal/pool"
	"github.com/doctrust/doctrust/internal/receiptkey"
)

// Mode says where the service runs.
type Mode int

const (
	Local  Mode = iota // doctrust serve: a secret may be generated into DATA_DIR
	Lambda             // AWS: the secret must come from the environment
)

// Server builds the HTTP configuration from getenv; logs go to logTo.
func Server(mode Mode, getenv func(string) string, logTo io.Writer) (httpapi.Config, error) {
	secretEnv := getenv("RECEIPT_SECRET")
	if mode == Lambda && secretEnv == "" {
		return httpapi.Config{}, errors.New("config: RECEIPT_SECRET must be set in Lambda")
	}
	secret, err := receiptkey.Load(secretEnv, getenv("DATA_DIR"))
	if err != nil {
		return httpapi.Config{}, fmt.Errorf("config: receipt secret: %w", err)
	}
	var origins []string
	for _, o := range strings.Split(getenv("ALLOWED_ORIGINS"), ",") {
		if o = strings.TrimSpace(o); o != "" {
			origins = append(origins, o)
		}
	}
	workers, queue := Int(getenv, "WORKERS", 2), Int(getenv, "QUEUE", 16)
	if mode == Lambda {
		// One request at a time per Lambda instance; concurrency is
		// Lambda's own scaling.
		workers, queue = 1, 0
	}
	return httpapi.Config{
		Pipeline:       &analysis.Pipeline{Secret: secret},
		Pool:           pool.New(workers, queue),
		MaxUploadMB:    Int(getenv, "MAX_UPLOAD_MB", 10),
		AllowedOrigins: origins,
		PublicBaseURL:  getenv("PUBLIC_BASE_URL"),
		Logger:         slog.New(slog.NewJSONHandler(logTo, nil)),
	}, nil
}

// Int reads a positive integer variable, or def.
func Int(getenv func(string) string, name string, def int) int {
	if v, err := strconv.Atoi(strings.TrimSpace(getenv(name))); err == nil && v > 0 {
		return v
	}
	return def
}
