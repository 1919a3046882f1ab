package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/internal/cli"
	"github.com/doctrust/doctrust/internal/config"
	"github.com/doctrust/doctrust/internal/httpapi"
)

// webhookSweepEvery is how often serve retries due webhook deliveries.
const webhookSweepEvery = 20 * time.Second

// serve runs every route on 127.0.0.1:$PORT (the local-run contract).
func serve(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprint(stderr, cli.Usage)
		return 2
	}
	go engine.Prepare() // so no request pays for it
	svc, err := config.Server(context.Background(), config.Local, os.Getenv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
		return 1
	}
	defer svc.Close()
	addr := "127.0.0.1:" + strconv.Itoa(config.Int(os.Getenv, "PORT", 8080))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
		return 1
	}
	srv := &http.Server{
		Handler:           httpapi.New(svc.HTTP),
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
	// The scheduled sweep of AWS (functions/webhooks), here a ticker:
	// retries of alert webhooks come due a minute apart at the soonest.
	go svc.HTTP.Webhooks.Run(ctx, webhookSweepEvery)
	fmt.Fprintf(stdout, "doctrust serving on http://%s\n", ln.Addr())
	if svc.MailOutbox != "" {
		fmt.Fprintf(stdout, "mail is not sent: each message is written as a .eml file to %s (MAIL_OUTBOX)\n", svc.MailOutbox)
	}
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "doctrust: %v\n", err)
		return 1
	}
	return 0
}
