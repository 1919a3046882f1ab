package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/doctrust/doctrust/internal/store"
)

// PutBaseline replaces in place or, in the same transaction that counts
// the account's profiles, inserts.
func (s *Store) PutBaseline(ctx context.Context, b store.Baseline, limit int) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE baselines SET profile = ?, updated = ? WHERE account_id = ? AND issuer = ?`,
			b.Profile, ns(b.Updated), b.AccountID, b.Issuer)
		if err != nil {
			return fmt.Errorf("sqlite: put baseline: %w", err)
		}
		if n, _ := res.RowsAffected(); n > 0 {
			return nil
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM baselines WHERE account_id = ?`, b.AccountID).Scan(&n); err != nil {
			return fmt.Errorf("sqlite: count baselines: %w", err)
		}
		if n >= limit {
			return store.ErrRefused
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO baselines (account_id, issuer, profile, created, updated) VALUES (?, ?, ?, ?, ?)`,
			b.AccountID, b.Issuer, b.Profile, ns(b.Created), ns(b.Updated))
		if err != nil {
			return fmt.Errorf("sqlite: insert baseline: %w", err)
		}
		return nil
	})
}

func (s *Store) Baseline(ctx context.Context, accountID, issuer string) (store.Baseline, error) {
	b := store.Baseline{AccountID: accountID, Issuer: issuer}
	var created, updated int64
	err := s.rdb.QueryRowContext(ctx, `SELECT profile, created, updated FROM baselines WHERE account_id = ? AND issuer = ?`,
		accountID, issuer).Scan(&b.Profile, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Baseline{}, store.ErrNotFound
	}
	if err != nil {
		return store.Baseline{}, fmt.Errorf("sqlite: baseline: %w", err)
	}
	b.Created, b.Updated = fromNS(created), fromNS(updated)
	return b, nil
}

func (s *Store) Baselines(ctx context.Context, accountID string) ([]store.Baseline, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT issuer, profile, created, updated FROM baselines WHERE account_id = ? ORDER BY issuer`, accountID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: baselines: %w", err)
	}
	defer rows.Close()
	var out []store.Baseline
	for rows.Next() {
		b := store.Baseline{AccountID: accountID}
		var created, updated int64
		if err := rows.Scan(&b.Issuer, &b.Profile, &created, &updated); err != nil {
			return nil, fmt.Errorf("sqlite: baselines: %w", err)
		}
		b.Created, b.Updated = fromNS(created), fromNS(updated)
		out = append(out, b)
	}
	return out, rows.Err()
}

func (s *Store) DeleteBaseline(ctx context.Context, accountID, issuer string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM baselines WHERE account_id = ? AND issuer = ?`, accountID, issuer)
	if err != nil {
		return fmt.Errorf("sqlite: delete baseline: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	return nil
}
