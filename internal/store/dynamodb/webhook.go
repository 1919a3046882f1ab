package dynamodb

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doctrust/doctrust/internal/store"
)

const (
	attrURL      = "url"
	attrSecret   = "secret"
	attrLast     = "last"
	attrDue      = "due"
	attrAttempts = "attempts"
)

const (
	skWebhook = "webhook"
	// pkOutbox holds every account's pending deliveries in one partition,
	// so the sweep finds due ones with one query and no index. Rows live
	// only while their receiver fails (a day at most), so the partition
	// stays small; a service with many failing receivers would give it a
	// sparse index on due instead.
	pkOutbox          = "outbox"
	skDeliveryPrefix  = "delivery#"
	deliveryPageLimit = 1000
)

func (s *Store) PutWebhook(ctx context.Context, w store.Webhook) error {
	item := ledgerKey(acctKey(w.AccountID), skWebhook)
	item[attrID] = sv(w.ID)
	item[attrURL] = sv(w.URL)
	item[attrSecret] = sv(w.Secret)
	item[attrCreated] = tv(w.Created)
	if _, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &s.ledger, Item: item}); err != nil {
		return fmt.Errorf("dynamodb: webhook: %w", err)
	}
	return nil
}

func (s *Store) Webhook(ctx context.Context, accountID string) (store.Webhook, error) {
	out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &s.ledger, Key: ledgerKey(acctKey(accountID), skWebhook), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return store.Webhook{}, fmt.Errorf("dynamodb: webhook: %w", err)
	}
	if len(out.Item) == 0 {
		return store.Webhook{}, store.ErrNotFound
	}
	r := reader{item: out.Item}
	w := store.Webhook{AccountID: accountID, ID: r.s(attrID), URL: r.s(attrURL), Secret: r.s(attrSecret), Created: r.t(attrCreated)}
	if last := r.s(attrLast); last != "" {
		if err := json.Unmarshal([]byte(last), &w.Last); err != nil {
			return store.Webhook{}, errors.New("dynamodb: webhook: malformed outcome")
		}
	}
	if r.err != nil {
		return store.Webhook{}, fmt.Errorf("dynamodb: webhook: %w", r.err)
	}
	return w, nil
}

func (s *Store) DeleteWebhook(ctx context.Context, accountID string) error {
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: &s.ledger, Key: ledgerKey(acctKey(accountID), skWebhook)})
	if err != nil {
		return fmt.Errorf("dynamodb: webhook: %w", err)
	}
	return nil
}

func (s *Store) RecordDelivery(ctx context.Context, accountID, webhookID string, o store.DeliveryOutcome) error {
	last, err := json.Marshal(o)
	if err != nil {
		return fmt.Errorf("dynamodb: webhook outcome: %w", err)
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 &s.ledger,
		Key:                       ledgerKey(acctKey(accountID), skWebhook),
		UpdateExpression:          aws.String("SET #last = :last"),
		ConditionExpression:       aws.String("#id = :id"),
		ExpressionAttributeNames:  names(attrLast, attrID),
		ExpressionAttributeValues: map[string]types.AttributeValue{":last": sv(string(last)), ":id": sv(webhookID)},
	})
	if conditionFailed(err) != nil {
		return store.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("dynamodb: webhook outcome: %w", err)
	}
	return nil
}

func deliveryItem(d store.Delivery, rev int64) map[string]types.AttributeValue {
	item := ledgerKey(pkOutbox, skDeliveryPrefix+d.ID)
	item[attrAccountID] = sv(d.AccountID)
	item[attrData] = sv(string(d.Event))
	item[attrDue] = tv(d.Due)
	item[attrRev] = nv(rev)
	item[attrAttempts] = nv(int64(d.Attempts))
	item[attrCreated] = tv(d.Created)
	putExpiry(item, d.Expires)
	return item
}

// AddAlertDelivery writes the alert and its outbox row in one
// transaction.
func (s *Store) AddAlertDelivery(ctx context.Context, a store.Alert, d store.Delivery) error {
	data, err := json.Marshal(alertData{ID: a.ID, Kind: a.Kind, SupplierKey: a.SupplierKey, At: a.At, MessageID: a.MessageID, SenderDomain: a.SenderDomain, Band: a.Band})
	if err != nil {
		return fmt.Errorf("dynamodb: alert: %w", err)
	}
	alert := ledgerKey(acctKey(a.AccountID), skAlertPrefix+formatTime(a.At)+"#"+a.ID)
	alert[attrData] = sv(string(data))
	putExpiry(alert, a.Expires)
	notExists := aws.String("attribute_not_exists(#pk)")
	err = s.transact(ctx, []types.TransactWriteItem{
		{Put: &types.Put{TableName: &s.ledger, Item: alert}},
		{Put: &types.Put{TableName: &s.ledger, Item: deliveryItem(d, 1), ConditionExpression: notExists, ExpressionAttributeNames: names(attrPK)}},
	})
	if reasons, ok := cancelled(err); ok && anyFailed(reasons) {
		return store.ErrConflict
	}
	if err != nil {
		return fmt.Errorf("dynamodb: alert delivery: %w", err)
	}
	return nil
}

func (s *Store) DueDeliveries(ctx context.Context, now time.Time, limit int) ([]store.Delivery, error) {
	p := dynamodb.NewQueryPaginator(s.db, &dynamodb.QueryInput{
		TableName:                &s.ledger,
		ConsistentRead:           aws.Bool(true),
		KeyConditionExpression:   aws.String("#pk = :pk AND begins_with(#sk, :prefix)"),
		FilterExpression:         aws.String("#due <= :now"),
		ExpressionAttributeNames: names(attrPK, attrSK, attrDue),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": sv(pkOutbox), ":prefix": sv(skDeliveryPrefix), ":now": tv(now),
		},
		Limit: aws.Int32(deliveryPageLimit),
	})
	var out []store.Delivery
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("dynamodb: deliveries: %w", err)
		}
		for _, item := range page.Items {
			r := reader{item: item}
			d := store.Delivery{ID: r.s(attrSK)[len(skDeliveryPrefix):], AccountID: r.s(attrAccountID), Event: []byte(r.s(attrData)),
				Due: r.t(attrDue), Rev: r.n(attrRev), Attempts: int(r.n(attrAttempts)), Created: r.t(attrCreated), Expires: r.t(attrExpires)}
			if r.err != nil {
				return nil, fmt.Errorf("dynamodb: deliveries: %w", r.err)
			}
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b store.Delivery) int { return cmp.Or(a.Due.Compare(b.Due), cmp.Compare(a.ID, b.ID)) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

func (s *Store) SaveDelivery(ctx context.Context, d store.Delivery) error {
	_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                 &s.ledger,
		Item:                      deliveryItem(d, d.Rev+1),
		ConditionExpression:       aws.String(revCondition),
		ExpressionAttributeNames:  names(attrRev),
		ExpressionAttributeValues: map[string]types.AttributeValue{":rev": nv(d.Rev)},
	})
	return deliveryWritten(err)
}

func (s *Store) DeleteDelivery(ctx context.Context, d store.Delivery) error {
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                 &s.ledger,
		Key:                       ledgerKey(pkOutbox, skDeliveryPrefix+d.ID),
		ConditionExpression:       aws.String(revCondition),
		ExpressionAttributeNames:  names(attrRev),
		ExpressionAttributeValues: map[string]types.AttributeValue{":rev": nv(d.Rev)},
	})
	return deliveryWritten(err)
}

// revCondition holds a write to the revision the writer read: a sweep
// that claimed the delivery in between makes it store.ErrConflict.
const revCondition = "#rev = :rev"

func deliveryWritten(err error) error {
	if conditionFailed(err) != nil {
		return store.ErrConflict
	}
	if err != nil {
		return fmt.Errorf("dynamodb: delivery: %w", err)
	}
	return nil
}
