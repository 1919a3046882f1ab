// Package dynamodb is the store.Store of the deployed service, on Amazon
// DynamoDB. docs/store.md describes the schema for operators; in short
// (every key attribute is a string, every table on-demand):
//
//	<prefix>accounts  pk
//	    acct#<id>           the account: id, email, passwordHash, verified,
//	                        plan, credits (N), created, sessionEpoch (N);
//	                        billing: stripeCustomer, subscriptionId,
//	                        periodStart, periodEnd, planVersion (N),
//	                        paymentFailedAt, paymentFailedRef
//	    email#<email>       accountId: makes the lower-cased email unique
//	<prefix>keys      hash (hex SHA-256 of the key)
//	                        id, accountId, preview, created, revoked, revokedAt
//	    GSI byAccount       accountId + created, all attributes
//	<prefix>counters  pk, TTL expiresAt
//	    quota#<acct>#<YYYY-MM>  used (N): the month's quota counter
//	    rate#<bucket>           n (N), expires: a fixed rate window
//	    grant#<grantID>         accountId, credits, at: a credit grant applied
//	<prefix>usage     accountId + sk (<time>#<id>), TTL expiresAt
//	    one row per analysis: id, keyId, clientIp, route, at, documents,
//	    bytes, band, credit, expires, recorded (wall-clock ns of the write);
//	    anonymous rows under accountId anon#<ip>
//	<prefix>secrets   name
//	    value (B)
//	<prefix>sessions  hash (hex SHA-256 of the cookie), TTL expiresAt
//	                        accountId, epoch (N), created, expires
//	<prefix>tokens    hash (hex SHA-256 of the token), TTL expiresAt
//	                        kind, accountId, expires
//	<prefix>ledger    pk + sk, TTL expiresAt (alerts only)
//	    alias#<alias> / -       accountId: makes an ingest alias unique
//	    acct#<id> / alias       alias: the account's ingest alias
//	    acct#<id> / supplier#<key>  rev (N), data (JSON: tax id, domains,
//	                        version chain of stored-form coordinates)
//	    acct#<id> / alert#<time>#<id>  data (JSON), expires
//	<prefix>baselines accountId + issuer
//	    <slug>              profile (B, the engine's JSON), created, updated
//	    #count              n (N): the account's profile count, which
//	                        the creating transaction checks against the limit
//
// Times are stored as fixed-width UTC RFC 3339 strings with nanoseconds,
// so they round-trip exactly and sort as text in the order of time.
// Anything that expires carries two attributes: expires (such a time
// string, the exact moment, which every read and condition uses) and
// expiresAt (epoch seconds rounded up, only for DynamoDB's TTL deletion,
// which lags by up to days and so is never relied on).
//
// Every change that touches several items is one TransactWriteItems call;
// the store's errors come from the transaction's cancellation reasons.
package dynamodb

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doctrust/doctrust/internal/awsconf"
	"github.com/doctrust/doctrust/internal/store"
)

// Attribute names.
const (
	attrPK           = "pk"
	attrHash         = "hash"
	attrAccountID    = "accountId"
	attrCreated      = "created"
	attrSK           = "sk"
	attrName         = "name"
	attrExpires      = "expires"
	attrExpiresAt    = "expiresAt"
	attrID           = "id"
	attrEmail        = "email"
	attrPasswordHash = "passwordHash"
	attrVerified     = "verified"
	attrPlan         = "plan"
	attrCredits      = "credits"
	attrPreview      = "preview"
	attrRevoked      = "revoked"
	attrRevokedAt    = "revokedAt"
	attrKeyID        = "keyId"
	attrClientIP     = "clientIp"
	attrRoute        = "route"
	attrAt           = "at"
	attrDocuments    = "documents"
	attrBytes        = "bytes"
	attrBand         = "band"
	attrCredit       = "credit"
	attrUsed         = "used"
	attrCount        = "n"
	attrValue        = "value"
	attrRecorded     = "recorded"
	attrSessionEpoch = "sessionEpoch"
	attrEpoch        = "epoch"
	attrKind         = "kind"
	// billing
	attrCustomer         = "stripeCustomer"
	attrSubscription     = "subscriptionId"
	attrPeriodStart      = "periodStart"
	attrPeriodEnd        = "periodEnd"
	attrPlanVersion      = "planVersion"
	attrPaymentFailedAt  = "paymentFailedAt"
	attrPaymentFailedRef = "paymentFailedRef"
)

// Config says where the tables are.
type Config struct {
	// Endpoint is a DynamoDB-compatible server such as DynamoDB Local;
	// empty means AWS itself.
	Endpoint string
	// Prefix starts every table name (TABLE_PREFIX), so stages share an
	// account.
	Prefix string
	// Region overrides the SDK's region lookup.
	Region string
	// Now is the clock deciding expiry; nil means time.Now.
	Now func() time.Time
}

// Store implements store.Store on DynamoDB.
type Store struct {
	db     *dynamodb.Client
	prefix string
	now    func() time.Time
	// local: the tables are this process's to create (DYNAMODB_ENDPOINT),
	// so a missing one is recreated; recreating is one at a time.
	local      bool
	recreating atomic.Bool // CreateTables's own calls pass through deadline too

	accounts, keys, counters, usage, secrets, sessions, tokens, ledger, baselines string // full table names
}

var _ store.Store = (*Store)(nil)

// Open builds a client from the SDK's default configuration. With an
// Endpoint set it talks to a local server: region us-east-1 unless one is
// configured, and, unless AWS_ACCESS_KEY_ID or AWS_PROFILE says otherwise,
// a fixed dummy key pair. The fixed pair matters: DynamoDB Local keeps a
// separate database per key and region, so every local process must
// present the same ones to see the same tables, and it spares a machine
// without AWS credentials the slow fall-through to the instance metadata
// service.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	awsCfg, err := awsconf.Load(ctx, cfg.Region, cfg.Endpoint, os.Getenv)
	if err != nil {
		return nil, fmt.Errorf("dynamodb: %w", err)
	}
	s := New(nil, cfg.Prefix, cfg.Now)
	s.local = cfg.Endpoint != ""
	s.db = dynamodb.NewFromConfig(awsCfg, s.clientOptions, func(o *dynamodb.Options) {
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
			// DynamoDB Local's error responses carry a CRC32 header that
			// does not match their body; AWS's own responses keep the check.
			o.DisableValidateResponseChecksum = true
		}
	})
	return s, nil
}

// New wraps an existing client. now decides expiry; nil means time.Now.
func New(client *dynamodb.Client, prefix string, now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{
		db: client, prefix: prefix, now: now,
		accounts:  prefix + TableAccounts,
		keys:      prefix + TableKeys,
		counters:  prefix + TableCounters,
		usage:     prefix + TableUsage,
		secrets:   prefix + TableSecrets,
		sessions:  prefix + TableSessions,
		tokens:    prefix + TableTokens,
		ledger:    prefix + TableLedger,
		baselines: prefix + TableBaselines,
	}
}

// Close releases nothing: the SDK client holds only pooled connections.
func (s *Store) Close() error { return nil }

// Key prefixes keep apart the kinds of item that share a table.
func acctKey(id string) string           { return "acct#" + id }
func emailKey(email string) string       { return "email#" + strings.ToLower(email) }
func quotaKey(acct, month string) string { return "quota#" + acct + "#" + month }
func rateKey(bucket string) string       { return "rate#" + bucket }
func grantKey(id string) string          { return "grant#" + id }

func usagePK(u store.UsageRecord) string {
	if u.AccountID != "" {
		return u.AccountID
	}
	return "anon#" + u.ClientIP
}

func (s *Store) CreateAccount(ctx context.Context, a store.Account, first store.APIKey) error {
	if first.AccountID == "" {
		first.AccountID = a.ID
	}
	switch {
	case a.ID == "" || a.Email == "":
		return errors.New("dynamodb: create account: id and email are required")
	case first.Hash == "":
		return errors.New("dynamodb: create account: the key has no hash")
	case first.AccountID != a.ID:
		return errors.New("dynamodb: create account: the first key belongs to another account")
	}
	acct := accountItem(a)
	acct[attrPK] = sv(acctKey(a.ID))
	err := s.transact(ctx, []types.TransactWriteItem{
		{Put: &types.Put{
			TableName: &s.accounts, Item: acct,
			ConditionExpression:      aws.String("attribute_not_exists(#pk)"),
			ExpressionAttributeNames: names(attrPK),
		}},
		{Put: &types.Put{
			TableName: &s.accounts,
			Item: map[string]types.AttributeValue{
				attrPK: sv(emailKey(a.Email)), attrAccountID: sv(a.ID),
			},
			ConditionExpression:      aws.String("attribute_not_exists(#pk)"),
			ExpressionAttributeNames: names(attrPK),
		}},
		{Put: &types.Put{
			TableName: &s.keys, Item: keyItem(first),
			ConditionExpression:      aws.String("attribute_not_exists(#hash)"),
			ExpressionAttributeNames: names(attrHash),
		}},
	})
	if reasons, ok := cancelled(err); ok && anyFailed(reasons) {
		// The email taken, or (astronomically unlikely) the account id or
		// key hash: each is a unique key already held.
		return store.ErrConflict
	}
	if err != nil {
		return fmt.Errorf("dynamodb: create account: %w", err)
	}
	return nil
}

func (s *Store) Account(ctx context.Context, id string) (store.Account, error) {
	item, err := s.get(ctx, s.accounts, attrPK, acctKey(id))
	if err != nil {
		return store.Account{}, fmt.Errorf("dynamodb: account: %w", err)
	}
	if item == nil {
		return store.Account{}, store.ErrNotFound
	}
	a, err := decodeAccount(item)
	if err != nil {
		return store.Account{}, fmt.Errorf("dynamodb: account: %w", err)
	}
	return a, nil
}

func (s *Store) AccountByEmail(ctx context.Context, email string) (store.Account, error) {
	item, err := s.get(ctx, s.accounts, attrPK, emailKey(email))
	if err != nil {
		return store.Account{}, fmt.Errorf("dynamodb: account by email: %w", err)
	}
	if item == nil {
		return store.Account{}, store.ErrNotFound
	}
	r := reader{item: item}
	id := r.s(attrAccountID)
	if r.err != nil || id == "" {
		return store.Account{}, errors.New("dynamodb: account by email: the email item names no account")
	}
	return s.Account(ctx, id)
}

func (s *Store) SetPlan(ctx context.Context, accountID, plan string) error {
	err := s.retry(ctx, func() error {
		_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                 &s.accounts,
			Key:                       key(attrPK, acctKey(accountID)),
			UpdateExpression:          aws.String("SET #plan = :plan"),
			ConditionExpression:       aws.String("attribute_exists(#pk)"),
			ExpressionAttributeNames:  names(attrPK, attrPlan),
			ExpressionAttributeValues: map[string]types.AttributeValue{":plan": sv(plan)},
		})
		return err
	})
	if conditionFailed(err) != nil {
		return store.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("dynamodb: set plan: %w", err)
	}
	return nil
}

func (s *Store) AddCredits(ctx context.Context, accountID string, n int, grantID string) (store.Balance, error) {
	if n < 1 || grantID == "" {
		return store.Balance{}, errors.New("dynamodb: add credits: a grant needs an id and a positive amount")
	}
	now := s.now()
	err := s.transact(ctx, []types.TransactWriteItem{
		{Put: &types.Put{
			TableName: &s.counters,
			Item: map[string]types.AttributeValue{
				attrPK: sv(grantKey(grantID)), attrAccountID: sv(accountID),
				attrCredits: nv(int64(n)), attrAt: tv(now),
			},
			ConditionExpression:      aws.String("attribute_not_exists(#pk)"),
			ExpressionAttributeNames: names(attrPK),
		}},
		{Update: &types.Update{
			TableName:                 &s.accounts,
			Key:                       key(attrPK, acctKey(accountID)),
			UpdateExpression:          aws.String("ADD #credits :n"),
			ConditionExpression:       aws.String("attribute_exists(#pk)"),
			ExpressionAttributeNames:  names(attrPK, attrCredits),
			ExpressionAttributeValues: map[string]types.AttributeValue{":n": nv(int64(n))},
		}},
	})
	if reasons, ok := cancelled(err); ok {
		switch {
		case failed(reasons, 1):
			return store.Balance{}, store.ErrNotFound
		case failed(reasons, 0):
			return store.Balance{}, store.ErrConflict
		}
	}
	if err != nil {
		return store.Balance{}, fmt.Errorf("dynamodb: add credits: %w", err)
	}
	return s.Balance(ctx, accountID, store.Month(now))
}

func (s *Store) KeyByHash(ctx context.Context, hash string) (store.APIKey, error) {
	if hash == "" {
		return store.APIKey{}, store.ErrNotFound
	}
	item, err := s.get(ctx, s.keys, attrHash, hash)
	if err != nil {
		return store.APIKey{}, fmt.Errorf("dynamodb: key by hash: %w", err)
	}
	if item == nil {
		return store.APIKey{}, store.ErrNotFound
	}
	k, err := decodeKey(item)
	if err != nil {
		return store.APIKey{}, fmt.Errorf("dynamodb: key by hash: %w", err)
	}
	return k, nil
}

// Keys reads the byAccount index. A global secondary index cannot be read
// consistently: a key created or revoked a moment ago may show its old
// state for a fraction of a second. Authentication goes through KeyByHash,
// which is consistent; only listings can lag.
func (s *Store) Keys(ctx context.Context, accountID string) ([]store.APIKey, error) {
	p := dynamodb.NewQueryPaginator(s.db, &dynamodb.QueryInput{
		TableName:                 &s.keys,
		IndexName:                 aws.String(IndexKeysByAccount),
		KeyConditionExpression:    aws.String("#accountId = :a"),
		ExpressionAttributeNames:  names(attrAccountID),
		ExpressionAttributeValues: map[string]types.AttributeValue{":a": sv(accountID)},
	})
	var keys []store.APIKey
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("dynamodb: keys: %w", err)
		}
		for _, item := range page.Items {
			k, err := decodeKey(item)
			if err != nil {
				return nil, fmt.Errorf("dynamodb: keys: %w", err)
			}
			keys = append(keys, k)
		}
	}
	// The index orders by creation time only; ties need an order too.
	slices.SortStableFunc(keys, func(a, b store.APIKey) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return keys, nil
}

// RotateKey finds the old key's hash (the table's key) through the
// byAccount index, then revokes it and puts the replacement in one
// transaction. The revocation's condition re-checks on the item itself,
// consistently, that the key is the account's, is oldKeyID and is not
// revoked, so of two concurrent rotations of one key exactly one passes.
// The index lags writes by a fraction of a second: a key created a moment
// ago may not be found yet (ErrNotFound).
func (s *Store) RotateKey(ctx context.Context, accountID, oldKeyID string, replacement store.APIKey) error {
	if replacement.AccountID == "" {
		replacement.AccountID = accountID
	}
	switch {
	case accountID == "" || oldKeyID == "":
		return store.ErrNotFound
	case replacement.Hash == "" || replacement.ID == "":
		return errors.New("dynamodb: rotate key: the replacement has no id or hash")
	case replacement.AccountID != accountID:
		return errors.New("dynamodb: rotate key: the replacement belongs to another account")
	case replacement.Revoked:
		return errors.New("dynamodb: rotate key: the replacement is revoked")
	}
	hash, err := s.keyHash(ctx, accountID, oldKeyID)
	if err != nil {
		return err
	}
	err = s.transact(ctx, []types.TransactWriteItem{
		{Update: &types.Update{
			TableName:                &s.keys,
			Key:                      key(attrHash, hash),
			UpdateExpression:         aws.String("SET #revoked = :true, #revokedAt = :now"),
			ConditionExpression:      aws.String("#accountId = :acct AND #id = :id AND #revoked = :false"),
			ExpressionAttributeNames: names(attrRevoked, attrRevokedAt, attrAccountID, attrID),
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":true": &types.AttributeValueMemberBOOL{Value: true}, ":false": &types.AttributeValueMemberBOOL{Value: false},
				":now": tv(s.now()), ":acct": sv(accountID), ":id": sv(oldKeyID),
			},
		}},
		{Put: &types.Put{
			TableName: &s.keys, Item: keyItem(replacement),
			ConditionExpression:      aws.String("attribute_not_exists(#hash)"),
			ExpressionAttributeNames: names(attrHash),
		}},
	})
	if reasons, ok := cancelled(err); ok {
		switch {
		case failed(reasons, 0):
			return store.ErrNotFound
		case failed(reasons, 1):
			return store.ErrConflict // the replacement's hash is taken
		}
	}
	if err != nil {
		return fmt.Errorf("dynamodb: rotate key: %w", err)
	}
	return nil
}

// keyHash finds the hash of the account's key id through the byAccount
// index; ErrNotFound when the account has no such key, or it is revoked
// (as far as the index knows: the caller's condition has the last word).
func (s *Store) keyHash(ctx context.Context, accountID, keyID string) (string, error) {
	p := dynamodb.NewQueryPaginator(s.db, &dynamodb.QueryInput{
		TableName:                &s.keys,
		IndexName:                aws.String(IndexKeysByAccount),
		KeyConditionExpression:   aws.String("#accountId = :a"),
		FilterExpression:         aws.String("#id = :id"),
		ProjectionExpression:     aws.String("#hash, #id, #revoked"),
		ExpressionAttributeNames: names(attrAccountID, attrID, attrHash, attrRevoked),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":a": sv(accountID), ":id": sv(keyID),
		},
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return "", fmt.Errorf("dynamodb: rotate key: %w", err)
		}
		for _, item := range page.Items {
			r := reader{item: item}
			hash, revoked := r.s(attrHash), r.b(attrRevoked)
			if r.err != nil {
				return "", fmt.Errorf("dynamodb: rotate key: %w", r.err)
			}
			if revoked {
				return "", store.ErrNotFound
			}
			return hash, nil
		}
	}
	return "", store.ErrNotFound
}

// Balance reads the account's credits and the month's counter in one
// consistent batch. ErrNotFound when the account does not exist.
func (s *Store) Balance(ctx context.Context, accountID, month string) (store.Balance, error) {
	if err := checkMonth(month); err != nil {
		return store.Balance{}, err
	}
	acctPK, quotaPK := acctKey(accountID), quotaKey(accountID, month)
	p := dynamodb.NewBatchGetItemPaginator(s.db, &dynamodb.BatchGetItemInput{
		RequestItems: map[string]types.KeysAndAttributes{
			s.accounts: {
				Keys: []map[string]types.AttributeValue{key(attrPK, acctPK)}, ConsistentRead: aws.Bool(true),
				ProjectionExpression: aws.String("#pk, #credits"), ExpressionAttributeNames: names(attrPK, attrCredits),
			},
			s.counters: {
				Keys: []map[string]types.AttributeValue{key(attrPK, quotaPK)}, ConsistentRead: aws.Bool(true),
				ProjectionExpression: aws.String("#pk, #used"), ExpressionAttributeNames: names(attrPK, attrUsed),
			},
		},
	})
	var bal store.Balance
	found := false
	for first := true; p.HasMorePages(); first = false {
		if !first {
			// Unprocessed keys mean the table is being throttled: back
			// off before asking again.
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return store.Balance{}, err
			}
		}
		page, err := p.NextPage(ctx)
		if err != nil {
			return store.Balance{}, fmt.Errorf("dynamodb: balance: %w", err)
		}
		for _, item := range page.Responses[s.accounts] {
			r := reader{item: item}
			bal.Credits = int(r.n(attrCredits))
			if r.err != nil {
				return store.Balance{}, fmt.Errorf("dynamodb: balance: %w", r.err)
			}
			found = true
		}
		for _, item := range page.Responses[s.counters] {
			r := reader{item: item}
			bal.Used = int(r.n(attrUsed))
			if r.err != nil {
				return store.Balance{}, fmt.Errorf("dynamodb: balance: %w", r.err)
			}
		}
	}
	if !found {
		return store.Balance{}, store.ErrNotFound
	}
	return bal, nil
}

// Charge applies the charge and its usage row in one transaction. On the
// quota path it also checks that the account exists, so a stray charge
// cannot leave a counter without an account. The balance returned is read
// just after the commit: under concurrent charges it may already include
// theirs.
func (s *Store) Charge(ctx context.Context, c store.Charge) (store.Balance, error) {
	if c.Documents < 1 {
		return store.Balance{}, errors.New("dynamodb: charge: documents must be positive")
	}
	if err := checkMonth(c.Month); err != nil {
		return store.Balance{}, err
	}
	u := c.Usage
	if u.AccountID == "" {
		u.AccountID = c.AccountID
	}
	if u.AccountID != c.AccountID {
		return store.Balance{}, errors.New("dynamodb: charge: the usage row belongs to another account")
	}
	usagePut := s.usagePut(u)
	n := nv(int64(c.Documents))
	var items []types.TransactWriteItem
	if c.FromCredits {
		items = []types.TransactWriteItem{
			{Update: &types.Update{
				TableName:                           &s.accounts,
				Key:                                 key(attrPK, acctKey(c.AccountID)),
				UpdateExpression:                    aws.String("SET #credits = #credits - :n"),
				ConditionExpression:                 aws.String("attribute_exists(#pk) AND #credits >= :n"),
				ExpressionAttributeNames:            names(attrPK, attrCredits),
				ExpressionAttributeValues:           map[string]types.AttributeValue{":n": n},
				ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
			}},
			usagePut,
		}
	} else {
		// A condition cannot add, so "used + n <= limit" is asked as
		// "used <= limit - n". A charge larger than the whole limit can
		// never pass and is refused before anything is sent.
		if c.Documents > c.Limit {
			return store.Balance{}, store.ErrRefused
		}
		items = []types.TransactWriteItem{
			{Update: &types.Update{
				TableName:                &s.counters,
				Key:                      key(attrPK, quotaKey(c.AccountID, c.Month)),
				UpdateExpression:         aws.String("ADD #used :n"),
				ConditionExpression:      aws.String("attribute_not_exists(#used) OR #used <= :max"),
				ExpressionAttributeNames: names(attrUsed),
				ExpressionAttributeValues: map[string]types.AttributeValue{
					":n": n, ":max": nv(int64(c.Limit - c.Documents)),
				},
			}},
			usagePut,
			{ConditionCheck: &types.ConditionCheck{
				TableName:                &s.accounts,
				Key:                      key(attrPK, acctKey(c.AccountID)),
				ConditionExpression:      aws.String("attribute_exists(#pk)"),
				ExpressionAttributeNames: names(attrPK),
			}},
		}
	}
	err := s.transact(ctx, items)
	if reasons, ok := cancelled(err); ok {
		switch {
		case c.FromCredits && failed(reasons, 0) && len(reasons[0].Item) == 0:
			return store.Balance{}, store.ErrNotFound
		case !c.FromCredits && failed(reasons, 2):
			return store.Balance{}, store.ErrNotFound
		case failed(reasons, 1):
			return store.Balance{}, store.ErrConflict // the usage row's id was used before
		case failed(reasons, 0):
			return store.Balance{}, store.ErrRefused
		}
	}
	if err != nil {
		return store.Balance{}, fmt.Errorf("dynamodb: charge: %w", err)
	}
	return s.Balance(ctx, c.AccountID, c.Month)
}

// RecordUsage writes the row only if no row has its time and id, so a
// retried call cannot count twice; a repeat is ErrConflict.
func (s *Store) RecordUsage(ctx context.Context, u store.UsageRecord) error {
	put := s.usagePut(u).Put
	err := s.retry(ctx, func() error {
		_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{
			TableName: put.TableName, Item: put.Item,
			ConditionExpression: put.ConditionExpression, ExpressionAttributeNames: put.ExpressionAttributeNames,
		})
		return err
	})
	if conditionFailed(err) != nil {
		return store.ErrConflict
	}
	if err != nil {
		return fmt.Errorf("dynamodb: record usage: %w", err)
	}
	return nil
}

func (s *Store) usagePut(u store.UsageRecord) types.TransactWriteItem {
	item := map[string]types.AttributeValue{
		attrAccountID: sv(usagePK(u)),
		attrSK:        sv(formatTime(u.At) + "#" + u.ID),
		attrAt:        tv(u.At),
		attrDocuments: nv(int64(u.Documents)),
		attrBytes:     nv(u.Bytes),
		attrCredit:    &types.AttributeValueMemberBOOL{Value: u.Credit},
		// The wall clock, not the injected one: it only orders rows whose
		// At is identical by when they were written (see UsageSince).
		attrRecorded: nv(time.Now().UnixNano()),
	}
	putS(item, attrID, u.ID)
	putS(item, attrKeyID, u.KeyID)
	putS(item, attrClientIP, u.ClientIP)
	putS(item, attrRoute, u.Route)
	putS(item, attrBand, u.Band)
	putExpiry(item, u.Expires)
	return types.TransactWriteItem{Put: &types.Put{
		TableName: &s.usage, Item: item,
		ConditionExpression:      aws.String("attribute_not_exists(#sk)"),
		ExpressionAttributeNames: names(attrSK),
	}}
}

// UsageSince queries the account's partition from the sort key of from
// onwards. Expired rows are dropped here by the injected clock, since TTL
// deletion runs late.
func (s *Store) UsageSince(ctx context.Context, accountID string, from time.Time) ([]store.UsageRecord, error) {
	now := s.now()
	p := dynamodb.NewQueryPaginator(s.db, &dynamodb.QueryInput{
		TableName:                &s.usage,
		ConsistentRead:           aws.Bool(true),
		KeyConditionExpression:   aws.String("#accountId = :a AND #sk >= :from"),
		ExpressionAttributeNames: names(attrAccountID, attrSK),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":a": sv(accountID), ":from": sv(formatTime(from)),
		},
	})
	type row struct {
		store.UsageRecord
		recorded int64
	}
	var rows []row
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("dynamodb: usage: %w", err)
		}
		for _, item := range page.Items {
			r := reader{item: item}
			if r.expired(now) {
				continue
			}
			u := store.UsageRecord{
				ID: r.s(attrID), KeyID: r.s(attrKeyID), ClientIP: r.s(attrClientIP),
				Route: r.s(attrRoute), At: r.t(attrAt), Documents: int(r.n(attrDocuments)),
				Bytes: r.n(attrBytes), Band: r.s(attrBand), Credit: r.b(attrCredit), Expires: r.t(attrExpires),
			}
			if !strings.HasPrefix(accountID, "anon#") {
				u.AccountID = accountID
			}
			recorded := r.n(attrRecorded)
			if r.err != nil {
				return nil, fmt.Errorf("dynamodb: usage: %w", r.err)
			}
			rows = append(rows, row{u, recorded})
		}
	}
	// The sort key orders by At, then by id, which says nothing about
	// age; rows of the same instant (a burst of calls, a clock of coarse
	// resolution) are put in the order they were written.
	slices.SortStableFunc(rows, func(a, b row) int {
		if c := a.At.Compare(b.At); c != 0 {
			return c
		}
		return cmp.Compare(a.recorded, b.recorded)
	})
	out := make([]store.UsageRecord, len(rows))
	for i, r := range rows {
		out[i] = r.UsageRecord
	}
	return out, nil
}

// Hit increments the window if it is live and below the limit. When the
// condition fails, the old item (returned with the failure) tells a full
// window from an expired one; an expired window is replaced by a fresh one
// at 1, conditionally on it still being the same expired window, so of
// racing callers one restarts it and the rest count into the new window.
func (s *Store) Hit(ctx context.Context, bucket string, limit int, expires time.Time) (int, error) {
	if limit < 1 {
		return 0, store.ErrRefused
	}
	pk := rateKey(bucket)
	now := s.now()
	for range 5 {
		vals := map[string]types.AttributeValue{
			":zero": nv(0), ":one": nv(1), ":limit": nv(int64(limit)), ":now": tv(now),
		}
		update := "SET #n = if_not_exists(#n, :zero) + :one"
		if !expires.IsZero() {
			update += ", #expires = if_not_exists(#expires, :exp), #expiresAt = if_not_exists(#expiresAt, :expAt)"
			vals[":exp"], vals[":expAt"] = tv(expires), nv(ttlSeconds(expires))
		}
		var out *dynamodb.UpdateItemOutput
		err := s.retry(ctx, func() (err error) {
			out, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
				TableName:        &s.counters,
				Key:              key(attrPK, pk),
				UpdateExpression: aws.String(update),
				ConditionExpression: aws.String("attribute_not_exists(#pk) OR " +
					"(#n < :limit AND (attribute_not_exists(#expires) OR #expires > :now))"),
				ExpressionAttributeNames:            names(attrPK, attrCount, attrExpires, attrExpiresAt),
				ExpressionAttributeValues:           vals,
				ReturnValues:                        types.ReturnValueUpdatedNew,
				ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
			})
			return err
		})
		if err == nil {
			r := reader{item: out.Attributes}
			n := r.n(attrCount)
			if r.err != nil {
				return 0, fmt.Errorf("dynamodb: hit: %w", r.err)
			}
			return int(n), nil
		}
		ccf := conditionFailed(err)
		if ccf == nil {
			return 0, fmt.Errorf("dynamodb: hit: %w", err)
		}
		old := reader{item: ccf.Item}
		if len(ccf.Item) == 0 {
			continue // TTL deleted the window between the two looks
		}
		if !old.expired(now) {
			return 0, store.ErrRefused
		}
		fresh := map[string]types.AttributeValue{attrPK: sv(pk), attrCount: nv(1)}
		putExpiry(fresh, expires)
		err = s.retry(ctx, func() error {
			_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{
				TableName:                 &s.counters,
				Item:                      fresh,
				ConditionExpression:       aws.String("#expires = :old"),
				ExpressionAttributeNames:  names(attrExpires),
				ExpressionAttributeValues: map[string]types.AttributeValue{":old": ccf.Item[attrExpires]},
			})
			return err
		})
		if err == nil {
			return 1, nil
		}
		if conditionFailed(err) == nil {
			return 0, fmt.Errorf("dynamodb: hit: %w", err)
		}
		// Another caller restarted the window first: count into theirs.
	}
	return 0, errors.New("dynamodb: hit: the window kept changing under contention")
}

// Count reads the window consistently; an absent or expired window
// (by the store's clock, TTL deletion running late) counts 0.
func (s *Store) Count(ctx context.Context, bucket string) (int, error) {
	item, err := s.get(ctx, s.counters, attrPK, rateKey(bucket))
	if err != nil {
		return 0, fmt.Errorf("dynamodb: count: %w", err)
	}
	r := reader{item: item}
	if item == nil || r.expired(s.now()) {
		return 0, nil
	}
	n := r.n(attrCount)
	if r.err != nil {
		return 0, fmt.Errorf("dynamodb: count: %w", r.err)
	}
	return int(n), nil
}

// Secret reads first because the secret nearly always exists; only when
// it does not is the candidate put, conditionally, and a lost race
// returns the winner's value from the failed condition itself.
func (s *Store) Secret(ctx context.Context, name string, candidate []byte) ([]byte, error) {
	item, err := s.get(ctx, s.secrets, attrName, name)
	if err != nil {
		return nil, fmt.Errorf("dynamodb: secret: %w", err)
	}
	if item == nil {
		err = s.retry(ctx, func() error {
			_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{
				TableName: &s.secrets,
				Item: map[string]types.AttributeValue{
					attrName: sv(name), attrValue: &types.AttributeValueMemberB{Value: candidate},
				},
				ConditionExpression:                 aws.String("attribute_not_exists(#name)"),
				ExpressionAttributeNames:            names(attrName),
				ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
			})
			return err
		})
		if err == nil {
			return slices.Clone(candidate), nil
		}
		ccf := conditionFailed(err)
		if ccf == nil {
			return nil, fmt.Errorf("dynamodb: secret: %w", err)
		}
		item = ccf.Item
	}
	v, ok := item[attrValue].(*types.AttributeValueMemberB)
	if !ok {
		return nil, errors.New("dynamodb: secret: malformed secret item")
	}
	return v.Value, nil
}

// get reads one item by its partition key, strongly consistent; nil when
// it does not exist.
func (s *Store) get(ctx context.Context, table, keyAttr, keyValue string) (map[string]types.AttributeValue, error) {
	out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: &table, Key: key(keyAttr, keyValue), ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return nil, err
	}
	if len(out.Item) == 0 {
		return nil, nil
	}
	return out.Item, nil
}

// transact runs one transaction, retrying while it only collides with
// another transaction on the same items.
func (s *Store) transact(ctx context.Context, items []types.TransactWriteItem) error {
	return s.retry(ctx, func() error {
		// A fresh idempotency token per attempt: the SDK fills one into
		// the input, and a cancelled attempt must not be mistaken for the
		// retry's twin.
		_, err := s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items})
		return err
	})
}

// conflictAttempts bounds retries of transaction conflicts: enough for a
// burst of writers on one counter, short of hiding a livelock.
const conflictAttempts = 12

// retry calls op again, with jittered exponential backoff, while it fails
// only because a concurrent transaction held the same item. The SDK's own
// retryer leaves those to the caller.
func (s *Store) retry(ctx context.Context, op func() error) error {
	backoff := 5 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := op()
		if err == nil || attempt == conflictAttempts || !conflicted(err) {
			return err
		}
		if err := sleep(ctx, backoff/2+rand.N(backoff)); err != nil {
			return err
		}
		backoff = min(2*backoff, 200*time.Millisecond)
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Cancellation reason codes of TransactionCanceledException.
const (
	reasonConditionFailed = "ConditionalCheckFailed"
	reasonConflict        = "TransactionConflict"
)

func cancelled(err error) ([]types.CancellationReason, bool) {
	var tc *types.TransactionCanceledException
	if errors.As(err, &tc) {
		return tc.CancellationReasons, true
	}
	return nil, false
}

func failed(reasons []types.CancellationReason, i int) bool {
	return i < len(reasons) && aws.ToString(reasons[i].Code) == reasonConditionFailed
}

func anyFailed(reasons []types.CancellationReason) bool {
	for i := range reasons {
		if failed(reasons, i) {
			return true
		}
	}
	return false
}

// conflicted reports a write that lost to a concurrent transaction and
// failed no condition of its own, so running it again may succeed.
func conflicted(err error) bool {
	if reasons, ok := cancelled(err); ok {
		conflict := false
		for _, r := range reasons {
			switch aws.ToString(r.Code) {
			case reasonConditionFailed:
				return false
			case reasonConflict:
				conflict = true
			}
		}
		return conflict
	}
	var tce *types.TransactionConflictException
	return errors.As(err, &tce)
}

func conditionFailed(err error) *types.ConditionalCheckFailedException {
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return ccf
	}
	return nil
}

func checkMonth(month string) error {
	if _, err := time.Parse("2006-01", month); err != nil || len(month) != 7 {
		return errors.New("dynamodb: a quota month is YYYY-MM")
	}
	return nil
}
