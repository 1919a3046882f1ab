package pdftest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/hex"
	"math/big"
	"regexp"
	"sync"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// Seal signs for real: the value it writes into /Contents is a CMS
// SignedData over the sealed byte range, made with a fixed Ed25519 key
// (Ed25519 is deterministic, so a sealed file is the same on every run).
// The structural tests then see signatures whose integrity holds, as a
// real signing tool's would; ranges tampered by SealWith are signed as
// tampered, and whatever a later edit changes breaks the digest.

// minContents is the /Contents size SigDict reserves at the least: room
// for the value Seal signs.
const minContents = 1024

var testSigner = sync.OnceValues(func() (ed25519.PrivateKey, []byte) {
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{0x38}, ed25519.SeedSize))
	name := pkix.Name{CommonName: "pdftest signer"}
	tpl := &x509.Certificate{
		SerialNumber: big.NewInt(38),
		Subject:      name,
		Issuer:       name,
		NotBefore:    time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC),
		NotAfter:     time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	der, err := x509.CreateCertificate(nil, tpl, tpl, key.Public(), key)
	if err != nil {
		panic(err)
	}
	return key, der
})

var (
	oidSignedData    = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 2}
	oidData          = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 1}
	oidTSTInfo       = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 1, 4}
	oidContentType   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 3}
	oidMessageDigest = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 4}
	oidSHA256        = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}
	oidEd25519       = asn1.ObjectIdentifier{1, 3, 101, 112}
)

var subFilterRE = regexp.MustCompile(`/SubFilter /([A-Za-z0-9._]+) $`)

// signValue returns the DER of the signature value for the dictionary
// whose byte-range placeholder starts at at, over covered.
func signValue(pdf []byte, at int, covered []byte) []byte {
	sub := ""
	if m := subFilterRE.FindSubmatch(pdf[max(0, at-80):at]); m != nil {
		sub = string(m[1])
	}
	content := covered
	var encapsulated []byte
	contentType := oidData
	switch sub {
	case "adbe.pkcs7.sha1":
		d := sha1.Sum(covered)
		encapsulated = d[:]
	case "ETSI.RFC3161":
		d := sha256.Sum256(covered)
		var b cryptobyte.Builder
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1Int64(1)
			b.AddASN1ObjectIdentifier(asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 99999, 38})
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				algorithm(b, oidSHA256)
				b.AddASN1OctetString(d[:])
			})
			b.AddASN1Int64(38)
			b.AddASN1GeneralizedTime(time.Date(2025, 1, 2, 12, 0, 0, 0, time.UTC))
		})
		encapsulated, contentType = b.BytesOrPanic(), oidTSTInfo
	}
	if encapsulated != nil {
		content = encapsulated
	}
	key, cert := testSigner()
	parsed, err := x509.ParseCertificate(cert)
	if err != nil {
		panic(err)
	}
	md := sha256.Sum256(content)
	var ab cryptobyte.Builder
	ab.AddASN1(cbasn1.SET, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1ObjectIdentifier(oidContentType)
			b.AddASN1(cbasn1.SET, func(b *cryptobyte.Builder) { b.AddASN1ObjectIdentifier(contentType) })
		})
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1ObjectIdentifier(oidMessageDigest)
			b.AddASN1(cbasn1.SET, func(b *cryptobyte.Builder) { b.AddASN1OctetString(md[:]) })
		})
	})
	attrs := ab.BytesOrPanic()
	sig := ed25519.Sign(key, attrs)
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1ObjectIdentifier(oidSignedData)
		b.AddASN1(cbasn1.Tag(0).Constructed().ContextSpecific(), func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				version := int64(1)
				if encapsulated != nil && sub == "ETSI.RFC3161" {
					version = 3 // RFC 5652 5.1: content other than id-data
				}
				b.AddASN1Int64(version)
				b.AddASN1(cbasn1.SET, func(b *cryptobyte.Builder) { algorithm(b, oidSHA256) })
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
					b.AddASN1ObjectIdentifier(contentType)
					if encapsulated != nil {
						b.AddASN1(cbasn1.Tag(0).Constructed().ContextSpecific(), func(b *cryptobyte.Builder) { b.AddASN1OctetString(encapsulated) })
					}
				})
				b.AddASN1(cbasn1.Tag(0).Constructed().ContextSpecific(), func(b *cryptobyte.Builder) { b.AddBytes(cert) })
				b.AddASN1(cbasn1.SET, func(b *cryptobyte.Builder) {
					b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
						b.AddASN1Int64(1)
						b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
							b.AddBytes(parsed.RawIssuer)
							b.AddASN1BigInt(parsed.SerialNumber)
						})
						algorithm(b, oidSHA256)
						b.AddASN1(cbasn1.Tag(0).Constructed().ContextSpecific(), func(b *cryptobyte.Builder) { b.AddBytes(attrs[2:]) })
						b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { b.AddASN1ObjectIdentifier(oidEd25519) })
						b.AddASN1OctetString(sig)
					})
				})
			})
		})
	})
	return b.BytesOrPanic()
}

func algorithm(b *cryptobyte.Builder, oid asn1.ObjectIdentifier) {
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { b.AddASN1ObjectIdentifier(oid) })
}

// writeValue signs the range br of out and writes the value into the hex
// string of /Contents that starts at start (its '<'), when the range lies
// inside the file and the value fits; otherwise the string is left as is.
func writeValue(out []byte, at, start, end int, br [4]int) {
	if br[0] < 0 || br[1] < 0 || br[2] < 0 || br[3] < 0 || br[0]+br[1] > len(out) || br[2]+br[3] > len(out) {
		return
	}
	// The covered bytes must not include the digits about to be written.
	if br[0]+br[1] > start+1 && br[0] < end-1 || br[2] < end-1 && br[2]+br[3] > start+1 {
		return
	}
	covered := append(bytes.Clone(out[br[0]:br[0]+br[1]]), out[br[2]:br[2]+br[3]]...)
	v := signValue(out, at, covered)
	h := hex.EncodeToString(v)
	if len(h) > end-start-2 {
		return
	}
	copy(out[start+1:], h)
}
