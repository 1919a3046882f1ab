// Package receiptkey finds the receipt-signing secret: RECEIPT_SECRET when
// set, otherwise a random secret generated once into DATA_DIR (the
// local-run contract), so receipts issued by one local install keep
// verifying across restarts.
package receiptkey

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// FileName is the secret's file inside DATA_DIR.
const FileName = "receipt.secret"

// Load returns the secret from env (when non-empty) or from dataDir,
// creating it there with owner-only permissions on first use.
func Load(env, dataDir string) ([]byte, error) {
	if env != "" {
		return []byte(env), nil
	}
	if dataDir == "" {
		dataDir = ".data"
	}
	path := filepath.Join(dataDir, FileName)
	b, err := os.ReadFile(path)
	if err == nil {
		s := strings.TrimSpace(string(b))
		if s == "" {
			return nil, errors.New("receiptkey: " + path + " is empty")
		}
		return []byte(s), nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	secret := hex.EncodeToString(raw)
	// O_EXCL: when two processes race to create it, one wins and the
	// other reads the winner's secret.
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return Load("", dataDir)
	}
	if err != nil {
		return nil, err
	}
	if _, err := fh.WriteString(secret + "\n"); err != nil {
		fh.Close()
		return nil, err
	}
	return []byte(secret), fh.Close()
}
