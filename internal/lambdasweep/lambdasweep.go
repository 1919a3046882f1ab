// Package lambdasweep is the scheduled function that retries alert
// webhooks on AWS: one sweep of the outbox per invocation
// (internal/webhook). `doctrust serve` runs the same sweep on a ticker.
package lambdasweep

import (
	"context"
	"io"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doctrust/doctrust/internal/config"
	"github.com/doctrust/doctrust/internal/webhook"
)

// Handler runs one sweep; the schedule's event carries nothing it reads.
type Handler func(ctx context.Context) (webhook.SweepResult, error)

// New builds the handler from the environment, with the store and the
// webhook service every function builds (internal/config); logs go to
// logTo.
func New(ctx context.Context, getenv func(string) string, logTo io.Writer) (Handler, error) {
	svc, err := config.Server(ctx, config.Lambda, getenv, logTo)
	if err != nil {
		return nil, err
	}
	hooks := svc.HTTP.Webhooks
	return func(ctx context.Context) (webhook.SweepResult, error) { return hooks.Sweep(ctx) }, nil
}

// Start runs the function; it never returns.
func Start() {
	h, err := New(context.Background(), os.Getenv, os.Stderr)
	if err != nil {
		// Configuration errors fail the init phase, where CloudWatch shows them.
		panic(err)
	}
	lambda.Start(h)
}
