package lambdases

import (
	"context"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/doctrust/doctrust/internal/awsconf"
	"github.com/doctrust/doctrust/internal/config"
	"github.com/doctrust/doctrust/internal/ledger"
)

// New builds the handler from the environment: the store and ledger as
// every function builds them (internal/config), INGEST_MAIL_DOMAIN,
// INGEST_BUCKET and INGEST_PREFIX (the receipt rule's S3 action), and
// S3_ENDPOINT for a local S3 stand-in (path-style addressing). Logs go to
// logTo.
func New(ctx context.Context, getenv func(string) string, logTo io.Writer) (*Handler, error) {
	svc, err := config.Server(ctx, config.Lambda, getenv, logTo)
	if err != nil {
		return nil, err
	}
	client, err := newS3(ctx, getenv)
	if err != nil {
		svc.Close()
		return nil, err
	}
	c := svc.HTTP
	// One message at a time per instance: no worker pool.
	return &Handler{Intake: ledger.Intake{Ledger: c.Ledger, Domain: c.IngestMailDomain, Limiter: c.Limiter},
		S3: client, Bucket: getenv("INGEST_BUCKET"), Prefix: getenv("INGEST_PREFIX"), Logger: c.Logger}, nil
}

func newS3(ctx context.Context, getenv func(string) string) (*s3.Client, error) {
	endpoint := getenv("S3_ENDPOINT")
	awsCfg, err := awsconf.Load(ctx, getenv("AWS_REGION"), endpoint, getenv)
	if err != nil {
		return nil, fmt.Errorf("lambdases: %w", err)
	}
	return s3.NewFromConfig(awsCfg, func(o *s3.Options) {
		// SES stores messages without a checksum; the SDK would log that
		// it skipped the check on every read.
		o.DisableLogOutputChecksumValidationSkipped = true
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
			o.UsePathStyle = true
		}
	}), nil
}
