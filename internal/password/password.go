// Package password hashes account passwords with argon2id (x/crypto) into
// PHC strings, and checks them in constant time.
package password

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// MinLength is SPEC.md's floor, in characters. MaxBytes bounds the work an
// attacker can make one login cost.
const (
	MinLength = 10
	MaxBytes  = 1024
)

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane.
const (
	memoryKiB = 19 * 1024
	passes    = 2
	lanes     = 1
	keyLen    = 32
	saltLen   = 16
)

var b64 = base64.RawStdEncoding

// Check says why a new password is refused, or nil.
func Check(pw string) error {
	switch {
	case utf8.RuneCountInString(pw) < MinLength:
		return fmt.Errorf("password must be at least %d characters", MinLength)
	case len(pw) > MaxBytes:
		return fmt.Errorf("password must be at most %d bytes", MaxBytes)
	}
	return nil
}

// Hash returns the PHC string of pw with a fresh salt.
func Hash(pw string) string {
	salt := make([]byte, saltLen)
	rand.Read(salt) // never fails (crypto/rand, Go 1.24+)
	sum := argon2.IDKey([]byte(pw), salt, passes, memoryKiB, lanes, keyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, memoryKiB, passes, lanes, b64.EncodeToString(salt), b64.EncodeToString(sum))
}

var errFormat = errors.New("password: not an argon2id hash")

// Verify reports whether pw matches the PHC string encoded, using the
// parameters stored in it (so they can be raised later).
func Verify(pw, encoded string) bool {
	ok, err := verify(pw, encoded)
	return err == nil && ok
}

func verify(pw, encoded string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || len(pw) > MaxBytes {
		return false, errFormat
	}
	var version int
	var m uint32
	var t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errFormat
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m == 0 || m > 64*1024 || t == 0 || t > 4 || p == 0 || p > 4 {
		return false, errFormat
	}
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, errFormat
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) < 16 || len(want) > 64 {
		return false, errFormat
	}
	got := argon2.IDKey([]byte(pw), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// dummy is checked against when an account does not exist, so a login for
// an unknown address costs the same time as a wrong password. Verify's work
// depends only on the parameters, so the salt and sum are zeros: hashing a
// real dummy at start-up cost every process (CLI, Lambda cold start) an
// argon2id run before its first line.
var dummy = fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, memoryKiB, passes, lanes,
	b64.EncodeToString(make([]byte, saltLen)), b64.EncodeToString(make([]byte, keyLen)))

// Waste does a Verify's work for nothing.
func Waste(pw string) { Verify(pw, dummy) }
