package dynamodb

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Table suffixes; the full name is the store's prefix (TABLE_PREFIX)
// followed by the suffix.
const (
	TableAccounts  = "accounts"
	TableKeys      = "keys"
	TableCounters  = "counters"
	TableUsage     = "usage"
	TableSecrets   = "secrets"
	TableSessions  = "sessions"
	TableTokens    = "tokens"
	TableLedger    = "ledger"
	TableBaselines = "baselines"
)

// IndexKeysByAccount is the keys table's index for listing an account's
// keys.
const IndexKeysByAccount = "byAccount"

// Table is one table's definition. Every key attribute is a string (S);
// tables are on-demand (PAY_PER_REQUEST) and every index projects all
// attributes.
type Table struct {
	Name     string // suffix after the table prefix
	HashKey  string
	RangeKey string // empty: no sort key
	Indexes  []Index
	TTL      string // the TTL attribute (epoch seconds); empty: no TTL
}

// Index is a global secondary index.
type Index struct {
	Name     string
	HashKey  string
	RangeKey string
}

// Tables is the one declaration of the schema: CreateTables builds from it
// and the deployment test checks template.yaml against it, so the two
// cannot disagree.
func Tables() []Table {
	return []Table{
		{Name: TableAccounts, HashKey: attrPK},
		{Name: TableKeys, HashKey: attrHash, Indexes: []Index{
			{Name: IndexKeysByAccount, HashKey: attrAccountID, RangeKey: attrCreated},
		}},
		{Name: TableCounters, HashKey: attrPK, TTL: attrExpiresAt},
		{Name: TableUsage, HashKey: attrAccountID, RangeKey: attrSK, TTL: attrExpiresAt},
		{Name: TableSecrets, HashKey: attrName},
		{Name: TableSessions, HashKey: attrHash, TTL: attrExpiresAt},
		{Name: TableTokens, HashKey: attrHash, TTL: attrExpiresAt},
		{Name: TableLedger, HashKey: attrPK, RangeKey: attrSK, TTL: attrExpiresAt},
		{Name: TableBaselines, HashKey: attrAccountID, RangeKey: attrIssuer},
	}
}

// CreateTables creates every missing table, waits until each is active
// and turns TTL on where the table has one. It is safe to run again on an
// existing deployment: what exists is left as it is.
func (s *Store) CreateTables(ctx context.Context) error {
	ctx = schemaContext(ctx)
	tables := Tables()
	errs := make([]error, len(tables))
	var wg sync.WaitGroup
	for i, t := range tables {
		wg.Go(func() { errs[i] = s.createTable(ctx, t) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (s *Store) createTable(ctx context.Context, t Table) error {
	name := s.prefix + t.Name
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema:   keySchema(t.HashKey, t.RangeKey),
	}
	defined := map[string]bool{}
	define := func(attrs ...string) {
		for _, a := range attrs {
			if a != "" && !defined[a] {
				defined[a] = true
				in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{
					AttributeName: aws.String(a), AttributeType: types.ScalarAttributeTypeS,
				})
			}
		}
	}
	define(t.HashKey, t.RangeKey)
	for _, ix := range t.Indexes {
		define(ix.HashKey, ix.RangeKey)
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName:  aws.String(ix.Name),
			KeySchema:  keySchema(ix.HashKey, ix.RangeKey),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		})
	}
	if _, err := s.db.CreateTable(ctx, in, schemaOptions); err != nil {
		var inUse *types.ResourceInUseException
		if !errors.As(err, &inUse) {
			return fmt.Errorf("dynamodb: creating table %s: %w", name, err)
		}
	}
	// Real DynamoDB takes seconds to activate a table; DynamoDB Local is
	// immediate, so the waiter's first look is what keeps tests fast.
	w := dynamodb.NewTableExistsWaiter(s.db, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay, o.MaxDelay = 500*time.Millisecond, 5*time.Second
		o.ClientOptions = append(o.ClientOptions, schemaOptions)
	})
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, 5*time.Minute); err != nil {
		return fmt.Errorf("dynamodb: waiting for table %s: %w", name, err)
	}
	if t.TTL == "" {
		return nil
	}
	desc, err := s.db.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)}, schemaOptions)
	if err != nil {
		return fmt.Errorf("dynamodb: reading TTL of %s: %w", name, err)
	}
	// Enabling TTL twice is an error, and so is changing it while a change
	// is under way: only a table with TTL off is touched.
	if d := desc.TimeToLiveDescription; d != nil && d.TimeToLiveStatus != types.TimeToLiveStatusDisabled {
		return nil
	}
	_, err = s.db.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
		TableName: aws.String(name),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{
			AttributeName: aws.String(t.TTL), Enabled: aws.Bool(true),
		},
	}, schemaOptions)
	if err != nil {
		return fmt.Errorf("dynamodb: enabling TTL on %s: %w", name, err)
	}
	return nil
}

func keySchema(hash, rng string) []types.KeySchemaElement {
	ks := []types.KeySchemaElement{{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash}}
	if rng != "" {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(rng), KeyType: types.KeyTypeRange})
	}
	return ks
}
