package config

import (
	"context"
	"fmt"

	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/store/dynamodb"
)

// openDynamo opens the DynamoDB store. Against a local server
// (DYNAMODB_ENDPOINT) the tables are created when missing; on AWS they are
// template.yaml's and the function's role may not create tables.
func openDynamo(ctx context.Context, getenv func(string) string) (store.Store, error) {
	endpoint := getenv("DYNAMODB_ENDPOINT")
	st, err := dynamodb.Open(ctx, dynamodb.Config{Endpoint: endpoint, Prefix: getenv("TABLE_PREFIX"), Region: getenv("AWS_REGION")})
	if err != nil {
		return nil, fmt.Errorf("config: dynamodb store: %w", err)
	}
	if endpoint != "" {
		if err := st.CreateTables(ctx); err != nil {
			return nil, fmt.Errorf("config: dynamodb tables: %w", err)
		}
	}
	return st, nil
}
