package office

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"encoding/xml"
	"hash"
	"strconv"
	"unicode/utf16"

	"github.com/doctrust/doctrust/engine/internal/cfb"
)

// Excel encrypts a workbook with a built-in password when the author asks
// for a read-only recommendation or protection without a password of their
// own; every Office application opens such a file without asking. An
// encrypted OOXML package ([MS-OFFCRYPTO] 2.3.4.5 standard and 2.3.4.10
// agile encryption) is tried with that password only, in memory; a file
// with a real password stays encrypted and is reported as before.

// DefaultPassword is Excel's built-in encryption password.
const DefaultPassword = "VelvetSweatshop"

// Limits of the decryptor: the spin count a file may ask for (Office
// writes 100 000; each round is one hash, so the cap bounds the CPU a
// hostile file can claim) and the package it may unwrap.
const (
	maxSpinCount      = 200_000
	maxDecryptedBytes = 256 << 20
)

// DecryptDefault returns the decrypted package of an encrypted OOXML
// compound file when the default password opens it; nil otherwise. The
// bytes stay in memory.
func DecryptDefault(data []byte, budget int64) []byte {
	return decryptPackage(data, DefaultPassword, budget)
}

func decryptDefault(data []byte, budget int64) []byte { return DecryptDefault(data, budget) }

// decryptPackage tries one password. The engine only ever passes the
// default password; tests pass the corpus files' known ones to check the
// two algorithms on files Office wrote.
func decryptPackage(data []byte, password string, budget int64) []byte {
	f := cfb.Open(data, max(budget, int64(len(data))))
	if f == nil {
		return nil
	}
	info := f.Read(f.Lookup("EncryptionInfo"), 1<<20)
	pkgEntry := f.Lookup("EncryptedPackage")
	if len(info) < 8 || pkgEntry == nil {
		return nil
	}
	major := binary.LittleEndian.Uint16(info)
	minor := binary.LittleEndian.Uint16(info[2:])
	enc := f.Read(pkgEntry, maxDecryptedBytes+8)
	if len(enc) < 8 {
		return nil
	}
	size := binary.LittleEndian.Uint64(enc)
	if size > uint64(len(enc)-8) || size > maxDecryptedBytes {
		return nil
	}
	var out []byte
	switch {
	case major == 4 && minor == 4:
		out = decryptAgile(info[8:], enc[8:], password)
	case (major == 3 || major == 4) && minor == 2:
		out = decryptStandard(info[8:], enc[8:], password)
	}
	if uint64(len(out)) < size {
		return nil
	}
	return out[:size]
}

func utf16Password(p string) []byte {
	u := utf16.Encode([]rune(p))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		binary.LittleEndian.PutUint16(b[2*i:], c)
	}
	return b
}

// ---------------------------------------------------------------- standard

// decryptStandard handles ECMA-376 standard encryption: AES-ECB with a key
// derived by 50 000 SHA-1 rounds.
func decryptStandard(info, data []byte, password string) []byte {
	if len(info) < 4 {
		return nil
	}
	hdrSize := int(binary.LittleEndian.Uint32(info))
	if hdrSize < 32 || 4+hdrSize > len(info) {
		return nil
	}
	hdr := info[4 : 4+hdrSize]
	algID := binary.LittleEndian.Uint32(hdr[8:])
	keyBits := int(binary.LittleEndian.Uint32(hdr[16:]))
	if algID != 0x660E && algID != 0x660F && algID != 0x6610 {
		return nil // not AES
	}
	if keyBits != 128 && keyBits != 192 && keyBits != 256 {
		return nil
	}
	v := info[4+hdrSize:]
	if len(v) < 4+16+16+4+32 {
		return nil
	}
	saltSize := int(binary.LittleEndian.Uint32(v))
	if saltSize != 16 {
		return nil
	}
	salt := v[4:20]
	encVerifier := v[20:36]
	encHash := v[40:72]

	h := sha1.Sum(append(append([]byte{}, salt...), utf16Password(password)...))
	buf := make([]byte, 4+20)
	cur := h[:]
	for i := 0; i < 50000; i++ {
		binary.LittleEndian.PutUint32(buf, uint32(i))
		copy(buf[4:], cur)
		s := sha1.Sum(buf)
		cur = s[:]
	}
	final := sha1.Sum(append(append([]byte{}, cur...), 0, 0, 0, 0))
	var b1, b2 [64]byte
	for i := range b1 {
		b1[i], b2[i] = 0x36, 0x5C
	}
	for i := 0; i < 20; i++ {
		b1[i] ^= final[i]
		b2[i] ^= final[i]
	}
	x1, x2 := sha1.Sum(b1[:]), sha1.Sum(b2[:])
	key := append(x1[:], x2[:]...)[:keyBits/8]
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil
	}
	verifier := ecbDecrypt(block, encVerifier)
	vh := ecbDecrypt(block, encHash)
	want := sha1.Sum(verifier)
	if !bytes.Equal(want[:], vh[:20]) {
		return nil
	}
	return ecbDecrypt(block, data[:len(data)/16*16])
}

func ecbDecrypt(b cipher.Block, in []byte) []byte {
	out := make([]byte, len(in)/b.BlockSize()*b.BlockSize())
	for i := 0; i < len(out); i += b.BlockSize() {
		b.Decrypt(out[i:], in[i:])
	}
	return out
}

// ---------------------------------------------------------------- agile

// agileParams are the attributes of keyData or of the password key
// encryptor.
type agileParams struct {
	SaltSize        int    `xml:"saltSize,attr"`
	BlockSize       int    `xml:"blockSize,attr"`
	KeyBits         int    `xml:"keyBits,attr"`
	HashSize        int    `xml:"hashSize,attr"`
	CipherAlgorithm string `xml:"cipherAlgorithm,attr"`
	CipherChaining  string `xml:"cipherChaining,attr"`
	HashAlgorithm   string `xml:"hashAlgorithm,attr"`
	SaltValue       string `xml:"saltValue,attr"`
	SpinCount       string `xml:"spinCount,attr"`
	VerifierInput   string `xml:"encryptedVerifierHashInput,attr"`
	VerifierValue   string `xml:"encryptedVerifierHashValue,attr"`
	KeyValue        string `xml:"encryptedKeyValue,attr"`
}

type agileInfo struct {
	KeyData       agileParams `xml:"keyData"`
	KeyEncryptors struct {
		List []struct {
			URI string      `xml:"uri,attr"`
			Key agileParams `xml:"encryptedKey"`
		} `xml:"keyEncryptor"`
	} `xml:"keyEncryptors"`
}

func agileHash(name string) func() hash.Hash {
	switch name {
	case "SHA1":
		return sha1.New
	case "SHA256":
		return sha256.New
	case "SHA384":
		return sha512.New384
	case "SHA512":
		return sha512.New
	}
	return nil
}

var (
	blockVerifierInput = []byte{0xFE, 0xA7, 0xD2, 0x76, 0x3B, 0x4B, 0x9E, 0x79}
	blockVerifierValue = []byte{0xD7, 0xAA, 0x0F, 0x6D, 0x30, 0x61, 0x34, 0x4E}
	blockKeyValue      = []byte{0x14, 0x6E, 0x0B, 0xE7, 0xAB, 0xAC, 0xD0, 0xD6}
)

// decryptAgile handles agile encryption with the password key encryptor:
// AES-CBC, the key derived by spinCount rounds of the declared hash.
func decryptAgile(xmlInfo, data []byte, password string) []byte {
	var info agileInfo
	if err := xml.Unmarshal(xmlInfo, &info); err != nil {
		return nil
	}
	kd := info.KeyData
	var pe *agileParams
	for i := range info.KeyEncryptors.List {
		if k := &info.KeyEncryptors.List[i]; k.Key.VerifierInput != "" {
			pe = &k.Key
			break
		}
	}
	if pe == nil || pe.CipherAlgorithm != "AES" || kd.CipherAlgorithm != "AES" || pe.CipherChaining != "ChainingModeCBC" || kd.CipherChaining != "ChainingModeCBC" {
		return nil
	}
	newHash := agileHash(pe.HashAlgorithm)
	dataHash := agileHash(kd.HashAlgorithm)
	spin, err := strconv.Atoi(pe.SpinCount)
	if newHash == nil || dataHash == nil || err != nil || spin < 0 || spin > maxSpinCount {
		return nil
	}
	salt, e1 := base64.StdEncoding.DecodeString(pe.SaltValue)
	vIn, e2 := base64.StdEncoding.DecodeString(pe.VerifierInput)
	vVal, e3 := base64.StdEncoding.DecodeString(pe.VerifierValue)
	kVal, e4 := base64.StdEncoding.DecodeString(pe.KeyValue)
	dSalt, e5 := base64.StdEncoding.DecodeString(kd.SaltValue)
	if e1 != nil || e2 != nil || e3 != nil || e4 != nil || e5 != nil || len(salt) != 16 || len(dSalt) != 16 {
		return nil
	}
	if pe.KeyBits != 128 && pe.KeyBits != 192 && pe.KeyBits != 256 || kd.KeyBits != 128 && kd.KeyBits != 192 && kd.KeyBits != 256 {
		return nil
	}
	h := newHash()
	h.Write(salt)
	h.Write(utf16Password(password))
	cur := h.Sum(nil)
	var it [4]byte
	for i := 0; i < spin; i++ {
		binary.LittleEndian.PutUint32(it[:], uint32(i))
		h.Reset()
		h.Write(it[:])
		h.Write(cur)
		cur = h.Sum(cur[:0])
	}
	derive := func(blockKey []byte) []byte {
		h.Reset()
		h.Write(cur)
		h.Write(blockKey)
		k := h.Sum(nil)
		for len(k) < pe.KeyBits/8 {
			k = append(k, 0x36)
		}
		return k[:pe.KeyBits/8]
	}
	cbc := func(key, iv, in []byte) []byte {
		b, err := aes.NewCipher(key)
		if err != nil || len(in)%16 != 0 || len(in) == 0 {
			return nil
		}
		out := make([]byte, len(in))
		cipher.NewCBCDecrypter(b, iv[:16]).CryptBlocks(out, in)
		return out
	}
	input := cbc(derive(blockVerifierInput), salt, vIn)
	value := cbc(derive(blockVerifierValue), salt, vVal)
	if input == nil || value == nil {
		return nil
	}
	h.Reset()
	h.Write(input[:min(len(input), pe.SaltSize)])
	if got := h.Sum(nil); len(value) < len(got) || !bytes.Equal(got, value[:len(got)]) {
		return nil
	}
	secret := cbc(derive(blockKeyValue), salt, kVal)
	if len(secret) < kd.KeyBits/8 {
		return nil
	}
	secret = secret[:kd.KeyBits/8]
	block, err := aes.NewCipher(secret)
	if err != nil {
		return nil
	}
	out := make([]byte, 0, len(data))
	dh := dataHash()
	for seg := 0; seg*4096 < len(data); seg++ {
		chunk := data[seg*4096 : min(len(data), seg*4096+4096)]
		chunk = chunk[:len(chunk)/16*16]
		if len(chunk) == 0 {
			break
		}
		dh.Reset()
		dh.Write(dSalt)
		binary.LittleEndian.PutUint32(it[:], uint32(seg))
		dh.Write(it[:])
		iv := dh.Sum(nil)
		for len(iv) < 16 {
			iv = append(iv, 0x36)
		}
		plain := make([]byte, len(chunk))
		cipher.NewCBCDecrypter(block, iv[:16]).CryptBlocks(plain, chunk)
		out = append(out, plain...)
	}
	return out
}
