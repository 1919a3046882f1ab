package file

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/md5"
	"crypto/rc4"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"hash"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// The standard security handler (ISO 32000-2, 7.6.4) opened with the empty
// password, as user password or, failing that, as owner password. pdfcpu implements the same algorithms, but only behind
// its whole-file reader (api.Decrypt rewrites the document, losing the
// revisions and offsets this package exists to keep); its key derivation
// and ciphers are unexported, so they are written here on the standard
// library's MD5, RC4, AES and SHA-2.

// Security describes a file's /Encrypt dictionary and whether it was opened.
type Security struct {
	Filter    string // security handler: "Standard", "Adobe.PubSec", ...
	SubFilter string
	V, R      int
	KeyBits   int
	// StreamMethod and StringMethod are the ciphers of the default crypt
	// filters: "RC4", "AESV2", "AESV3" or "None".
	StreamMethod, StringMethod string
	// StmF and StrF name the default crypt filters of a V4/V5 handler.
	StmF, StrF      string
	EncryptMetadata bool
	// Opened is true when the empty password opened the file: its strings
	// and streams are then read in clear. OpenedAs says whether it was the
	// user password ("user") or, as qpdf and pdf.js also try, the owner
	// password ("owner") that is empty.
	Opened   bool
	OpenedAs string
	// Reason says why a file was not opened: "password-required",
	// "public-key-handler", "unsupported-handler" or "malformed".
	Reason string
}

// Reasons a file is not opened.
const (
	ReasonPassword    = "password-required"
	ReasonPublicKey   = "public-key-handler"
	ReasonUnsupported = "unsupported-handler"
	ReasonMalformed   = "malformed"
)

// cipher methods of a crypt filter.
type method uint8

const (
	methodNone method = iota
	methodRC4
	methodAESV2
	methodAESV3
)

func (m method) String() string {
	switch m {
	case methodRC4:
		return "RC4"
	case methodAESV2:
		return "AESV2"
	case methodAESV3:
		return "AESV3"
	}
	return "None"
}

// decrypter holds an opened file's key and crypt filters.
type decrypter struct {
	key      []byte
	stm, str method
	eff      method
	named    map[cos.Name]method // crypt filters a stream may name with /Crypt
	metadata bool                // /EncryptMetadata
	encNum   int                 // the /Encrypt dictionary's own object, never encrypted
}

// padding is the 32-byte string that pads passwords (Algorithm 2, step a).
var padding = []byte{
	0x28, 0xBF, 0x4E, 0x5E, 0x4E, 0x75, 0x8A, 0x41, 0x64, 0x00, 0x4E, 0x56, 0xFF, 0xFA, 0x01, 0x08,
	0x2E, 0x2E, 0x00, 0xB6, 0xD0, 0x68, 0x3E, 0x80, 0x2F, 0x0C, 0xA9, 0xFE, 0x64, 0x53, 0x69, 0x7A,
}

// openSecurity reads the newest trailer's /Encrypt and, when the empty
// password opens it, installs the decrypter. Objects read before are
// dropped from the caches so every later read is deciphered.
func (f *File) openSecurity() {
	f.crypt = nil
	f.Security = nil
	t := f.Trailer()
	encObj := t.Get("Encrypt")
	if encObj == nil {
		return
	}
	s := &Security{EncryptMetadata: true}
	f.Security = s
	enc, _ := f.Resolve(encObj).(*cos.Dict)
	if enc == nil {
		s.Reason = ReasonMalformed
		return
	}
	s.Filter = string(enc.Name("Filter"))
	s.SubFilter = string(enc.Name("SubFilter"))
	s.V = f.intOf(enc.Get("V"))
	s.R = f.intOf(enc.Get("R"))
	if b, ok := f.Resolve(enc.Get("EncryptMetadata")).(cos.Bool); ok {
		s.EncryptMetadata = bool(b)
	}
	d := &decrypter{metadata: s.EncryptMetadata, named: map[cos.Name]method{"Identity": methodNone}, encNum: -1}
	if ref, ok := encObj.(cos.Ref); ok {
		d.encNum = ref.Num
	}
	keyLen, ok := f.cryptFilters(enc, s, d)
	s.KeyBits = keyLen * 8
	switch {
	case s.Filter == "Adobe.PubSec" || len(s.SubFilter) > 12 && s.SubFilter[:12] == "adbe.pkcs7.s":
		s.Reason = ReasonPublicKey
		return
	case s.Filter != "Standard" || !ok:
		s.Reason = ReasonUnsupported
		return
	}
	key, as, reason := f.standardKey(enc, s, keyLen)
	if key == nil {
		s.Reason = reason
		return
	}
	d.key = key
	s.Opened, s.OpenedAs = true, as
	f.crypt = d
	f.objects = map[int]cos.Object{}
	f.objstms = map[int64]*objStm{}
}

func (f *File) intOf(o cos.Object) int {
	n, ok := cos.AsInt(f.Resolve(o))
	if !ok || n < 0 || n > 1<<16 {
		return 0
	}
	return int(n)
}

func (f *File) stringOf(o cos.Object) []byte {
	s, _ := f.Resolve(o).(cos.String)
	return s.Bytes
}

// cryptFilters reads the handler's version into ciphers and a key length
// in bytes; ok is false for a version this reader does not know.
func (f *File) cryptFilters(enc *cos.Dict, s *Security, d *decrypter) (keyLen int, ok bool) {
	length := f.intOf(enc.Get("Length"))
	switch s.V {
	case 1:
		d.stm, d.str, keyLen = methodRC4, methodRC4, 5
	case 2:
		keyLen = 5
		if length >= 40 && length <= 128 && length%8 == 0 {
			keyLen = length / 8
		}
		d.stm, d.str = methodRC4, methodRC4
	case 4, 5:
		keyLen = 16
		if s.V == 5 {
			keyLen = 32
		} else if length >= 40 && length <= 128 && length%8 == 0 {
			keyLen = length / 8
		}
		cf, _ := f.Resolve(enc.Get("CF")).(*cos.Dict)
		if cf != nil {
			for i, name := range cf.Keys {
				if name == "Identity" {
					continue // reserved: always no encryption
				}
				fd, _ := f.Resolve(cf.Vals[i]).(*cos.Dict)
				switch f.Resolve(fd.Get("CFM")) {
				case cos.Name("V2"):
					d.named[name] = methodRC4
				case cos.Name("AESV2"):
					d.named[name] = methodAESV2
				case cos.Name("AESV3"):
					d.named[name] = methodAESV3
				default:
					d.named[name] = methodNone
				}
			}
		}
		pick := func(key cos.Name, def method) (method, string) {
			n, ok := f.Resolve(enc.Get(key)).(cos.Name)
			if !ok {
				return def, "Identity"
			}
			m, known := d.named[n]
			if !known {
				return methodNone, string(n)
			}
			return m, string(n)
		}
		d.stm, s.StmF = pick("StmF", methodNone)
		d.str, s.StrF = pick("StrF", methodNone)
		d.eff, _ = pick("EFF", d.stm)
		s.StreamMethod, s.StringMethod = d.stm.String(), d.str.String()
		return keyLen, true
	default:
		return 0, false
	}
	d.eff = d.stm
	s.StreamMethod, s.StringMethod = d.stm.String(), d.str.String()
	return keyLen, true
}

// standardKey derives the file key with the empty password, tried as the
// user password and then as the owner password, or returns why it cannot.
func (f *File) standardKey(enc *cos.Dict, s *Security, keyLen int) (key []byte, as, reason string) {
	o := f.stringOf(enc.Get("O"))
	u := f.stringOf(enc.Get("U"))
	switch {
	case s.R >= 2 && s.R <= 4:
		if len(o) < 32 || len(u) < 32 {
			return nil, "", ReasonMalformed
		}
		p, ok := cos.AsInt(f.Resolve(enc.Get("P")))
		if !ok {
			return nil, "", ReasonMalformed
		}
		var id0 []byte
		if id, ok := f.Resolve(f.Trailer().Get("ID")).(cos.Array); ok && len(id) > 0 {
			id0 = f.stringOf(id[0])
		}
		key := legacyKey(padding, o[:32], uint32(p), id0, s.R, keyLen, s.EncryptMetadata)
		if legacyUserOK(key, u[:32], id0, s.R) {
			return key, "user", ""
		}
		// Algorithm 7: the empty owner password deciphers /O into the
		// padded user password.
		key = legacyKey(legacyOwnerUser(o[:32], s.R, keyLen), o[:32], uint32(p), id0, s.R, keyLen, s.EncryptMetadata)
		if legacyUserOK(key, u[:32], id0, s.R) {
			return key, "owner", ""
		}
		return nil, "", ReasonPassword
	case s.R == 5 || s.R == 6:
		ue := f.stringOf(enc.Get("UE"))
		oe := f.stringOf(enc.Get("OE"))
		if len(u) < 48 || len(ue) < 32 {
			return nil, "", ReasonMalformed
		}
		hashFn := hashR6
		if s.R == 5 {
			hashFn = hashR5
		}
		switch {
		case bytes.Equal(hashFn(u[32:40], nil), u[:32]):
			return aesKey(hashFn(u[40:48], nil), ue[:32]), "user", ""
		case len(o) >= 48 && len(oe) >= 32 && bytes.Equal(hashFn(o[32:40], u[:48]), o[:32]):
			return aesKey(hashFn(o[40:48], u[:48]), oe[:32]), "owner", ""
		}
		return nil, "", ReasonPassword
	}
	return nil, "", ReasonUnsupported
}

// aesKey deciphers /UE or /OE (AES-256, zero IV, no padding) into the
// file key.
func aesKey(intermediate, wrapped []byte) []byte {
	block, _ := aes.NewCipher(intermediate) // 32 bytes: never fails
	key := make([]byte, 32)
	cipher.NewCBCDecrypter(block, make([]byte, 16)).CryptBlocks(key, wrapped)
	return key
}

// legacyOwnerUser is Algorithm 7 for the empty owner password: the padded
// user password that /O holds.
func legacyOwnerUser(o []byte, r, keyLen int) []byte {
	sum := md5.Sum(padding)
	k := sum[:]
	if r >= 3 {
		for range 50 {
			s := md5.Sum(k)
			k = s[:]
		}
	}
	k = k[:keyLen]
	out := bytes.Clone(o)
	if r == 2 {
		c, _ := rc4.NewCipher(k)
		c.XORKeyStream(out, out)
		return out
	}
	x := make([]byte, len(k))
	for i := 19; i >= 0; i-- {
		for j := range k {
			x[j] = k[j] ^ byte(i)
		}
		c, _ := rc4.NewCipher(x)
		c.XORKeyStream(out, out)
	}
	return out
}

// legacyKey is Algorithm 2 for a padded password.
func legacyKey(padded, o []byte, p uint32, id0 []byte, r, keyLen int, encryptMetadata bool) []byte {
	h := md5.New()
	h.Write(padded)
	h.Write(o)
	var pb [4]byte
	binary.LittleEndian.PutUint32(pb[:], p)
	h.Write(pb[:])
	h.Write(id0)
	if r >= 4 && !encryptMetadata {
		h.Write([]byte{0xFF, 0xFF, 0xFF, 0xFF})
	}
	sum := h.Sum(nil)
	if r >= 3 {
		for range 50 {
			s := md5.Sum(sum[:keyLen])
			sum = s[:]
		}
	}
	return sum[:keyLen]
}

// legacyUserOK is Algorithms 4 and 5: does key reproduce /U?
func legacyUserOK(key, u, id0 []byte, r int) bool {
	if r == 2 {
		out := make([]byte, 32)
		c, _ := rc4.NewCipher(key)
		c.XORKeyStream(out, padding)
		return bytes.Equal(out, u)
	}
	h := md5.New()
	h.Write(padding)
	h.Write(id0)
	x := h.Sum(nil)
	k := make([]byte, len(key))
	for i := range 20 {
		for j := range key {
			k[j] = key[j] ^ byte(i)
		}
		c, _ := rc4.NewCipher(k)
		c.XORKeyStream(x, x)
	}
	return bytes.Equal(x, u[:16])
}

// hashR5 is the revision 5 (Adobe extension level 3) hash of the empty
// password with a salt and, for the owner password, /U.
func hashR5(salt, udata []byte) []byte {
	s := sha256.Sum256(append(bytes.Clone(salt), udata...))
	return s[:]
}

// hashR6 is Algorithm 2.B for the empty password, with a salt and, for the
// owner password, /U.
func hashR6(salt, udata []byte) []byte {
	k0 := sha256.Sum256(append(bytes.Clone(salt), udata...))
	k := k0[:]
	e := make([]byte, 0, 64*(64+48))
	for round := 0; ; round++ {
		// K1 is the password, K and the user data repeated 64 times; the
		// password is empty.
		k1 := bytes.Repeat(append(bytes.Clone(k), udata...), 64)
		block, _ := aes.NewCipher(k[:16])
		e = e[:len(k1)]
		cipher.NewCBCEncrypter(block, k[16:32]).CryptBlocks(e, k1)
		sum := 0
		for _, c := range e[:16] {
			sum += int(c)
		}
		var h hash.Hash
		switch sum % 3 {
		case 0:
			h = sha256.New()
		case 1:
			h = sha512.New384()
		default:
			h = sha512.New()
		}
		h.Write(e)
		k = h.Sum(nil)
		if round >= 63 && int(e[len(e)-1]) <= round+1-32 {
			break
		}
	}
	return k[:32]
}

// objectKey is Algorithm 1's per-object key (revisions 2 to 4); AES-256
// uses the file key itself.
func (d *decrypter) objectKey(m method, num, gen int) []byte {
	if m == methodAESV3 {
		return d.key
	}
	h := md5.New()
	h.Write(d.key)
	h.Write([]byte{byte(num), byte(num >> 8), byte(num >> 16), byte(gen), byte(gen >> 8)})
	if m == methodAESV2 {
		h.Write([]byte("sAlT"))
	}
	return h.Sum(nil)[:min(len(d.key)+5, 16)]
}

// decipher returns data deciphered with method m for object num gen. It
// never fails: damaged ciphertext gives what can be recovered.
func (d *decrypter) decipher(m method, data []byte, num, gen int) []byte {
	switch m {
	case methodRC4:
		c, err := rc4.NewCipher(d.objectKey(m, num, gen))
		if err != nil {
			return nil
		}
		out := make([]byte, len(data))
		c.XORKeyStream(out, data)
		return out
	case methodAESV2, methodAESV3:
		return aesDecrypt(d.objectKey(m, num, gen), data)
	}
	return data
}

// aesDecrypt deciphers CBC data whose first block is the IV and removes
// the PKCS#5 padding. A ragged tail is dropped, as readers do.
func aesDecrypt(key, data []byte) []byte {
	if len(data) < 32 {
		return nil // an IV and no block: the empty string
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil
	}
	body := data[16 : 16+(len(data)-16)/16*16]
	out := make([]byte, len(body))
	cipher.NewCBCDecrypter(block, data[:16]).CryptBlocks(out, body)
	if n := int(out[len(out)-1]); n >= 1 && n <= 16 && n <= len(out) {
		pad := true
		for _, c := range out[len(out)-n:] {
			pad = pad && int(c) == n
		}
		if pad {
			out = out[:len(out)-n]
		}
	}
	return out
}

// object deciphers the strings of an object read at its own offset, and
// sets the stream's decryption; the object's number and generation salt
// its key. Strings are copied, never changed in place: they may alias the
// file's bytes.
func (d *decrypter) object(o cos.Object, num, gen int) cos.Object {
	if num == d.encNum {
		return o
	}
	if st, ok := o.(*cos.Stream); ok {
		m := d.streamMethod(st.Dict)
		if m != methodNone {
			st.SetDecrypt(func(b []byte) []byte { return d.decipher(m, b, num, gen) })
		}
		if st.Dict.Name("Type") == "XRef" {
			return o // cross-reference streams are never encrypted
		}
		d.strings(st.Dict, num, gen, 0)
		return o
	}
	return d.strings(o, num, gen, 0)
}

// streamMethod picks a stream's cipher: none for cross-reference streams
// and for metadata left in clear, the crypt filter a /Crypt filter names,
// the embedded-file filter, or the default.
func (d *decrypter) streamMethod(dict *cos.Dict) method {
	typ := dict.Name("Type")
	switch {
	case typ == "XRef":
		return methodNone
	case typ == "Metadata" && !d.metadata:
		return methodNone
	}
	if name, ok := cryptFilterName(dict); ok {
		if m, known := d.named[name]; known {
			return m
		}
		return methodNone
	}
	if typ == "EmbeddedFile" {
		return d.eff
	}
	return d.stm
}

// cryptFilterName returns the crypt filter a stream names with a leading
// /Crypt filter (its /Name, Identity by default).
func cryptFilterName(dict *cos.Dict) (cos.Name, bool) {
	var first cos.Object = dict.Get("Filter")
	var parms cos.Object = dict.Get("DecodeParms")
	if a, ok := first.(cos.Array); ok {
		if len(a) == 0 {
			return "", false
		}
		first = a[0]
		if pa, ok := parms.(cos.Array); ok && len(pa) > 0 {
			parms = pa[0]
		} else {
			parms = nil
		}
	}
	if n, _ := first.(cos.Name); n != "Crypt" {
		return "", false
	}
	if pd, ok := parms.(*cos.Dict); ok {
		if n := pd.Name("Name"); n != "" {
			return n, true
		}
	}
	return "Identity", true
}

// maxCryptDepth bounds the walk through nested arrays and dictionaries.
const maxCryptDepth = 64

// strings returns o with every string deciphered. A signature dictionary's
// /Contents is stored in clear (it is signed as written) and kept.
func (d *decrypter) strings(o cos.Object, num, gen, depth int) cos.Object {
	if depth > maxCryptDepth || d.str == methodNone {
		return o
	}
	switch v := o.(type) {
	case cos.String:
		return cos.String{Bytes: d.decipher(d.str, v.Bytes, num, gen), Hex: v.Hex}
	case cos.Array:
		for i, e := range v {
			v[i] = d.strings(e, num, gen, depth+1)
		}
	case *cos.Dict:
		sig := v.Has("ByteRange") || v.Name("Type") == "Sig" || v.Name("Type") == "DocTimeStamp"
		for i, e := range v.Vals {
			if sig && v.Keys[i] == "Contents" {
				continue
			}
			v.Vals[i] = d.strings(e, num, gen, depth+1)
		}
	}
	return o
}
