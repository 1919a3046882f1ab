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

func (s *Store) EnsureAlias(ctx context.Context, accountID, candidate string) (string, error) {
	var alias string
	err := s.tx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT alias FROM ledger_aliases WHERE account_id = ?`, accountID).Scan(&alias)
		if err == nil {
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: alias: %w", err)
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO ledger_aliases (alias, account_id) VALUES (?, ?) ON CONFLICT DO NOTHING`, candidate, accountID)
		if err != nil {
			return fmt.Errorf("sqlite: alias: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.ErrConflict
		}
		alias = candidate
		return nil
	})
	return alias, err
}

func (s *Store) AliasAccount(ctx context.Context, alias string) (string, error) {
	var id string
	err := s.rdb.QueryRowContext(ctx, `SELECT account_id FROM ledger_aliases WHERE alias = ?`, alias).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", store.ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("sqlite: alias: %w", err)
	}
	return id, nil
}

// supplierRow is the JSON of a supplier row's data column.
type supplierRow struct {
	TaxID    string                  `json:"taxId,omitempty"`
	Domains  []string                `json:"domains"`
	Versions []store.SupplierVersion `json:"versions"`
	Created  time.Time               `json:"created"`
	Updated  time.Time               `json:"updated"`
}

func (s *Store) Suppliers(ctx context.Context, accountID string) ([]store.Supplier, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT key, rev, data FROM ledger_suppliers WHERE account_id = ? ORDER BY key`, accountID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: suppliers: %w", err)
	}
	defer rows.Close()
	var out []store.Supplier
	for rows.Next() {
		sp := store.Supplier{AccountID: accountID}
		var data string
		if err := rows.Scan(&sp.Key, &sp.Rev, &data); err != nil {
			return nil, fmt.Errorf("sqlite: suppliers: %w", err)
		}
		var r supplierRow
		if err := json.Unmarshal([]byte(data), &r); err != nil {
			return nil, errors.New("sqlite: suppliers: malformed row")
		}
		sp.TaxID, sp.Domains, sp.Versions, sp.Created, sp.Updated = r.TaxID, r.Domains, r.Versions, r.Created, r.Updated
		out = append(out, sp)
	}
	return out, rows.Err()
}

func (s *Store) SaveSupplier(ctx context.Context, sp store.Supplier) error {
	data, err := json.Marshal(supplierRow{TaxID: sp.TaxID, Domains: sp.Domains, Versions: sp.Versions, Created: sp.Created, Updated: sp.Updated})
	if err != nil {
		return fmt.Errorf("sqlite: supplier: %w", err)
	}
	var res sql.Result
	if sp.Rev == 0 {
		res, err = s.db.ExecContext(ctx, `INSERT INTO ledger_suppliers (account_id, key, rev, data) VALUES (?, ?, 1, ?) ON CONFLICT DO NOTHING`,
			sp.AccountID, sp.Key, string(data))
	} else {
		res, err = s.db.ExecContext(ctx, `UPDATE ledger_suppliers SET rev = rev + 1, data = ? WHERE account_id = ? AND key = ? AND rev = ?`,
			string(data), sp.AccountID, sp.Key, sp.Rev)
	}
	if err != nil {
		return fmt.Errorf("sqlite: supplier: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrConflict
	}
	return nil
}

// alertRow is the JSON of an alert row's data column.
type alertRow struct {
	Kind         string `json:"kind"`
	SupplierKey  string `json:"supplierKey"`
	MessageID    string `json:"messageId,omitempty"`
	SenderDomain string `json:"senderDomain,omitempty"`
	Band         string `json:"band,omitempty"`
	// Acknowledged is RFC 3339 with nanoseconds, UTC; absent until then.
	Acknowledged string `json:"acknowledged,omitempty"`
}

func (s *Store) AddAlert(ctx context.Context, a store.Alert) error {
	data, err := json.Marshal(alertRow{Kind: a.Kind, SupplierKey: a.SupplierKey, MessageID: a.MessageID, SenderDomain: a.SenderDomain, Band: a.Band})
	if err != nil {
		return fmt.Errorf("sqlite: alert: %w", err)
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO ledger_alerts (id, account_id, at, data, expires) VALUES (?, ?, ?, ?, ?)`,
		a.ID, a.AccountID, ns(a.At), string(data), ns(a.Expires))
	if err != nil {
		return fmt.Errorf("sqlite: alert: %w", err)
	}
	return nil
}

func (s *Store) AlertsSince(ctx context.Context, accountID string, from time.Time) ([]store.Alert, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT id, at, data, expires FROM ledger_alerts
		WHERE account_id = ? AND at >= ? AND expires > ? ORDER BY at, rowid`, accountID, ns(from), s.now().UnixNano())
	if err != nil {
		return nil, fmt.Errorf("sqlite: alerts: %w", err)
	}
	defer rows.Close()
	var out []store.Alert
	for rows.Next() {
		a := store.Alert{AccountID: accountID}
		var at, expires int64
		var data string
		if err := rows.Scan(&a.ID, &at, &data, &expires); err != nil {
			return nil, fmt.Errorf("sqlite: alerts: %w", err)
		}
		var r alertRow
		if err := json.Unmarshal([]byte(data), &r); err != nil {
			return nil, errors.New("sqlite: alerts: malformed row")
		}
		a.At, a.Expires = fromNS(at), fromNS(expires)
		a.Kind, a.SupplierKey, a.MessageID, a.SenderDomain, a.Band = r.Kind, r.SupplierKey, r.MessageID, r.SenderDomain, r.Band
		if r.Acknowledged != "" {
			if a.Acknowledged, err = time.Parse(time.RFC3339Nano, r.Acknowledged); err != nil {
				return nil, errors.New("sqlite: alerts: malformed acknowledgement")
			}
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

func (s *Store) AcknowledgeAlert(ctx context.Context, accountID, id string, when time.Time) error {
	// json_set leaves the first acknowledgement in place (coalesce).
	res, err := s.db.ExecContext(ctx, `UPDATE ledger_alerts
		SET data = json_set(data, '$.acknowledged', coalesce(json_extract(data, '$.acknowledged'), ?))
		WHERE id = ? AND account_id = ? AND expires > ?`,
		when.UTC().Format(time.RFC3339Nano), id, accountID, s.now().UnixNano())
	return updatedOne(res, err, "acknowledge alert")
}

// updatedOne is the answer to an UPDATE of one row: store.ErrNotFound
// when it matched none.
func updatedOne(res sql.Result, err error, what string) error {
	if err != nil {
		return fmt.Errorf("sqlite: %s: %w", what, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("sqlite: %s: %w", what, err)
	} else if n == 0 {
		return store.ErrNotFound
	}
	return nil
}
