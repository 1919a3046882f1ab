package file

import (
	"bytes"
	"crypto/md5"
	"crypto/rc4"
	"testing"
)

// TestLegacyOwnerRoundTrip builds /O and /U the way a writer does
// (Algorithms 3 and 5) for an empty owner password and a real user
// password, and checks that the empty owner password recovers the user
// password and a key that reproduces /U. No tool writes such a file (an
// empty owner password means the user's), so it is built here.
func TestLegacyOwnerRoundTrip(t *testing.T) {
	user := append([]byte("statement-pw"), padding[:32-len("statement-pw")]...)
	id0 := []byte("0123456789abcdef")
	for _, tc := range []struct{ r, keyLen int }{{2, 5}, {3, 16}, {4, 16}} {
		// Algorithm 3: the owner key from the (empty) owner password.
		sum := md5.Sum(padding)
		k := sum[:]
		if tc.r >= 3 {
			for range 50 {
				s := md5.Sum(k)
				k = s[:]
			}
		}
		k = k[:tc.keyLen]
		o := bytes.Clone(user)
		rounds := 1
		if tc.r >= 3 {
			rounds = 20
		}
		x := make([]byte, len(k))
		for i := range rounds {
			for j := range k {
				x[j] = k[j] ^ byte(i)
			}
			c, _ := rc4.NewCipher(x)
			c.XORKeyStream(o, o)
		}
		// Algorithm 5 (and 4 for revision 2): /U from the user password.
		key := legacyKey(user, o, 0xFFFFF0C4, id0, tc.r, tc.keyLen, true)
		var u []byte
		if tc.r == 2 {
			u = make([]byte, 32)
			c, _ := rc4.NewCipher(key)
			c.XORKeyStream(u, padding)
		} else {
			h := md5.New()
			h.Write(padding)
			h.Write(id0)
			u = h.Sum(nil)
			for i := range 20 {
				for j := range key {
					x[j] = key[j] ^ byte(i)
				}
				c, _ := rc4.NewCipher(x[:len(key)])
				c.XORKeyStream(u, u)
			}
			u = append(u, make([]byte, 16)...)
		}
		if legacyUserOK(legacyKey(padding, o, 0xFFFFF0C4, id0, tc.r, tc.keyLen, true), u, id0, tc.r) {
			t.Fatalf("R%d: the empty user password opened a file with a user password", tc.r)
		}
		got := legacyOwnerUser(o, tc.r, tc.keyLen)
		if !bytes.Equal(got, user) {
			t.Fatalf("R%d: owner path gave user password % x", tc.r, got)
		}
		if !legacyUserOK(legacyKey(got, o, 0xFFFFF0C4, id0, tc.r, tc.keyLen, true), u, id0, tc.r) {
			t.Fatalf("R%d: recovered key does not reproduce /U", tc.r)
		}
	}
}
