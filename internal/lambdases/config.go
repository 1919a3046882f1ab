package lambdases

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

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
	var opts []func(*awsconfig.LoadOptions) error
	if r := getenv("AWS_REGION"); r != "" {
		opts = append(opts, awsconfig.WithRegion(r))
	}
	if endpoint != "" && os.Getenv("AWS_ACCESS_KEY_ID") == "" && os.Getenv("AWS_PROFILE") == "" {
		opts = append(opts, awsconfig.WithCredentialsProvider(credentials.NewStaticCredentialsProvider("local", "local", "")))
	}
	awsCfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("lambdases: loading AWS configuration: %w", err)
	}
	if awsCfg.Region == "" {
		awsCfg.Region = "us-east-1"
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
