package dynamodb

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doctrust/doctrust/internal/store"
)

const (
	attrIssuer  = "issuer"
	attrProfile = "profile"
	attrUpdated = "updated"
	// countIssuer is the range key of the account's profile counter; no
	// slug starts with "#".
	countIssuer = "#count"
)

func baselineKey(accountID, issuer string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{attrAccountID: sv(accountID), attrIssuer: sv(issuer)}
}

func baselineItem(b store.Baseline) map[string]types.AttributeValue {
	item := baselineKey(b.AccountID, b.Issuer)
	item[attrProfile] = &types.AttributeValueMemberB{Value: b.Profile}
	item[attrCreated] = tv(b.Created)
	item[attrUpdated] = tv(b.Updated)
	return item
}

// PutBaseline first replaces an existing profile (a conditional update
// that keeps created); when there is none it creates one in a transaction
// with the account's counter, whose condition holds the limit. A create
// that loses a race to a create of the same issuer goes round again and
// replaces.
func (s *Store) PutBaseline(ctx context.Context, b store.Baseline, limit int) error {
	for range 3 {
		_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                &s.baselines,
			Key:                      baselineKey(b.AccountID, b.Issuer),
			UpdateExpression:         aws.String("SET #profile = :p, #updated = :u"),
			ConditionExpression:      aws.String("attribute_exists(#issuer)"),
			ExpressionAttributeNames: names(attrProfile, attrUpdated, attrIssuer),
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":p": &types.AttributeValueMemberB{Value: b.Profile}, ":u": tv(b.Updated),
			},
		})
		if conditionFailed(err) == nil {
			if err != nil {
				return fmt.Errorf("dynamodb: put baseline: %w", err)
			}
			return nil
		}
		err = s.transact(ctx, []types.TransactWriteItem{
			{Put: &types.Put{
				TableName:                &s.baselines,
				Item:                     baselineItem(b),
				ConditionExpression:      aws.String("attribute_not_exists(#issuer)"),
				ExpressionAttributeNames: names(attrIssuer),
			}},
			{Update: &types.Update{
				TableName:                &s.baselines,
				Key:                      baselineKey(b.AccountID, countIssuer),
				UpdateExpression:         aws.String("SET #n = if_not_exists(#n, :zero) + :one"),
				ConditionExpression:      aws.String("attribute_not_exists(#n) OR #n < :limit"),
				ExpressionAttributeNames: names(attrCount),
				ExpressionAttributeValues: map[string]types.AttributeValue{
					":zero": nv(0), ":one": nv(1), ":limit": nv(int64(limit)),
				},
			}},
		})
		reasons, ok := cancelled(err)
		switch {
		case err == nil:
			return nil
		case ok && failed(reasons, 0):
			continue // created meanwhile: replace it
		case ok && failed(reasons, 1):
			return store.ErrRefused
		default:
			return fmt.Errorf("dynamodb: create baseline: %w", err)
		}
	}
	return errors.New("dynamodb: put baseline: the profile kept changing")
}

func (s *Store) Baseline(ctx context.Context, accountID, issuer string) (store.Baseline, error) {
	if issuer == countIssuer {
		return store.Baseline{}, store.ErrNotFound
	}
	out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: &s.baselines, Key: baselineKey(accountID, issuer), ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return store.Baseline{}, fmt.Errorf("dynamodb: baseline: %w", err)
	}
	if len(out.Item) == 0 {
		return store.Baseline{}, store.ErrNotFound
	}
	return decodeBaseline(out.Item)
}

func (s *Store) Baselines(ctx context.Context, accountID string) ([]store.Baseline, error) {
	p := dynamodb.NewQueryPaginator(s.db, &dynamodb.QueryInput{
		TableName:                 &s.baselines,
		KeyConditionExpression:    aws.String("#accountId = :a"),
		ExpressionAttributeNames:  names(attrAccountID),
		ExpressionAttributeValues: map[string]types.AttributeValue{":a": sv(accountID)},
		ConsistentRead:            aws.Bool(true),
	})
	var out []store.Baseline
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("dynamodb: baselines: %w", err)
		}
		for _, item := range page.Items {
			if iv, _ := item[attrIssuer].(*types.AttributeValueMemberS); iv != nil && iv.Value == countIssuer {
				continue
			}
			b, err := decodeBaseline(item)
			if err != nil {
				return nil, err
			}
			out = append(out, b)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Issuer < out[j].Issuer })
	return out, nil
}

// DeleteBaseline removes the profile and lowers the counter together.
func (s *Store) DeleteBaseline(ctx context.Context, accountID, issuer string) error {
	if issuer == countIssuer {
		return store.ErrNotFound
	}
	err := s.transact(ctx, []types.TransactWriteItem{
		{Delete: &types.Delete{
			TableName:                &s.baselines,
			Key:                      baselineKey(accountID, issuer),
			ConditionExpression:      aws.String("attribute_exists(#issuer)"),
			ExpressionAttributeNames: names(attrIssuer),
		}},
		{Update: &types.Update{
			TableName:                 &s.baselines,
			Key:                       baselineKey(accountID, countIssuer),
			UpdateExpression:          aws.String("SET #n = if_not_exists(#n, :one) - :one"),
			ExpressionAttributeNames:  names(attrCount),
			ExpressionAttributeValues: map[string]types.AttributeValue{":one": nv(1)},
		}},
	})
	if reasons, ok := cancelled(err); ok && failed(reasons, 0) {
		return store.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("dynamodb: delete baseline: %w", err)
	}
	return nil
}

func decodeBaseline(item map[string]types.AttributeValue) (store.Baseline, error) {
	r := reader{item: item}
	b := store.Baseline{
		AccountID: r.s(attrAccountID),
		Issuer:    r.s(attrIssuer),
		Created:   r.t(attrCreated),
		Updated:   r.t(attrUpdated),
	}
	if v, ok := item[attrProfile].(*types.AttributeValueMemberB); ok {
		b.Profile = v.Value
	} else {
		r.fail(attrProfile, "binary")
	}
	if r.err != nil {
		return store.Baseline{}, fmt.Errorf("dynamodb: baseline: %w", r.err)
	}
	return b, nil
}
