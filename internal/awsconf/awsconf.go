// Package awsconf loads the AWS configuration every client of the service
// uses (DynamoDB, SES, S3), the same way: the SDK's default chain on AWS,
// and against a local stand-in (an endpoint given) static credentials and a
// default region.
package awsconf

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// ErrNoRegion: no region configured and no local endpoint to default one for.
var ErrNoRegion = errors.New("no AWS region configured (set AWS_REGION)")

// Load returns the configuration for a client of region (empty: the SDK's
// own resolution) and endpoint (empty: AWS itself). getenv is the process
// environment as the caller sees it.
func Load(ctx context.Context, region, endpoint string, getenv func(string) string) (aws.Config, error) {
	var opts []func(*config.LoadOptions) error
	if region != "" {
		opts = append(opts, config.WithRegion(region))
	}
	// A stand-in does not check signatures, and a machine without AWS
	// credentials would otherwise wait on the instance metadata service.
	if endpoint != "" && getenv("AWS_ACCESS_KEY_ID") == "" && getenv("AWS_PROFILE") == "" {
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider("local", "local", "")))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, fmt.Errorf("loading AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		if endpoint == "" {
			return aws.Config{}, ErrNoRegion
		}
		cfg.Region = "us-east-1"
	}
	return cfg, nil
}
