package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/doctrust/doctrust/internal/store"
)

// webhookRow is the JSON of a webhook row's data column.
type webhookRow struct {
	URL     string                `json:"url"`
	Secret  string                `json:"secret"`
	Created time.Time             `json:"created"`
	Last    store.DeliveryOutcome `json:"last,omitzero"`
}

func (s *Store) PutWebhook(ctx context.Context, w store.Webhook) error {
	data, err := json.Marshal(webhookRow{URL: w.URL, Secret: w.Secret, Created: w.Created})
	if err != nil {
		return fmt.Errorf("sqlite: webhook: %w", err)
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO ledger_webhooks (account_id, id, data) VALUES (?, ?, ?)
		ON CONFLICT (account_id) DO UPDATE SET id = excluded.id, data = excluded.data`, w.AccountID, w.ID, string(data))
	if err != nil {
		return fmt.Errorf("sqlite: webhook: %w", err)
	}
	return nil
}

func (s *Store) Webhook(ctx context.Context, accountID string) (store.Webhook, error) {
	w := store.Webhook{AccountID: accountID}
	var data string
	err := s.rdb.QueryRowContext(ctx, `SELECT id, data FROM ledger_webhooks WHERE account_id = ?`, accountID).Scan(&w.ID, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Webhook{}, store.ErrNotFound
	}
	if err != nil {
		return store.Webhook{}, fmt.Errorf("sqlite: webhook: %w", err)
	}
	var r webhookRow
	if err := json.Unmarshal([]byte(data), &r); err != nil {
		return store.Webhook{}, errors.New("sqlite: webhook: malformed row")
	}
	w.URL, w.Secret, w.Created, w.Last = r.URL, r.Secret, r.Created, r.Last
	return w, nil
}

func (s *Store) DeleteWebhook(ctx context.Context, accountID string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM ledger_webhooks WHERE account_id = ?`, accountID); err != nil {
		return fmt.Errorf("sqlite: webhook: %w", err)
	}
	return nil
}

func (s *Store) RecordDelivery(ctx context.Context, accountID, webhookID string, o store.DeliveryOutcome) error {
	last, err := json.Marshal(o)
	if err != nil {
		return fmt.Errorf("sqlite: webhook outcome: %w", err)
	}
	res, err := s.db.ExecContext(ctx, `UPDATE ledger_webhooks SET data = json_set(data, '$.last', json(?))
		WHERE account_id = ? AND id = ?`, string(last), accountID, webhookID)
	return updatedOne(res, err, "webhook outcome")
}

func (s *Store) AddAlertDelivery(ctx context.Context, a store.Alert, d store.Delivery) error {
	data, err := json.Marshal(alertRow{Kind: a.Kind, SupplierKey: a.SupplierKey, MessageID: a.MessageID, SenderDomain: a.SenderDomain, Band: a.Band})
	if err != nil {
		return fmt.Errorf("sqlite: alert: %w", err)
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO ledger_alerts (id, account_id, at, data, expires) VALUES (?, ?, ?, ?, ?)`,
			a.ID, a.AccountID, ns(a.At), string(data), ns(a.Expires)); err != nil {
			return fmt.Errorf("sqlite: alert: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_outbox (id, account_id, due, rev, attempts, created, expires, event)
			VALUES (?, ?, ?, 1, ?, ?, ?, ?)`, d.ID, d.AccountID, ns(d.Due), d.Attempts, ns(d.Created), ns(d.Expires), d.Event); err != nil {
			return fmt.Errorf("sqlite: delivery: %w", err)
		}
		return nil
	})
}

func (s *Store) DueDeliveries(ctx context.Context, now time.Time, limit int) ([]store.Delivery, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT id, account_id, due, rev, attempts, created, expires, event FROM webhook_outbox
		WHERE due <= ? ORDER BY due, id LIMIT ?`, ns(now), limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: deliveries: %w", err)
	}
	defer rows.Close()
	var out []store.Delivery
	for rows.Next() {
		var d store.Delivery
		var due, created, expires int64
		if err := rows.Scan(&d.ID, &d.AccountID, &due, &d.Rev, &d.Attempts, &created, &expires, &d.Event); err != nil {
			return nil, fmt.Errorf("sqlite: deliveries: %w", err)
		}
		d.Due, d.Created, d.Expires = fromNS(due), fromNS(created), fromNS(expires)
		out = append(out, d)
	}
	return out, rows.Err()
}

func (s *Store) SaveDelivery(ctx context.Context, d store.Delivery) error {
	res, err := s.db.ExecContext(ctx, `UPDATE webhook_outbox SET rev = rev + 1, due = ?, attempts = ? WHERE id = ? AND rev = ?`,
		ns(d.Due), d.Attempts, d.ID, d.Rev)
	return changedOne(res, err, "delivery")
}

func (s *Store) DeleteDelivery(ctx context.Context, d store.Delivery) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM webhook_outbox WHERE id = ? AND rev = ?`, d.ID, d.Rev)
	return changedOne(res, err, "delivery")
}

// changedOne is a conditional write's answer: ErrConflict when its
// condition left no row to change.
func changedOne(res sql.Result, err error, what string) error {
	if err != nil {
		return fmt.Errorf("sqlite: %s: %w", what, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("sqlite: %s: %w", what, err)
	} else if n == 0 {
		return store.ErrConflict
	}
	return nil
}
