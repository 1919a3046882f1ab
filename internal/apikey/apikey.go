// Package apikey makes and recognises API keys. A key is shown to its owner
// once; the service keeps only its SHA-256 and a preview that cannot be
// turned back into it.
package apikey

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Prefix begins every key, so leaked keys are easy to recognise in logs
// and by secret scanners.
const Prefix = "svc_"

// bodyLen is the random part: 32 lowercase hex digits would be 128 bits;
// 40 characters of base-32 carry 200.
const bodyLen = 40

const alphabet = "abcdefghijklmnopqrstuvwxyz234567"

// New returns a fresh key in plaintext, its hash and its preview.
func New() (plaintext, hash, preview string) {
	raw := make([]byte, bodyLen)
	rand.Read(raw) // never fails (crypto/rand, Go 1.24+)
	var b strings.Builder
	b.WriteString(Prefix)
	for _, c := range raw {
		b.WriteByte(alphabet[int(c)%len(alphabet)]) // 256 is a multiple of 32: no bias
	}
	plaintext = b.String()
	return plaintext, Hash(plaintext), Preview(plaintext)
}

// Hash is the stored form of a key: lowercase hex SHA-256.
func Hash(plaintext string) string {
	sum := sha256.Sum256([]byte(plaintext))
	return hex.EncodeToString(sum[:])
}

// Preview keeps the prefix and the last four characters: enough to tell
// keys apart on the dashboard, far too little to guess the rest.
func Preview(plaintext string) string {
	if len(plaintext) < len(Prefix)+8 {
		return Prefix + "…"
	}
	return Prefix + "…" + plaintext[len(plaintext)-4:]
}

// FromHeader extracts the key from an Authorization header value. ok is
// false for anything but "Bearer <token>" with a non-empty token; the
// caller then answers invalid_api_key, never anonymous.
func FromHeader(v string) (key string, ok bool) {
	scheme, token, found := strings.Cut(strings.TrimSpace(v), " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}
