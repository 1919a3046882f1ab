package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/doctrust/doctrust/internal/store"
)

func (s *Store) SetCustomer(ctx context.Context, accountID, customerID string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE accounts SET stripe_customer = ? WHERE id = ?`, customerID, accountID)
	if err != nil {
		return fmt.Errorf("sqlite: set customer: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// ApplyPlan is one conditional UPDATE: the version (and subscription)
// conditions sit in its WHERE, so a refused state writes nothing.
func (s *Store) ApplyPlan(ctx context.Context, accountID string, st store.PlanState) error {
	q := `UPDATE accounts SET plan = ?, subscription_id = ?, period_start = ?, period_end = ?, plan_version = ?
		WHERE id = ? AND plan_version <= ?`
	args := []any{st.Plan, st.SubscriptionID, ns(st.PeriodStart), ns(st.PeriodEnd), st.Version, accountID, st.Version}
	if st.IfSubscription != "" {
		q += ` AND subscription_id IN ('', ?)`
		args = append(args, st.IfSubscription)
	}
	return s.conditional(ctx, "apply plan", accountID, q, args...)
}

func (s *Store) RecordPaymentFailure(ctx context.Context, accountID string, f store.PaymentFailure) error {
	return s.conditional(ctx, "payment failure", accountID,
		`UPDATE accounts SET payment_failed_at = ?, payment_failed_ref = ? WHERE id = ? AND payment_failed_at <= ?`,
		ns(f.At), f.Ref, accountID, ns(f.At))
}

// conditional runs a conditional UPDATE of one account in a transaction:
// no row changed is ErrNotFound when the account does not exist, else
// ErrRefused.
func (s *Store) conditional(ctx context.Context, what, accountID, q string, args ...any) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("sqlite: %s: %w", what, err)
		}
		if n, _ := res.RowsAffected(); n > 0 {
			return nil
		}
		if err := exists(ctx, tx, accountID); err != nil {
			return err
		}
		return store.ErrRefused
	})
}
