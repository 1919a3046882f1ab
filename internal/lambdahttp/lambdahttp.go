// Package lambdahttp hands the shared HTTP handler to API Gateway (HTTP API,
// payload format 2.0) through aws-lambda-go-api-proxy. Each function's main
// is one call to Start.
package lambdahttp

import (
	"context"
	"net/http"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"
	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/internal/config"
	"github.com/doctrust/doctrust/internal/httpapi"
)

// responseReserve is kept between the analysis deadline and the function
// timeout, so a document that exhausts its budget still gets its 422
// analysis_timeout instead of a killed function.
const responseReserve = 1500 * time.Millisecond

// Handler is the function body: an API Gateway v2 event in, a response out.
type Handler func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error)

// New builds the handler from the environment.
func New(getenv func(string) string) (Handler, error) {
	// In the init phase, not in the first request.
	engine.Prepare()
	// The store stays open for the life of the instance.
	svc, err := config.Server(context.Background(), config.Lambda, getenv, os.Stderr)
	if err != nil {
		return nil, err
	}
	return Wrap(httpapi.New(svc.HTTP)), nil
}

// Wrap adapts an http.Handler, pulling the context deadline in ahead of the
// function's own.
func Wrap(h http.Handler) Handler {
	adapter := httpadapter.NewV2(h)
	return func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		if dl, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, dl.Add(-responseReserve))
			defer cancel()
		}
		return adapter.ProxyWithContext(ctx, ev)
	}
}

// Start runs the function; it never returns.
func Start() {
	h, err := New(os.Getenv)
	if err != nil {
		// Configuration errors fail the init phase, where CloudWatch shows them.
		panic(err)
	}
	lambda.Start(h)
}
