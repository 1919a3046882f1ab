// Package sqlite is the embedded store: one SQLite file under DATA_DIR,
// through the pure-Go modernc.org/sqlite driver, in WAL mode so that
// `doctrust admin` can write while `doctrust serve` runs on the same file.
//
// Every multi-record change runs in one IMMEDIATE transaction: the write
// lock is taken at BEGIN, so two writers never both read a counter and
// then both pass its limit, and a failure rolls the whole change back.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/doctrust/doctrust/internal/store"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// FileName is the database's name inside DATA_DIR.
const FileName = "doctrust.db"

const schema = `
CREATE TABLE IF NOT EXISTS accounts (
	id            TEXT PRIMARY KEY,
	email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
	password_hash TEXT NOT NULL DEFAULT '',
	verified      INTEGER NOT NULL DEFAULT 0,
	plan          TEXT NOT NULL,
	credits       INTEGER NOT NULL DEFAULT 0,
	created       INTEGER NOT NULL,
	session_epoch INTEGER NOT NULL DEFAULT 0,
	stripe_customer    TEXT NOT NULL DEFAULT '',
	subscription_id    TEXT NOT NULL DEFAULT '',
	period_start       INTEGER NOT NULL DEFAULT 0,
	period_end         INTEGER NOT NULL DEFAULT 0,
	plan_version       INTEGER NOT NULL DEFAULT 0,
	payment_failed_at  INTEGER NOT NULL DEFAULT 0,
	payment_failed_ref TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS api_keys (
	hash       TEXT PRIMARY KEY,
	id         TEXT NOT NULL UNIQUE,
	account_id TEXT NOT NULL REFERENCES accounts(id),
	preview    TEXT NOT NULL,
	created    INTEGER NOT NULL,
	revoked_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS api_keys_account ON api_keys(account_id, created);
CREATE TABLE IF NOT EXISTS counters (
	name    TEXT PRIMARY KEY,
	n       INTEGER NOT NULL,
	expires INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS credit_grants (
	grant_id   TEXT PRIMARY KEY,
	account_id TEXT NOT NULL,
	n          INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS usage (
	id         TEXT PRIMARY KEY,
	account_id TEXT NOT NULL,
	key_id     TEXT NOT NULL,
	client_ip  TEXT NOT NULL,
	route      TEXT NOT NULL,
	at         INTEGER NOT NULL,
	documents  INTEGER NOT NULL,
	bytes      INTEGER NOT NULL,
	band       TEXT NOT NULL,
	credit     INTEGER NOT NULL,
	expires    INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS usage_account ON usage(account_id, at);
CREATE TABLE IF NOT EXISTS secrets (
	name  TEXT PRIMARY KEY,
	value BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
	hash       TEXT PRIMARY KEY,
	account_id TEXT NOT NULL,
	epoch      INTEGER NOT NULL,
	created    INTEGER NOT NULL,
	expires    INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS baselines (
	account_id TEXT NOT NULL,
	issuer     TEXT NOT NULL,
	profile    BLOB NOT NULL,
	created    INTEGER NOT NULL,
	updated    INTEGER NOT NULL,
	PRIMARY KEY (account_id, issuer)
);
CREATE TABLE IF NOT EXISTS tokens (
	hash       TEXT PRIMARY KEY,
	kind       TEXT NOT NULL,
	account_id TEXT NOT NULL,
	expires    INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS ledger_aliases (
	alias      TEXT PRIMARY KEY,
	account_id TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS ledger_suppliers (
	account_id TEXT NOT NULL,
	key        TEXT NOT NULL,
	rev        INTEGER NOT NULL,
	data       TEXT NOT NULL,
	PRIMARY KEY (account_id, key)
);
CREATE TABLE IF NOT EXISTS ledger_alerts (
	id         TEXT PRIMARY KEY,
	account_id TEXT NOT NULL,
	at         INTEGER NOT NULL,
	data       TEXT NOT NULL,
	expires    INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ledger_alerts_account ON ledger_alerts(account_id, at);
CREATE TABLE IF NOT EXISTS ledger_webhooks (
	account_id TEXT PRIMARY KEY,
	id         TEXT NOT NULL,
	data       TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS webhook_outbox (
	id         TEXT PRIMARY KEY,
	account_id TEXT NOT NULL,
	due        INTEGER NOT NULL,
	rev        INTEGER NOT NULL,
	attempts   INTEGER NOT NULL,
	created    INTEGER NOT NULL,
	expires    INTEGER NOT NULL,
	event      BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_outbox_due ON webhook_outbox(due);
`

// columnsAdded are columns later than their table's first release:
// CREATE TABLE IF NOT EXISTS leaves an older file's table as it was.
var columnsAdded = []struct{ table, column, def string }{
	{"accounts", "session_epoch", "INTEGER NOT NULL DEFAULT 0"},
	// billing
	{"accounts", "stripe_customer", "TEXT NOT NULL DEFAULT ''"},
	{"accounts", "subscription_id", "TEXT NOT NULL DEFAULT ''"},
	{"accounts", "period_start", "INTEGER NOT NULL DEFAULT 0"},
	{"accounts", "period_end", "INTEGER NOT NULL DEFAULT 0"},
	{"accounts", "plan_version", "INTEGER NOT NULL DEFAULT 0"},
	{"accounts", "payment_failed_at", "INTEGER NOT NULL DEFAULT 0"},
	{"accounts", "payment_failed_ref", "TEXT NOT NULL DEFAULT ''"},
}

// quotaRetention keeps a month's counter long enough for usage pages and
// support questions about past months; the counter of the current month is
// what metering reads.
const quotaRetention = 400 * 24 * time.Hour

// Store is the embedded store.
type Store struct {
	// db is the one writer: transactions and writes go through a single
	// connection; rdb holds the readers (query_only). See maxReaders.
	db, rdb *sql.DB
	now     func() time.Time
	// count is Count's statement, parsed once: the anonymous window is
	// read for the RateLimit headers of every anonymous answer, and
	// parsing the query each time was most of the read's cost.
	count *sql.Stmt
}

var _ store.Store = (*Store)(nil)

// SQLite lets one writer in at a time. With database/sql's default pool, a
// second connection that found the database locked slept in SQLite's busy
// handler (1, 2, 5 ms ...) and polled again while its worker sat idle, and
// the pool kept two idle connections, so more callers than that opened
// connections again and again: under 25x overload the server used 1.3 of
// its 2 cores and kept 64-83% of its goodput at capacity. Writes therefore
// go through one connection, where callers queue in database/sql (under
// their context's deadline) instead of sleeping and polling; reads, which
// WAL never blocks, go through a pool of readers kept open, so a reader
// never waits behind a writer that the scheduler has set aside on a busy
// machine (a single connection for everything let 100 concurrent 10 MB
// uploads wait up to half a second for a read). docs/reliability.md, "One
// writer connection", has the figures.
const maxReaders = 8

// Open opens (creating when needed) the database at path. now is the
// clock used to filter expired rows; nil means the wall clock.
func Open(path string, now func() time.Time) (*Store, error) {
	if now == nil {
		now = time.Now
	}
	// The file holds key hashes, password hashes and the receipt secret:
	// owner-only from the start (SQLite gives its -wal and -shm files the
	// database file's mode).
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	fh, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	fh.Close()
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(15000)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlite: open: %w", err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	q.Add("_pragma", "query_only(1)")
	rdb, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open: %w", err)
	}
	rdb.SetMaxOpenConns(maxReaders)
	rdb.SetMaxIdleConns(maxReaders)
	s := &Store{db: db, rdb: rdb, now: now}
	if err := s.migrate(); err != nil {
		s.closeDBs()
		return nil, err
	}
	if s.count, err = rdb.Prepare(`SELECT coalesce((SELECT n FROM counters WHERE name = ? AND expires > ?), 0)`); err != nil {
		s.closeDBs()
		return nil, fmt.Errorf("sqlite: prepare: %w", err)
	}
	return s, nil
}

func (s *Store) migrate() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, schema); err != nil {
			return fmt.Errorf("sqlite: schema: %w", err)
		}
		for _, c := range columnsAdded {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info(?) WHERE name = ?`, c.table, c.column).Scan(&n); err != nil {
				return fmt.Errorf("sqlite: schema: %w", err)
			}
			if n == 0 {
				if _, err := tx.ExecContext(ctx, `ALTER TABLE `+c.table+` ADD COLUMN `+c.column+` `+c.def); err != nil {
					return fmt.Errorf("sqlite: schema: %w", err)
				}
			}
		}
		// Housekeeping in place of DynamoDB's TTL: expired rows go at start-up.
		now := s.now().UnixNano()
		for _, q := range []string{`DELETE FROM usage WHERE expires <= ?`, `DELETE FROM counters WHERE expires <= ?`,
			`DELETE FROM sessions WHERE expires <= ?`, `DELETE FROM tokens WHERE expires <= ?`,
			`DELETE FROM ledger_alerts WHERE expires <= ?`} {
			if _, err := tx.ExecContext(ctx, q, now); err != nil {
				return fmt.Errorf("sqlite: sweep: %w", err)
			}
		}
		return nil
	})
}

// closeDBs closes the readers and the writer.
func (s *Store) closeDBs() error { return errors.Join(s.rdb.Close(), s.db.Close()) }

// Close closes the database.
func (s *Store) Close() error {
	s.count.Close()
	return s.closeDBs()
}

// tx runs fn in one IMMEDIATE transaction, committing when it returns nil.
func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: begin: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: commit: %w", err)
	}
	return nil
}

func ns(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNS(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (s *Store) CreateAccount(ctx context.Context, a store.Account, first store.APIKey) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM accounts WHERE email = ? OR id = ?`, a.Email, a.ID).Scan(&n); err != nil {
			return fmt.Errorf("sqlite: create account: %w", err)
		}
		if n > 0 {
			return store.ErrConflict
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO accounts (id, email, password_hash, verified, plan, credits, created) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			a.ID, a.Email, a.PasswordHash, b2i(a.Verified), a.Plan, a.Credits, ns(a.Created)); err != nil {
			return fmt.Errorf("sqlite: create account: %w", err)
		}
		return insertKey(ctx, tx, first)
	})
}

func insertKey(ctx context.Context, tx *sql.Tx, k store.APIKey) error {
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO api_keys (hash, id, account_id, preview, created, revoked_at) VALUES (?, ?, ?, ?, ?, ?)`,
		k.Hash, k.ID, k.AccountID, k.Preview, ns(k.Created), ns(k.RevokedAt)); err != nil {
		return fmt.Errorf("sqlite: insert key: %w", err)
	}
	return nil
}

const accountCols = `id, email, password_hash, verified, plan, credits, created, session_epoch,
	stripe_customer, subscription_id, period_start, period_end, plan_version, payment_failed_at, payment_failed_ref`

func scanAccount(row *sql.Row) (store.Account, error) {
	var a store.Account
	var verified int
	var created, periodStart, periodEnd, failedAt int64
	b := &a.Billing
	err := row.Scan(&a.ID, &a.Email, &a.PasswordHash, &verified, &a.Plan, &a.Credits, &created, &a.SessionEpoch,
		&b.CustomerID, &b.SubscriptionID, &periodStart, &periodEnd, &b.PlanVersion, &failedAt, &b.PaymentFailedRef)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Account{}, store.ErrNotFound
	}
	if err != nil {
		return store.Account{}, fmt.Errorf("sqlite: read account: %w", err)
	}
	a.Verified, a.Created = verified != 0, fromNS(created)
	b.PeriodStart, b.PeriodEnd, b.PaymentFailedAt = fromNS(periodStart), fromNS(periodEnd), fromNS(failedAt)
	return a, nil
}

func (s *Store) Account(ctx context.Context, id string) (store.Account, error) {
	return scanAccount(s.rdb.QueryRowContext(ctx, `SELECT `+accountCols+` FROM accounts WHERE id = ?`, id))
}

func (s *Store) AccountByEmail(ctx context.Context, email string) (store.Account, error) {
	return scanAccount(s.rdb.QueryRowContext(ctx, `SELECT `+accountCols+` FROM accounts WHERE email = ?`, email))
}

func (s *Store) SetPlan(ctx context.Context, accountID, plan string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE accounts SET plan = ? WHERE id = ?`, plan, accountID)
	if err != nil {
		return fmt.Errorf("sqlite: set plan: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	return nil
}

func (s *Store) AddCredits(ctx context.Context, accountID string, n int, grantID string) (store.Balance, error) {
	var bal store.Balance
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE accounts SET credits = credits + ? WHERE id = ?`, n, accountID)
		if err != nil {
			return fmt.Errorf("sqlite: add credits: %w", err)
		}
		if c, _ := res.RowsAffected(); c == 0 {
			return store.ErrNotFound
		}
		res, err = tx.ExecContext(ctx, `INSERT OR IGNORE INTO credit_grants (grant_id, account_id, n) VALUES (?, ?, ?)`, grantID, accountID, n)
		if err != nil {
			return fmt.Errorf("sqlite: add credits: %w", err)
		}
		if c, _ := res.RowsAffected(); c == 0 {
			return store.ErrConflict // rolls the credit update back
		}
		bal, err = balance(ctx, tx, accountID, store.Month(s.now()))
		return err
	})
	return bal, err
}

const keyCols = `hash, id, account_id, preview, created, revoked_at`

type scanner interface{ Scan(...any) error }

func scanKey(row scanner) (store.APIKey, error) {
	var k store.APIKey
	var created, revoked int64
	if err := row.Scan(&k.Hash, &k.ID, &k.AccountID, &k.Preview, &created, &revoked); err != nil {
		return store.APIKey{}, err
	}
	k.Created, k.RevokedAt, k.Revoked = fromNS(created), fromNS(revoked), revoked != 0
	return k, nil
}

func (s *Store) KeyByHash(ctx context.Context, hash string) (store.APIKey, error) {
	k, err := scanKey(s.rdb.QueryRowContext(ctx, `SELECT `+keyCols+` FROM api_keys WHERE hash = ?`, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return store.APIKey{}, store.ErrNotFound
	}
	if err != nil {
		return store.APIKey{}, fmt.Errorf("sqlite: read key: %w", err)
	}
	return k, nil
}

func (s *Store) Keys(ctx context.Context, accountID string) ([]store.APIKey, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT `+keyCols+` FROM api_keys WHERE account_id = ? ORDER BY created, id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list keys: %w", err)
	}
	defer rows.Close()
	var keys []store.APIKey
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: list keys: %w", err)
		}
		keys = append(keys, k)
	}
	return keys, rows.Err()
}

func quotaCounter(accountID, month string) string { return "quota#" + accountID + "#" + month }

type querier interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}

func balance(ctx context.Context, q querier, accountID, month string) (store.Balance, error) {
	var bal store.Balance
	err := q.QueryRowContext(ctx,
		`SELECT coalesce((SELECT n FROM counters WHERE name = ?), 0), coalesce((SELECT credits FROM accounts WHERE id = ?), 0)`,
		quotaCounter(accountID, month), accountID).Scan(&bal.Used, &bal.Credits)
	if err != nil {
		return store.Balance{}, fmt.Errorf("sqlite: balance: %w", err)
	}
	return bal, nil
}

func (s *Store) Balance(ctx context.Context, accountID, month string) (store.Balance, error) {
	if err := exists(ctx, s.db, accountID); err != nil {
		return store.Balance{}, err
	}
	return balance(ctx, s.db, accountID, month)
}

func exists(ctx context.Context, q querier, accountID string) error {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM accounts WHERE id = ?`, accountID).Scan(&n); err != nil {
		return fmt.Errorf("sqlite: read account: %w", err)
	}
	if n == 0 {
		return store.ErrNotFound
	}
	return nil
}

func (s *Store) Charge(ctx context.Context, c store.Charge) (store.Balance, error) {
	var bal store.Balance
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := exists(ctx, tx, c.AccountID); err != nil {
			return err
		}
		var res sql.Result
		var err error
		if c.FromCredits {
			res, err = tx.ExecContext(ctx, `UPDATE accounts SET credits = credits - ? WHERE id = ? AND credits >= ?`,
				c.Documents, c.AccountID, c.Documents)
		} else {
			name := quotaCounter(c.AccountID, c.Month)
			expires := ns(s.now().Add(quotaRetention))
			res, err = tx.ExecContext(ctx,
				`INSERT INTO counters (name, n, expires) SELECT ?, ?, ? WHERE ? <= ?
				 ON CONFLICT(name) DO UPDATE SET n = n + excluded.n WHERE n + excluded.n <= ?`,
				name, c.Documents, expires, c.Documents, c.Limit, c.Limit)
		}
		if err != nil {
			return fmt.Errorf("sqlite: charge: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.ErrRefused
		}
		if err := insertUsage(ctx, tx, c.Usage); err != nil {
			return err
		}
		bal, err = balance(ctx, tx, c.AccountID, c.Month)
		return err
	})
	return bal, err
}

func insertUsage(ctx context.Context, tx execer, u store.UsageRecord) error {
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO usage (id, account_id, key_id, client_ip, route, at, documents, bytes, band, credit, expires)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		u.ID, u.AccountID, u.KeyID, u.ClientIP, u.Route, ns(u.At), u.Documents, u.Bytes, u.Band, b2i(u.Credit), ns(u.Expires)); err != nil {
		return fmt.Errorf("sqlite: usage row: %w", err)
	}
	return nil
}

type execer interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}

func (s *Store) RecordUsage(ctx context.Context, u store.UsageRecord) error {
	return insertUsage(ctx, s.db, u)
}

func (s *Store) UsageSince(ctx context.Context, accountID string, from time.Time) ([]store.UsageRecord, error) {
	rows, err := s.rdb.QueryContext(ctx,
		`SELECT id, account_id, key_id, client_ip, route, at, documents, bytes, band, credit, expires
		 FROM usage WHERE account_id = ? AND at >= ? AND expires > ? ORDER BY at, rowid`,
		accountID, ns(from), ns(s.now()))
	if err != nil {
		return nil, fmt.Errorf("sqlite: usage: %w", err)
	}
	defer rows.Close()
	var out []store.UsageRecord
	for rows.Next() {
		var u store.UsageRecord
		var at, expires int64
		var credit int
		if err := rows.Scan(&u.ID, &u.AccountID, &u.KeyID, &u.ClientIP, &u.Route, &at, &u.Documents, &u.Bytes, &u.Band, &credit, &expires); err != nil {
			return nil, fmt.Errorf("sqlite: usage: %w", err)
		}
		u.At, u.Expires, u.Credit = fromNS(at), fromNS(expires), credit != 0
		out = append(out, u)
	}
	return out, rows.Err()
}

func (s *Store) Hit(ctx context.Context, bucket string, limit int, expires time.Time) (int, error) {
	var count int
	err := s.tx(ctx, func(tx *sql.Tx) error {
		name := "rate#" + bucket
		// An expired window starts afresh; a live one counts up to limit.
		err := tx.QueryRowContext(ctx,
			`INSERT INTO counters (name, n, expires) SELECT ?, 1, ? WHERE ? > 0
			 ON CONFLICT(name) DO UPDATE SET
			   n = CASE WHEN expires <= ? THEN 1 ELSE n + 1 END,
			   expires = CASE WHEN expires <= ? THEN excluded.expires ELSE expires END
			 WHERE expires <= ? OR n < ?
			 RETURNING n`,
			name, ns(expires), limit, ns(s.now()), ns(s.now()), ns(s.now()), limit).Scan(&count)
		if errors.Is(err, sql.ErrNoRows) {
			return store.ErrRefused
		}
		if err != nil {
			return fmt.Errorf("sqlite: hit: %w", err)
		}
		return nil
	})
	return count, err
}

func (s *Store) Secret(ctx context.Context, name string, candidate []byte) ([]byte, error) {
	var out []byte
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)`, name, candidate); err != nil {
			return fmt.Errorf("sqlite: secret: %w", err)
		}
		if err := tx.QueryRowContext(ctx, `SELECT value FROM secrets WHERE name = ?`, name).Scan(&out); err != nil {
			return fmt.Errorf("sqlite: secret: %w", err)
		}
		return nil
	})
	return out, err
}

func (s *Store) CreateSession(ctx context.Context, sess store.Session) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO sessions (hash, account_id, epoch, created, expires) VALUES (?, ?, ?, ?, ?)`,
		sess.Hash, sess.AccountID, sess.Epoch, ns(sess.Created), ns(sess.Expires)); err != nil {
		return fmt.Errorf("sqlite: create session: %w", err)
	}
	return nil
}

func (s *Store) Session(ctx context.Context, hash string) (store.Session, error) {
	var sess store.Session
	var created, expires int64
	err := s.rdb.QueryRowContext(ctx, `SELECT hash, account_id, epoch, created, expires FROM sessions WHERE hash = ? AND expires > ?`,
		hash, ns(s.now())).Scan(&sess.Hash, &sess.AccountID, &sess.Epoch, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Session{}, store.ErrNotFound
	}
	if err != nil {
		return store.Session{}, fmt.Errorf("sqlite: read session: %w", err)
	}
	sess.Created, sess.Expires = fromNS(created), fromNS(expires)
	return sess, nil
}

func (s *Store) DeleteSession(ctx context.Context, hash string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM sessions WHERE hash = ?`, hash); err != nil {
		return fmt.Errorf("sqlite: delete session: %w", err)
	}
	return nil
}

func (s *Store) CreateToken(ctx context.Context, tok store.Token) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO tokens (hash, kind, account_id, expires) VALUES (?, ?, ?, ?)`,
		tok.Hash, tok.Kind, tok.AccountID, ns(tok.Expires)); err != nil {
		return fmt.Errorf("sqlite: create token: %w", err)
	}
	return nil
}

// consume deletes a live token of kind inside tx and returns its account.
func (s *Store) consume(ctx context.Context, tx *sql.Tx, hash, kind string) (string, error) {
	var accountID string
	err := tx.QueryRowContext(ctx, `DELETE FROM tokens WHERE hash = ? AND kind = ? AND expires > ? RETURNING account_id`,
		hash, kind, ns(s.now())).Scan(&accountID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", store.ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("sqlite: consume token: %w", err)
	}
	return accountID, nil
}

func (s *Store) VerifyEmail(ctx context.Context, tokenHash string) (string, error) {
	var accountID string
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		if accountID, err = s.consume(ctx, tx, tokenHash, store.TokenVerify); err != nil {
			return err
		}
		return updateAccount(ctx, tx, `UPDATE accounts SET verified = 1 WHERE id = ?`, accountID)
	})
	return accountID, err
}

func (s *Store) ResetPassword(ctx context.Context, tokenHash, passwordHash string) (string, error) {
	var accountID string
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		if accountID, err = s.consume(ctx, tx, tokenHash, store.TokenReset); err != nil {
			return err
		}
		return updateAccount(ctx, tx, `UPDATE accounts SET password_hash = ?, session_epoch = session_epoch + 1 WHERE id = ?`, passwordHash, accountID)
	})
	return accountID, err
}

// updateAccount runs an UPDATE of one account; a vanished account is
// ErrNotFound, which rolls back the token's consumption.
func updateAccount(ctx context.Context, tx *sql.Tx, q string, args ...any) error {
	res, err := tx.ExecContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("sqlite: update account: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	return nil
}

func (s *Store) RotateKey(ctx context.Context, accountID, oldKeyID string, replacement store.APIKey) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at = 0`,
			ns(s.now()), oldKeyID, accountID)
		if err != nil {
			return fmt.Errorf("sqlite: rotate key: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.ErrNotFound
		}
		return insertKey(ctx, tx, replacement)
	})
}

func (s *Store) Count(ctx context.Context, bucket string) (int, error) {
	var n int
	err := s.count.QueryRowContext(ctx, "rate#"+bucket, ns(s.now())).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("sqlite: count: %w", err)
	}
	return n, nil
}
