// Package receiptkey finds the receipt-signing secret: RECEIPT_SECRET when
// set, otherwise a random secret generated once into the store (the
// local-run contract: under DATA_DIR with the embedded store), so receipts
// issued by one install keep verifying across restarts and across every
// process sharing the store.
package receiptkey

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
)

// Name is the secret's name in the store.
const Name = "receipt"

// Store is the part of store.Store the secret is kept in; store.Store
// documents Secret. Both backends satisfy it.
type Store interface {
	Secret(ctx context.Context, name string, candidate []byte) ([]byte, error)
}

// Load returns the secret from env (when non-empty) or from st, creating
// it there on first use; racing first users all get the one stored.
func Load(ctx context.Context, env string, st Store) ([]byte, error) {
	if env != "" {
		return []byte(env), nil
	}
	raw := make([]byte, 32)
	rand.Read(raw) // never fails (crypto/rand, Go 1.24+)
	secret, err := st.Secret(ctx, Name, []byte(hex.EncodeToString(raw)))
	if err != nil {
		return nil, err
	}
	if len(secret) == 0 {
		return nil, errors.New("receiptkey: the stored secret is empty")
	}
	return secret, nil
}
