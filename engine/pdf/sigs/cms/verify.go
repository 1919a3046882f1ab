package cms

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/md5"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"crypto/x509"
	"encoding/asn1"
	"hash"
	"math/big"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// Verdict is the outcome of an integrity check, as reports name it.
type Verdict string

const (
	Verified         Verdict = "verified"
	DigestMismatch   Verdict = "digest-mismatch"
	SignatureInvalid Verdict = "signature-invalid"
	Unsupported      Verdict = "unsupported-algorithm"
	Unreadable       Verdict = "unreadable"
)

// Reasons an integrity check gives for a verdict other than verified: a
// closed vocabulary, safe to show in messages.
const (
	ReasonMalformed        = "cms-malformed"
	ReasonNoMessageDigest  = "no-message-digest"
	ReasonNoCertificate    = "signer-certificate-not-embedded"
	ReasonDigestAlgorithm  = "digest-algorithm"
	ReasonSignatureAlg     = "signature-algorithm"
	ReasonPublicKey        = "public-key"
	ReasonContentType      = "content-type"
	ReasonEncapsulated     = "encapsulated-digest"
	ReasonMessageDigest    = "message-digest"
	ReasonImprint          = "message-imprint"
	ReasonEContent         = "encapsulated-content"
	ReasonSignatureValue   = "signature-value"
	ReasonEncapsulatedData = "content-not-the-signed-range"
)

// Reasons lists the reason vocabulary.
func Reasons() []string {
	return []string{ReasonMalformed, ReasonNoMessageDigest, ReasonNoCertificate, ReasonDigestAlgorithm,
		ReasonSignatureAlg, ReasonPublicKey, ReasonContentType, ReasonEncapsulated, ReasonMessageDigest,
		ReasonImprint, ReasonEContent, ReasonSignatureValue, ReasonEncapsulatedData}
}

// Result is an integrity check's verdict and the facts read on the way.
type Result struct {
	Verdict Verdict
	// Reason says which part failed or could not be checked.
	Reason string
	// Signer is the certificate whose key was used (or would have been);
	// nil when none was found.
	Signer    *Certificate
	DigestAlg string // "sha256"; the OID in dotted form when unknown
	KeyType   string // "rsa", "ecdsa", "ed25519", "" when unknown
	KeyBits   int
	// SigningTime is the signed signingTime attribute, or a timestamp
	// token's genTime; zero when neither is there.
	SigningTime time.Time
	// Signature is the signer's signature value, which a signature
	// timestamp stamps.
	Signature []byte
	// Token is the signer's unsigned signature-timestamp token, nil when
	// absent.
	Token []byte
}

// Mode is what the signed content is.
type Mode int

const (
	// Detached: the messageDigest is the digest of the content itself
	// (adbe.pkcs7.detached, ETSI.CAdES.detached).
	Detached Mode = iota
	// SHA1Encapsulated: the encapsulated content is the SHA-1 digest of
	// the content (adbe.pkcs7.sha1).
	SHA1Encapsulated
	// Timestamp: an RFC 3161 token whose message imprint is the digest of
	// the content (ETSI.RFC3161, and signature timestamps).
	Timestamp
)

// Check verifies the first signer of sd over content, the concatenation
// of the given parts.
func Check(sd *SignedData, mode Mode, content ...[]byte) Result {
	si := sd.Signers[0]
	r := Result{Signature: si.Signature, Token: si.TimestampToken()}
	r.SigningTime, _ = si.SigningTime()
	h, name := hashOf(si.DigestAlg.OID)
	r.DigestAlg = name
	r.Signer = sd.signerCert(si)
	if r.Signer != nil {
		r.KeyType, r.KeyBits = keyFacts(r.Signer)
	}
	if h == 0 {
		return r.fail(Unsupported, ReasonDigestAlgorithm)
	}
	var signed []byte // what the messageDigest must be
	switch mode {
	case Detached:
		switch {
		case sd.HasContent && len(sd.Content) > 0 && !sameBytes(sd.Content, content):
			// The signature is over other bytes than the signed range.
			return r.fail(DigestMismatch, ReasonEncapsulatedData)
		default:
			signed = digest(h, content...)
		}
	case SHA1Encapsulated:
		if !sd.HasContent {
			return r.fail(Unreadable, ReasonEncapsulated)
		}
		if !bytes.Equal(digest(crypto.SHA1, content...), encapsulatedDigest(sd.Content)) {
			return r.fail(DigestMismatch, ReasonEncapsulated)
		}
		signed = digest(h, sd.Content)
	case Timestamp:
		if !sd.ContentType.Equal(oidTSTInfo) {
			return r.fail(Unreadable, ReasonContentType)
		}
		tst, err := sd.ParseTSTInfo()
		if err != nil {
			return r.fail(Unreadable, ReasonEContent)
		}
		r.SigningTime = tst.GenTime
		ih, _ := hashOf(tst.ImprintAlg.OID)
		if ih == 0 {
			return r.fail(Unsupported, ReasonDigestAlgorithm)
		}
		if !bytes.Equal(digest(ih, content...), tst.Imprint) {
			return r.fail(DigestMismatch, ReasonImprint)
		}
		signed = digest(h, sd.Content)
	}
	msg, pre := []byte(nil), signed
	if si.SignedAttrs != nil {
		md := si.MessageDigest()
		if md == nil {
			return r.fail(Unreadable, ReasonNoMessageDigest)
		}
		if !bytes.Equal(md, signed) {
			return r.fail(DigestMismatch, ReasonMessageDigest)
		}
		msg, pre = si.SignedAttrs, nil
	}
	if r.Signer != nil {
		if v, reason := verifyWith(r.Signer, si, h, msg, pre); v != Verified {
			return r.fail(v, reason)
		}
		r.Verdict = Verified
		return r
	}
	// No certificate names the signer: one whose key verifies the
	// signature still identifies it.
	for _, c := range sd.Certs {
		if v, _ := verifyWith(c, si, h, msg, pre); v == Verified {
			r.Signer = c
			r.KeyType, r.KeyBits = keyFacts(c)
			r.Verdict = Verified
			return r
		}
	}
	return r.fail(Unreadable, ReasonNoCertificate)
}

func (r Result) fail(v Verdict, reason string) Result {
	r.Verdict, r.Reason = v, reason
	return r
}

// sameBytes reports whether b is the concatenation of parts.
func sameBytes(b []byte, parts [][]byte) bool {
	for _, p := range parts {
		if len(b) < len(p) || !bytes.Equal(b[:len(p)], p) {
			return false
		}
		b = b[len(p):]
	}
	return len(b) == 0
}

// encapsulatedDigest is adbe.pkcs7.sha1's encapsulated content: the
// digest, usually itself wrapped in an OCTET STRING.
func encapsulatedDigest(c []byte) []byte {
	s := cryptobyte.String(c)
	var d cryptobyte.String
	if s.ReadASN1(&d, cbasn1.OCTET_STRING) && s.Empty() {
		return d
	}
	return c
}

// signerCert finds the certificate the signer identifier names: by issuer
// and serial, or by serial alone when the issuer was re-encoded.
func (sd *SignedData) signerCert(si *SignerInfo) *Certificate {
	var bySerial *Certificate
	n := 0
	for _, c := range sd.Certs {
		if c.matches(si) {
			return c
		}
		if si.Serial != nil && bytes.Equal(trimSerial(c.RawSerial), trimSerial(si.Serial)) {
			bySerial = c
			n++
		}
	}
	if n == 1 {
		return bySerial
	}
	return nil
}

// verifyWith checks the signer's signature with c's key over msg (the
// signed attributes) or, without signed attributes, over the content
// digest pre.
func verifyWith(c *Certificate, si *SignerInfo, digestHash crypto.Hash, msg, pre []byte) (Verdict, string) {
	pub, err := x509.ParsePKIXPublicKey(c.SPKI)
	if err != nil {
		return Unsupported, ReasonPublicKey
	}
	scheme, sh := signatureScheme(si.SigAlg.OID)
	if sh == 0 {
		sh = digestHash
	}
	hashed := func(h crypto.Hash) []byte {
		if msg == nil {
			if h != digestHash {
				return nil
			}
			return pre
		}
		return digest(h, msg)
	}
	// Without signed attributes a signature over other content reads as
	// a digest mismatch: the signature itself is sound.
	bad := SignatureInvalid
	if msg == nil {
		bad = DigestMismatch
	}
	switch scheme {
	case schemeRSA:
		k, ok := pub.(*rsa.PublicKey)
		if !ok {
			return SignatureInvalid, ReasonPublicKey
		}
		if k.N.BitLen() > maxRSABits {
			return Unsupported, ReasonPublicKey
		}
		alg, d, ok := recoverPKCS1(k, si.Signature)
		if !ok {
			return SignatureInvalid, ReasonSignatureValue
		}
		h := sh
		if alg != nil {
			if h, _ = hashOf(alg); h == 0 {
				return Unsupported, ReasonDigestAlgorithm
			}
		}
		want := hashed(h)
		if want == nil || !bytes.Equal(d, want) {
			return bad, ReasonSignatureValue
		}
		return Verified, ""
	case schemePSS:
		k, ok := pub.(*rsa.PublicKey)
		if !ok {
			return SignatureInvalid, ReasonPublicKey
		}
		h, salt, ok := pssParams(si.SigAlg.Params)
		if !ok || k.N.BitLen() < 1024 || k.N.BitLen() > maxRSABits {
			return Unsupported, ReasonSignatureAlg
		}
		want := hashed(h)
		if want == nil {
			return Unsupported, ReasonSignatureAlg
		}
		if rsa.VerifyPSS(k, h, want, si.Signature, &rsa.PSSOptions{SaltLength: salt, Hash: h}) != nil {
			return bad, ReasonSignatureValue
		}
		return Verified, ""
	case schemeECDSA, schemePlainECDSA:
		k, ok := pub.(*ecdsa.PublicKey)
		if !ok {
			return SignatureInvalid, ReasonPublicKey
		}
		want := hashed(sh)
		if want == nil {
			return Unsupported, ReasonSignatureAlg
		}
		sig := si.Signature
		if scheme == schemePlainECDSA {
			if sig = plainToASN1(sig); sig == nil {
				return SignatureInvalid, ReasonSignatureValue
			}
		}
		if !ecdsa.VerifyASN1(k, want, sig) {
			return bad, ReasonSignatureValue
		}
		return Verified, ""
	case schemeEd25519:
		k, ok := pub.(ed25519.PublicKey)
		if !ok {
			return SignatureInvalid, ReasonPublicKey
		}
		if msg == nil {
			// Pure Ed25519 over the whole document: not a form PDF
			// signers write (RFC 8419 signs the attributes).
			return Unsupported, ReasonSignatureAlg
		}
		if !ed25519.Verify(k, msg, si.Signature) {
			return SignatureInvalid, ReasonSignatureValue
		}
		return Verified, ""
	}
	return Unsupported, ReasonSignatureAlg
}

// maxRSABits bounds the RSA moduli used: larger ones are no real signer's
// and would only cost time.
const maxRSABits = 16384

// recoverPKCS1 applies the RSA public key to sig and reads the PKCS #1
// v1.5 encoded message: the DigestInfo's algorithm and digest (alg nil when
// the digest is bare, as some old signers wrote it).
func recoverPKCS1(k *rsa.PublicKey, sig []byte) (alg asn1.ObjectIdentifier, d []byte, ok bool) {
	size := (k.N.BitLen() + 7) / 8
	if len(sig) > size || k.E < 2 {
		return nil, nil, false
	}
	s := new(big.Int).SetBytes(sig)
	if s.Cmp(k.N) >= 0 {
		return nil, nil, false
	}
	em := new(big.Int).Exp(s, big.NewInt(int64(k.E)), k.N).FillBytes(make([]byte, size))
	if len(em) < 11 || em[0] != 0 || em[1] != 1 {
		return nil, nil, false
	}
	i := 2
	for i < len(em) && em[i] == 0xff {
		i++
	}
	if i < 10 || i >= len(em) || em[i] != 0 {
		return nil, nil, false
	}
	t := cryptobyte.String(em[i+1:])
	var di, oct cryptobyte.String
	if t.ReadASN1(&di, cbasn1.SEQUENCE) && t.Empty() {
		a, ok := readAlgorithm(&di)
		if ok && di.ReadASN1(&oct, cbasn1.OCTET_STRING) && di.Empty() {
			return a.OID, oct, true
		}
		return nil, nil, false
	}
	return nil, em[i+1:], true
}

// plainToASN1 turns a BSI plain ECDSA signature (r||s) into the ASN.1
// form crypto/ecdsa reads.
func plainToASN1(sig []byte) []byte {
	if len(sig) == 0 || len(sig)%2 != 0 {
		return nil
	}
	r := new(big.Int).SetBytes(sig[:len(sig)/2])
	s := new(big.Int).SetBytes(sig[len(sig)/2:])
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1BigInt(r)
		b.AddASN1BigInt(s)
	})
	out, err := b.Bytes()
	if err != nil {
		return nil
	}
	return out
}

// pssParams reads RSASSA-PSS-params: the hash (MGF1 must use the same, as
// crypto/rsa requires) and the salt length, with RFC 4055's defaults.
func pssParams(p []byte) (crypto.Hash, int, bool) {
	h, salt := crypto.SHA1, 20
	if p == nil {
		return h, salt, true
	}
	s := cryptobyte.String(p)
	var seq cryptobyte.String
	if !s.ReadASN1(&seq, cbasn1.SEQUENCE) {
		return 0, 0, false
	}
	var el cryptobyte.String
	var present bool
	if !seq.ReadOptionalASN1(&el, &present, cbasn1.Tag(0).Constructed().ContextSpecific()) {
		return 0, 0, false
	}
	if present {
		a, ok := readAlgorithm(&el)
		if !ok {
			return 0, 0, false
		}
		if h, _ = hashOf(a.OID); h == 0 {
			return 0, 0, false
		}
	}
	if !seq.ReadOptionalASN1(&el, &present, cbasn1.Tag(1).Constructed().ContextSpecific()) {
		return 0, 0, false
	}
	mgfHash := crypto.SHA1
	if present {
		mgf, ok := readAlgorithm(&el)
		if !ok || !mgf.OID.Equal(oidMGF1) || mgf.Params == nil {
			return 0, 0, false
		}
		ps := cryptobyte.String(mgf.Params)
		a, ok := readAlgorithm(&ps)
		if !ok {
			return 0, 0, false
		}
		if mgfHash, _ = hashOf(a.OID); mgfHash == 0 {
			return 0, 0, false
		}
	}
	if mgfHash != h {
		return 0, 0, false
	}
	if !seq.ReadOptionalASN1(&el, &present, cbasn1.Tag(2).Constructed().ContextSpecific()) {
		return 0, 0, false
	}
	if present {
		var n int64
		if !el.ReadASN1Integer(&n) || n < 0 || n > 1<<16 {
			return 0, 0, false
		}
		salt = int(n)
	}
	return h, salt, true
}

var oidMGF1 = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 8}

type scheme int

const (
	schemeUnknown scheme = iota
	schemeRSA
	schemePSS
	schemeECDSA
	schemePlainECDSA
	schemeEd25519
)

// signatureScheme maps a signature algorithm to its scheme and, when the
// algorithm names one, its hash (0: the signer's digest algorithm).
func signatureScheme(oid asn1.ObjectIdentifier) (scheme, crypto.Hash) {
	s := oid.String()
	switch s {
	case "1.2.840.113549.1.1.1":
		return schemeRSA, 0
	case "1.2.840.113549.1.1.4":
		return schemeRSA, crypto.MD5
	case "1.2.840.113549.1.1.5", "1.3.14.3.2.29":
		return schemeRSA, crypto.SHA1
	case "1.2.840.113549.1.1.14":
		return schemeRSA, crypto.SHA224
	case "1.2.840.113549.1.1.11":
		return schemeRSA, crypto.SHA256
	case "1.2.840.113549.1.1.12":
		return schemeRSA, crypto.SHA384
	case "1.2.840.113549.1.1.13":
		return schemeRSA, crypto.SHA512
	case "1.2.840.113549.1.1.10":
		return schemePSS, 0
	case "1.2.840.10045.2.1":
		return schemeECDSA, 0
	case "1.2.840.10045.4.1":
		return schemeECDSA, crypto.SHA1
	case "1.2.840.10045.4.3.1":
		return schemeECDSA, crypto.SHA224
	case "1.2.840.10045.4.3.2":
		return schemeECDSA, crypto.SHA256
	case "1.2.840.10045.4.3.3":
		return schemeECDSA, crypto.SHA384
	case "1.2.840.10045.4.3.4":
		return schemeECDSA, crypto.SHA512
	case "0.4.0.127.0.7.1.1.4.1.1":
		return schemePlainECDSA, crypto.SHA1
	case "0.4.0.127.0.7.1.1.4.1.2":
		return schemePlainECDSA, crypto.SHA224
	case "0.4.0.127.0.7.1.1.4.1.3":
		return schemePlainECDSA, crypto.SHA256
	case "0.4.0.127.0.7.1.1.4.1.4":
		return schemePlainECDSA, crypto.SHA384
	case "0.4.0.127.0.7.1.1.4.1.5":
		return schemePlainECDSA, crypto.SHA512
	case "1.3.101.112":
		return schemeEd25519, 0
	}
	return schemeUnknown, 0
}

// hashOf maps a digest algorithm to its hash and its report name; the hash
// is 0 when unsupported, the name then the dotted OID.
func hashOf(oid asn1.ObjectIdentifier) (crypto.Hash, string) {
	switch oid.String() {
	case "1.2.840.113549.2.5":
		return crypto.MD5, "md5"
	case "1.3.14.3.2.26", "1.2.840.113549.1.1.5":
		return crypto.SHA1, "sha1"
	case "2.16.840.1.101.3.4.2.4":
		return crypto.SHA224, "sha224"
	case "2.16.840.1.101.3.4.2.1", "1.2.840.113549.1.1.11":
		return crypto.SHA256, "sha256"
	case "2.16.840.1.101.3.4.2.2", "1.2.840.113549.1.1.12":
		return crypto.SHA384, "sha384"
	case "2.16.840.1.101.3.4.2.3", "1.2.840.113549.1.1.13":
		return crypto.SHA512, "sha512"
	case "2.16.840.1.101.3.4.2.8":
		return crypto.SHA3_256, "sha3-256"
	case "2.16.840.1.101.3.4.2.9":
		return crypto.SHA3_384, "sha3-384"
	case "2.16.840.1.101.3.4.2.10":
		return crypto.SHA3_512, "sha3-512"
	}
	return 0, oid.String()
}

func newHash(h crypto.Hash) hash.Hash {
	switch h {
	case crypto.MD5:
		return md5.New()
	case crypto.SHA1:
		return sha1.New()
	case crypto.SHA224:
		return sha256.New224()
	case crypto.SHA256:
		return sha256.New()
	case crypto.SHA384:
		return sha512.New384()
	case crypto.SHA512:
		return sha512.New()
	case crypto.SHA3_256:
		return sha3.New256()
	case crypto.SHA3_384:
		return sha3.New384()
	case crypto.SHA3_512:
		return sha3.New512()
	}
	return nil
}

func digest(h crypto.Hash, parts ...[]byte) []byte {
	d := newHash(h)
	for _, p := range parts {
		d.Write(p)
	}
	return d.Sum(nil)
}

// keyFacts names the certificate's key type and size.
func keyFacts(c *Certificate) (string, int) {
	pub, err := x509.ParsePKIXPublicKey(c.SPKI)
	if err != nil {
		return "", 0
	}
	switch k := pub.(type) {
	case *rsa.PublicKey:
		return "rsa", k.N.BitLen()
	case *ecdsa.PublicKey:
		return "ecdsa", k.Curve.Params().BitSize
	case ed25519.PublicKey:
		return "ed25519", 256
	}
	return "", 0
}

// CheckTimestampToken verifies a signature timestamp: the token's imprint
// against the signature value it stamps, and the token's own signature.
func CheckTimestampToken(token, stamped []byte) Result {
	sd, err := Parse(token)
	if err != nil {
		return Result{Verdict: Unreadable, Reason: ReasonMalformed}
	}
	return Check(sd, Timestamp, stamped)
}

// CheckRSASHA1 verifies an adbe.x509.rsa_sha1 signature: contents is the
// DER OCTET STRING holding the PKCS #1 signature, cert the signer's
// certificate (the first of /Cert).
func CheckRSASHA1(contents, cert []byte, content ...[]byte) Result {
	r := Result{}
	der, _, err := ToDER(contents)
	if err != nil {
		return r.fail(Unreadable, ReasonMalformed)
	}
	s := cryptobyte.String(der)
	var sig cryptobyte.String
	if !s.ReadASN1(&sig, cbasn1.OCTET_STRING) {
		return r.fail(Unreadable, ReasonMalformed)
	}
	r.Signature = sig
	c, err := parseCertificate(cert)
	if err != nil {
		return r.fail(Unreadable, ReasonNoCertificate)
	}
	r.Signer = c
	r.KeyType, r.KeyBits = keyFacts(c)
	pub, err := x509.ParsePKIXPublicKey(c.SPKI)
	k, ok := pub.(*rsa.PublicKey)
	if err != nil || !ok || k.N.BitLen() > maxRSABits {
		return r.fail(Unsupported, ReasonPublicKey)
	}
	alg, d, ok := recoverPKCS1(k, sig)
	if !ok {
		return r.fail(SignatureInvalid, ReasonSignatureValue)
	}
	h := crypto.SHA1
	if alg != nil {
		h, r.DigestAlg = hashOf(alg)
		if h == 0 {
			return r.fail(Unsupported, ReasonDigestAlgorithm)
		}
	} else {
		r.DigestAlg = "sha1"
	}
	if !bytes.Equal(d, digest(h, content...)) {
		return r.fail(DigestMismatch, ReasonSignatureValue)
	}
	r.Verdict = Verified
	return r
}
