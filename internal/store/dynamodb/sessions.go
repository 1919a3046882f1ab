package dynamodb

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doctrust/doctrust/internal/store"
)

// CreateSession puts the session on condition that its hash is new: two
// cookies never hash alike, so a collision is a caller's bug, answered
// with ErrConflict rather than by replacing someone else's session.
func (s *Store) CreateSession(ctx context.Context, sess store.Session) error {
	if sess.Hash == "" || sess.AccountID == "" || sess.Expires.IsZero() {
		return errors.New("dynamodb: create session: hash, account and expiry are required")
	}
	err := s.putNew(ctx, s.sessions, sessionItem(sess))
	if conditionFailed(err) != nil {
		return store.ErrConflict
	}
	if err != nil {
		return fmt.Errorf("dynamodb: create session: %w", err)
	}
	return nil
}

// Session reads the session consistently and drops it when expired by the
// store's clock (TTL deletion runs late). The epoch is the caller's to
// compare with the account's.
func (s *Store) Session(ctx context.Context, hash string) (store.Session, error) {
	if hash == "" {
		return store.Session{}, store.ErrNotFound
	}
	item, err := s.get(ctx, s.sessions, attrHash, hash)
	if err != nil {
		return store.Session{}, fmt.Errorf("dynamodb: session: %w", err)
	}
	if item == nil {
		return store.Session{}, store.ErrNotFound
	}
	r := reader{item: item}
	if r.expired(s.now()) {
		return store.Session{}, store.ErrNotFound
	}
	sess, err := decodeSession(item)
	if err != nil {
		return store.Session{}, fmt.Errorf("dynamodb: session: %w", err)
	}
	return sess, nil
}

// DeleteSession deletes unconditionally: ending a session that is gone
// already is not an error.
func (s *Store) DeleteSession(ctx context.Context, hash string) error {
	if hash == "" {
		return nil
	}
	err := s.retry(ctx, func() error {
		_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: &s.sessions, Key: key(attrHash, hash)})
		return err
	})
	if err != nil {
		return fmt.Errorf("dynamodb: delete session: %w", err)
	}
	return nil
}

// CreateToken puts the token on condition that its hash is new, as
// CreateSession does.
func (s *Store) CreateToken(ctx context.Context, tok store.Token) error {
	switch {
	case tok.Hash == "" || tok.AccountID == "" || tok.Expires.IsZero():
		return errors.New("dynamodb: create token: hash, account and expiry are required")
	case tok.Kind != store.TokenVerify && tok.Kind != store.TokenReset:
		return fmt.Errorf("dynamodb: create token: unknown kind %q", tok.Kind)
	}
	err := s.putNew(ctx, s.tokens, tokenItem(tok))
	if conditionFailed(err) != nil {
		return store.ErrConflict
	}
	if err != nil {
		return fmt.Errorf("dynamodb: create token: %w", err)
	}
	return nil
}

func (s *Store) VerifyEmail(ctx context.Context, tokenHash string) (string, error) {
	id, err := s.consume(ctx, tokenHash, store.TokenVerify, &types.Update{
		UpdateExpression:          aws.String("SET #verified = :true"),
		ExpressionAttributeNames:  names(attrVerified),
		ExpressionAttributeValues: map[string]types.AttributeValue{":true": &types.AttributeValueMemberBOOL{Value: true}},
	})
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", fmt.Errorf("dynamodb: verify email: %w", err)
	}
	return id, err
}

func (s *Store) ResetPassword(ctx context.Context, tokenHash, passwordHash string) (string, error) {
	if passwordHash == "" {
		return "", errors.New("dynamodb: reset password: empty password hash")
	}
	id, err := s.consume(ctx, tokenHash, store.TokenReset, &types.Update{
		// ADD starts an absent epoch (an account from before sessions)
		// from 0.
		UpdateExpression:         aws.String("SET #passwordHash = :ph ADD #sessionEpoch :one"),
		ExpressionAttributeNames: names(attrPasswordHash, attrSessionEpoch),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":ph": sv(passwordHash), ":one": nv(1),
		},
	})
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", fmt.Errorf("dynamodb: reset password: %w", err)
	}
	return id, err
}

// consume deletes a live token of kind and applies update to its account
// in one transaction, returning the account id. The token is read first
// only to learn its account; the delete's condition checks again that the
// token exists, is of kind, names that account and is live by the store's
// clock, so of two concurrent uses exactly one passes and the other is
// ErrNotFound with nothing written. An account that no longer exists is
// ErrNotFound too, and the token stays (the transaction wrote nothing).
// update holds the account's change (expression, names, values); consume
// fills in its table, key and condition.
func (s *Store) consume(ctx context.Context, hash, kind string, update *types.Update) (string, error) {
	if hash == "" {
		return "", store.ErrNotFound
	}
	now := s.now()
	item, err := s.get(ctx, s.tokens, attrHash, hash)
	if err != nil {
		return "", err
	}
	if item == nil {
		return "", store.ErrNotFound
	}
	tok, err := decodeToken(item)
	if err != nil {
		return "", err
	}
	if tok.Kind != kind || tok.AccountID == "" || !tok.Expires.After(now) {
		return "", store.ErrNotFound
	}
	update.TableName = &s.accounts
	update.Key = key(attrPK, acctKey(tok.AccountID))
	update.ConditionExpression = aws.String("attribute_exists(#pk)")
	maps.Copy(update.ExpressionAttributeNames, names(attrPK))
	err = s.transact(ctx, []types.TransactWriteItem{
		{Delete: &types.Delete{
			TableName:                aws.String(s.tokens),
			Key:                      key(attrHash, hash),
			ConditionExpression:      aws.String("#kind = :kind AND #accountId = :acct AND #expires > :now"),
			ExpressionAttributeNames: names(attrKind, attrAccountID, attrExpires),
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":kind": sv(kind), ":acct": sv(tok.AccountID), ":now": tv(now),
			},
		}},
		{Update: update},
	})
	if reasons, ok := cancelled(err); ok && anyFailed(reasons) {
		return "", store.ErrNotFound
	}
	if err != nil {
		return "", err
	}
	return tok.AccountID, nil
}

// putNew puts an item on condition that its hash key is new.
func (s *Store) putNew(ctx context.Context, table string, item map[string]types.AttributeValue) error {
	return s.retry(ctx, func() error {
		_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{
			TableName: &table, Item: item,
			ConditionExpression:      aws.String("attribute_not_exists(#hash)"),
			ExpressionAttributeNames: names(attrHash),
		})
		return err
	})
}
