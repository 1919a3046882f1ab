package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/doctrust/doctrust/internal/analysis"
	"github.com/doctrust/doctrust/internal/httpapi"
	"github.com/doctrust/doctrust/internal/pool"
	"github.com/doctrust/doctrust/internal/receiptkey"
)

// serve runs every route on 127.0.0.1:$PORT (the local-run contract).
func serve(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cfg, addr, err := serverConfig(os.Getenv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
		return 1
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
		return 1
	}
	srv := &http.Server{
		Handler:           httpapi.New(cfg),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      60 * time.Second,
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	fmt.Fprintf(stdout, "doctrust serving on http://%s\n", ln.Addr())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
		return 1
	}
	return 0
}

// serverConfig reads the environment of the local-run contract.
func serverConfig(getenv func(string) string, logTo io.Writer) (httpapi.Config, string, error) {
	port := envInt(getenv, "PORT", 8080)
	secret, err := receiptkey.Load(getenv("RECEIPT_SECRET"), getenv("DATA_DIR"))
	if err != nil {
		return httpapi.Config{}, "", fmt.Errorf("receipt secret: %w", err)
	}
	var origins []string
	for _, o := range strings.Split(getenv("ALLOWED_ORIGINS"), ",") {
		if o = strings.TrimSpace(o); o != "" {
			origins = append(origins, o)
		}
	}
	cfg := httpapi.Config{
		Pipeline:       &analysis.Pipeline{Secret: secret},
		Pool:           pool.New(envInt(getenv, "WORKERS", 2), envInt(getenv, "QUEUE", 16)),
		MaxUploadMB:    envInt(getenv, "MAX_UPLOAD_MB", 10),
		AllowedOrigins: origins,
		PublicBaseURL:  getenv("PUBLIC_BASE_URL"),
		Logger:         slog.New(slog.NewJSONHandler(logTo, nil)),
	}
	return cfg, "127.0.0.1:" + strconv.Itoa(port), nil
}

func envInt(getenv func(string) string, name string, def int) int {
	if v, err := strconv.Atoi(strings.TrimSpace(getenv(name))); err == nil && v > 0 {
		return v
	}
	return def
}
