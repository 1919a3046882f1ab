package dynamodb

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/doctrust/doctrust/internal/store"
)

// Deadlines of a store call. A paused or unreachable DynamoDB must not
// hold a request: every call, retries included, ends within CallTimeout
// (so the API answers 503 store_unavailable inside 5 s), and one attempt
// that gets no answer is abandoned after AttemptTimeout so a retry still
// fits.
const (
	CallTimeout    = 3500 * time.Millisecond
	AttemptTimeout = 2 * time.Second
	connectTimeout = time.Second
	maxAttempts    = 3
	maxBackoff     = 400 * time.Millisecond
)

// clientOptions bounds every call of the client: the SDK's standard
// retryer (it retries what DynamoDB marks retryable: throttling,
// 5xx, connection faults, with jittered exponential backoff) with a
// short backoff, an HTTP client that gives up on an attempt, and the
// per-call deadline and fault classification of faults.
func (s *Store) clientOptions(o *dynamodb.Options) {
	o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
		so.MaxAttempts = maxAttempts
		so.MaxBackoff = maxBackoff
	})
	o.HTTPClient = awshttp.NewBuildableClient().
		WithTimeout(AttemptTimeout).
		WithDialerOptions(func(d *net.Dialer) { d.Timeout = connectTimeout })
	o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
		return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("doctrustDeadline", s.deadline), middleware.Before)
	})
}

// deadline runs one call under CallTimeout and turns the faults of the
// store itself (no answer, refused connections, throttling past the
// retries, a missing table) into store.ErrUnavailable, keeping the
// original error in the chain. A caller that went away is not a fault of
// the store and keeps its own error.
func (s *Store) deadline(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
	if ctx.Value(schemaKey{}) != nil {
		return next.HandleInitialize(ctx, in)
	}
	callCtx, cancel := context.WithTimeout(ctx, CallTimeout)
	defer cancel()
	out, md, err := next.HandleInitialize(callCtx, in)
	if err == nil || ctx.Err() != nil || errors.Is(err, store.ErrUnavailable) {
		return out, md, err
	}
	var missing *types.ResourceNotFoundException
	switch {
	case errors.As(err, &missing):
		s.recreate(ctx)
	case callCtx.Err() != nil:
	case retry.IsErrorRetryables(retry.DefaultRetryables).IsErrorRetryable(err) == aws.TrueTernary:
	default:
		return out, md, err
	}
	return out, md, fmt.Errorf("%w: %w", store.ErrUnavailable, err)
}

// recreate builds the missing tables of a local store (a DynamoDB Local
// restarted empty) so the next call succeeds without restarting the
// service. On AWS the tables are the deployment's: a missing one is
// reported (store_unavailable), never created by the function.
func (s *Store) recreate(ctx context.Context) {
	if !s.local || !s.recreating.CompareAndSwap(false, true) {
		return
	}
	defer s.recreating.Store(false)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	s.CreateTables(ctx)
}

// schemaKey marks the calls that build or inspect the schema.
type schemaKey struct{}

// schemaTimeout bounds one attempt of a schema call.
const schemaTimeout = 30 * time.Second

// schemaContext exempts the schema calls (creating tables, waiting for
// them, TTL) from a request's deadline: they run at start, in a
// deployment step or when a local store lost its tables, never for a
// caller waiting on an answer, and DynamoDB Local takes seconds to create
// tables on a loaded machine. Their own context still bounds them.
func schemaContext(ctx context.Context) context.Context {
	return context.WithValue(ctx, schemaKey{}, true)
}

// schemaOptions gives a schema call an HTTP client that waits as long as
// table creation may take.
func schemaOptions(o *dynamodb.Options) {
	o.HTTPClient = awshttp.NewBuildableClient().
		WithTimeout(schemaTimeout).
		WithDialerOptions(func(d *net.Dialer) { d.Timeout = connectTimeout })
}
