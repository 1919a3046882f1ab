package dynamodb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doctrust/doctrust/internal/store"
)

const (
	attrAlias = "alias"
	attrRev   = "rev"
	attrData  = "data"
)

const (
	skAlias          = "alias"
	skAliasOwner     = "-"
	skSupplierPrefix = "supplier#"
	skAlertPrefix    = "alert#"
)

func aliasKey(alias string) string { return "alias#" + alias }

func ledgerKey(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{attrPK: sv(pk), attrSK: sv(sk)}
}

// EnsureAlias claims the alias and records it on the account in one
// transaction; when it fails, the account's own alias (a racing call's)
// is the answer, else the alias is another account's.
func (s *Store) EnsureAlias(ctx context.Context, accountID, candidate string) (string, error) {
	if a, err := s.accountAlias(ctx, accountID); err != nil || a != "" {
		return a, err
	}
	owner := ledgerKey(aliasKey(candidate), skAliasOwner)
	owner[attrAccountID] = sv(accountID)
	mine := ledgerKey(acctKey(accountID), skAlias)
	mine[attrAlias] = sv(candidate)
	notExists := aws.String("attribute_not_exists(#pk)")
	err := s.transact(ctx, []types.TransactWriteItem{
		{Put: &types.Put{TableName: &s.ledger, Item: owner, ConditionExpression: notExists, ExpressionAttributeNames: names(attrPK)}},
		{Put: &types.Put{TableName: &s.ledger, Item: mine, ConditionExpression: notExists, ExpressionAttributeNames: names(attrPK)}},
	})
	if err == nil {
		return candidate, nil
	}
	if reasons, ok := cancelled(err); !ok || !anyFailed(reasons) {
		return "", fmt.Errorf("dynamodb: alias: %w", err)
	}
	if a, err := s.accountAlias(ctx, accountID); err != nil || a != "" {
		return a, err
	}
	return "", store.ErrConflict
}

func (s *Store) accountAlias(ctx context.Context, accountID string) (string, error) {
	out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &s.ledger, Key: ledgerKey(acctKey(accountID), skAlias), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return "", fmt.Errorf("dynamodb: alias: %w", err)
	}
	if len(out.Item) == 0 {
		return "", nil
	}
	r := reader{item: out.Item}
	return r.s(attrAlias), nil
}

func (s *Store) AliasAccount(ctx context.Context, alias string) (string, error) {
	out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &s.ledger, Key: ledgerKey(aliasKey(alias), skAliasOwner), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return "", fmt.Errorf("dynamodb: alias: %w", err)
	}
	if len(out.Item) == 0 {
		return "", store.ErrNotFound
	}
	r := reader{item: out.Item}
	return r.s(attrAccountID), nil
}

// supplierData is the JSON of a supplier item's data attribute.
type supplierData struct {
	TaxID    string                  `json:"taxId,omitempty"`
	Domains  []string                `json:"domains"`
	Versions []store.SupplierVersion `json:"versions"`
	Created  time.Time               `json:"created"`
	Updated  time.Time               `json:"updated"`
}

// alertData is the JSON of an alert item's data attribute.
type alertData struct {
	ID           string    `json:"id"`
	Kind         string    `json:"kind"`
	SupplierKey  string    `json:"supplierKey"`
	At           time.Time `json:"at"`
	MessageID    string    `json:"messageId,omitempty"`
	SenderDomain string    `json:"senderDomain,omitempty"`
	Band         string    `json:"band,omitempty"`
	Acknowledged time.Time `json:"acknowledged,omitzero"`
}

// query lists the items of one account whose sort key starts at from and
// stays below to.
func (s *Store) ledgerQuery(ctx context.Context, accountID, from, to string, each func(map[string]types.AttributeValue) error) error {
	p := dynamodb.NewQueryPaginator(s.db, &dynamodb.QueryInput{
		TableName:                &s.ledger,
		ConsistentRead:           aws.Bool(true),
		KeyConditionExpression:   aws.String("#pk = :pk AND #sk BETWEEN :from AND :to"),
		ExpressionAttributeNames: names(attrPK, attrSK),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": sv(acctKey(accountID)), ":from": sv(from), ":to": sv(to),
		},
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return err
		}
		for _, item := range page.Items {
			if err := each(item); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Store) Suppliers(ctx context.Context, accountID string) ([]store.Supplier, error) {
	var out []store.Supplier
	err := s.ledgerQuery(ctx, accountID, skSupplierPrefix, skSupplierPrefix+"\uffff", func(item map[string]types.AttributeValue) error {
		r := reader{item: item}
		var d supplierData
		if err := json.Unmarshal([]byte(r.s(attrData)), &d); err != nil {
			return errors.New("malformed supplier item")
		}
		out = append(out, store.Supplier{
			AccountID: accountID, Key: strings.TrimPrefix(r.s(attrSK), skSupplierPrefix), Rev: r.n(attrRev),
			TaxID: d.TaxID, Domains: d.Domains, Versions: d.Versions, Created: d.Created, Updated: d.Updated,
		})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("dynamodb: suppliers: %w", err)
	}
	return out, nil
}

// SaveSupplier is one conditional PutItem on the revision.
func (s *Store) SaveSupplier(ctx context.Context, sp store.Supplier) error {
	data, err := json.Marshal(supplierData{TaxID: sp.TaxID, Domains: sp.Domains, Versions: sp.Versions, Created: sp.Created, Updated: sp.Updated})
	if err != nil {
		return fmt.Errorf("dynamodb: supplier: %w", err)
	}
	item := ledgerKey(acctKey(sp.AccountID), skSupplierPrefix+sp.Key)
	item[attrRev] = nv(sp.Rev + 1)
	item[attrData] = sv(string(data))
	in := &dynamodb.PutItemInput{TableName: &s.ledger, Item: item, ExpressionAttributeNames: names(attrPK)}
	if sp.Rev == 0 {
		in.ConditionExpression = aws.String("attribute_not_exists(#pk)")
	} else {
		in.ConditionExpression = aws.String("#rev = :rev")
		in.ExpressionAttributeNames = names(attrRev)
		in.ExpressionAttributeValues = map[string]types.AttributeValue{":rev": nv(sp.Rev)}
	}
	if _, err := s.db.PutItem(ctx, in); err != nil {
		if conditionFailed(err) != nil {
			return store.ErrConflict
		}
		return fmt.Errorf("dynamodb: supplier: %w", err)
	}
	return nil
}

func (s *Store) AddAlert(ctx context.Context, a store.Alert) error {
	data, err := json.Marshal(alertData{ID: a.ID, Kind: a.Kind, SupplierKey: a.SupplierKey, At: a.At, MessageID: a.MessageID, SenderDomain: a.SenderDomain, Band: a.Band})
	if err != nil {
		return fmt.Errorf("dynamodb: alert: %w", err)
	}
	item := ledgerKey(acctKey(a.AccountID), skAlertPrefix+formatTime(a.At)+"#"+a.ID)
	item[attrData] = sv(string(data))
	putExpiry(item, a.Expires)
	if _, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &s.ledger, Item: item}); err != nil {
		return fmt.Errorf("dynamodb: alert: %w", err)
	}
	return nil
}

// AlertsSince drops expired alerts by the injected clock: TTL deletion
// runs late.
func (s *Store) AlertsSince(ctx context.Context, accountID string, from time.Time) ([]store.Alert, error) {
	now := s.now()
	var out []store.Alert
	err := s.ledgerQuery(ctx, accountID, skAlertPrefix+formatTime(from), skAlertPrefix+"\uffff", func(item map[string]types.AttributeValue) error {
		r := reader{item: item}
		if r.expired(now) {
			return nil
		}
		var d alertData
		if err := json.Unmarshal([]byte(r.s(attrData)), &d); err != nil {
			return errors.New("malformed alert item")
		}
		out = append(out, store.Alert{
			ID: d.ID, AccountID: accountID, Kind: d.Kind, SupplierKey: d.SupplierKey, At: d.At,
			MessageID: d.MessageID, SenderDomain: d.SenderDomain, Band: d.Band, Expires: r.t(attrExpires),
			Acknowledged: d.Acknowledged,
		})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("dynamodb: alerts: %w", err)
	}
	return out, nil
}

// AcknowledgeAlert finds the alert among the account's (its sort key
// starts with its time, which the caller does not give) and rewrites its
// data with the acknowledgement, on the condition that the data is still
// what was read: a concurrent acknowledgement wins and is kept.
func (s *Store) AcknowledgeAlert(ctx context.Context, accountID, id string, when time.Time) error {
	now := s.now()
	var found map[string]types.AttributeValue
	err := s.ledgerQuery(ctx, accountID, skAlertPrefix, skAlertPrefix+"\uffff", func(item map[string]types.AttributeValue) error {
		r := reader{item: item}
		if found != nil || r.expired(now) || !strings.HasSuffix(r.s(attrSK), "#"+id) {
			return nil
		}
		found = item
		return nil
	})
	if err != nil {
		return fmt.Errorf("dynamodb: acknowledge alert: %w", err)
	}
	if found == nil {
		return store.ErrNotFound
	}
	r := reader{item: found}
	old := r.s(attrData)
	var d alertData
	if err := json.Unmarshal([]byte(old), &d); err != nil || d.ID != id {
		return store.ErrNotFound
	}
	if !d.Acknowledged.IsZero() {
		return nil
	}
	d.Acknowledged = when.UTC()
	data, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("dynamodb: acknowledge alert: %w", err)
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 &s.ledger,
		Key:                       map[string]types.AttributeValue{attrPK: found[attrPK], attrSK: found[attrSK]},
		UpdateExpression:          aws.String("SET #" + attrData + " = :new"),
		ConditionExpression:       aws.String("#" + attrData + " = :old"),
		ExpressionAttributeNames:  names(attrData),
		ExpressionAttributeValues: map[string]types.AttributeValue{":new": sv(string(data)), ":old": sv(old)},
	})
	if conditionFailed(err) != nil {
		return nil // acknowledged meanwhile, or gone: the first acknowledgement stands
	}
	if err != nil {
		return fmt.Errorf("dynamodb: acknowledge alert: %w", err)
	}
	return nil
}
