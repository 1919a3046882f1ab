package cms

import (
	"bytes"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// Certificate is what an integrity check and the signer facts read of an
// X.509 certificate. It is read with a walk of its own rather than
// crypto/x509.ParseCertificate, which refuses certificates real signers
// still use (negative serials, odd extensions): integrity needs only the
// key and the names.
type Certificate struct {
	Raw []byte
	// RawSerial is the serial INTEGER's content octets; RawIssuer and
	// RawSubject the Names' full DER.
	RawSerial, RawIssuer, RawSubject []byte
	// SPKI is the SubjectPublicKeyInfo's full DER.
	SPKI                []byte
	NotBefore, NotAfter time.Time
	// SubjectKeyID is the subject key identifier extension's value.
	SubjectKeyID []byte
}

var oidSubjectKeyID = asn1.ObjectIdentifier{2, 5, 29, 14}

func parseCertificate(raw []byte) (*Certificate, error) {
	c := &Certificate{Raw: raw}
	in := cryptobyte.String(raw)
	var cert, tbs cryptobyte.String
	if !in.ReadASN1(&cert, cbasn1.SEQUENCE) || !cert.ReadASN1(&tbs, cbasn1.SEQUENCE) {
		return nil, ErrMalformed
	}
	if tbs.PeekASN1Tag(cbasn1.Tag(0).Constructed().ContextSpecific()) {
		var v cryptobyte.String
		if !tbs.ReadASN1(&v, cbasn1.Tag(0).Constructed().ContextSpecific()) {
			return nil, ErrMalformed
		}
	}
	var serial, sigAlg, issuer, validity, subject, spki cryptobyte.String
	if !tbs.ReadASN1(&serial, cbasn1.INTEGER) || !tbs.ReadASN1(&sigAlg, cbasn1.SEQUENCE) ||
		!tbs.ReadASN1Element(&issuer, cbasn1.SEQUENCE) || !tbs.ReadASN1(&validity, cbasn1.SEQUENCE) ||
		!tbs.ReadASN1Element(&subject, cbasn1.SEQUENCE) || !tbs.ReadASN1Element(&spki, cbasn1.SEQUENCE) {
		return nil, ErrMalformed
	}
	c.RawSerial, c.RawIssuer, c.RawSubject, c.SPKI = serial, issuer, subject, spki
	var nb, na cryptobyte.String
	var tag cbasn1.Tag
	if validity.ReadAnyASN1Element(&nb, &tag) && validity.ReadAnyASN1Element(&na, &tag) {
		c.NotBefore, _ = readTime(nb)
		c.NotAfter, _ = readTime(na)
	}
	for _, t := range []cbasn1.Tag{1, 2} {
		var skip cryptobyte.String
		tbs.ReadOptionalASN1(&skip, nil, t.ContextSpecific())
	}
	var extsOuter, exts cryptobyte.String
	if tbs.ReadASN1(&extsOuter, cbasn1.Tag(3).Constructed().ContextSpecific()) && extsOuter.ReadASN1(&exts, cbasn1.SEQUENCE) {
		for n := 0; !exts.Empty() && n < maxAttrs; n++ {
			var ext, val cryptobyte.String
			var id asn1.ObjectIdentifier
			if !exts.ReadASN1(&ext, cbasn1.SEQUENCE) || !ext.ReadASN1ObjectIdentifier(&id) {
				break
			}
			var critical bool
			ext.ReadOptionalASN1Boolean(&critical, cbasn1.BOOLEAN, false)
			if !ext.ReadASN1(&val, cbasn1.OCTET_STRING) {
				break
			}
			var ski cryptobyte.String
			if id.Equal(oidSubjectKeyID) && val.ReadASN1(&ski, cbasn1.OCTET_STRING) {
				c.SubjectKeyID = ski
			}
		}
	}
	return c, nil
}

// SerialHex is the serial number as lowercase hexadecimal of its content
// octets.
func (c *Certificate) SerialHex() string {
	const digits = "0123456789abcdef"
	b := c.RawSerial
	if len(b) > 64 {
		b = b[:64]
	}
	out := make([]byte, 0, 2*len(b))
	for _, x := range b {
		out = append(out, digits[x>>4], digits[x&15])
	}
	return string(out)
}

// SubjectCN and IssuerCN are the names' common names ("" when none).
func (c *Certificate) SubjectCN() string { return commonName(c.RawSubject) }
func (c *Certificate) IssuerCN() string  { return commonName(c.RawIssuer) }

// SelfIssued reports a certificate whose issuer is its subject.
func (c *Certificate) SelfIssued() bool { return bytes.Equal(c.RawIssuer, c.RawSubject) }

// SelfSigned reports a self-issued certificate whose signature its own key
// verifies. It is false when crypto/x509 cannot read the certificate or
// refuses its algorithm (SHA-1 and MD5 signatures among them).
func (c *Certificate) SelfSigned() bool {
	if !c.SelfIssued() {
		return false
	}
	x, err := x509.ParseCertificate(c.Raw)
	return err == nil && x.CheckSignature(x.SignatureAlgorithm, x.RawTBSCertificate, x.Signature) == nil
}

func commonName(raw []byte) string {
	var rdn pkix.RDNSequence
	if rest, err := asn1.Unmarshal(raw, &rdn); err != nil || len(rest) > 0 {
		return ""
	}
	var n pkix.Name
	n.FillFromRDNSequence(&rdn)
	return n.CommonName
}

// matches reports whether the certificate is the one a signer identifier
// names.
func (c *Certificate) matches(s *SignerInfo) bool {
	if s.SubjectKeyID != nil {
		return c.SubjectKeyID != nil && bytes.Equal(c.SubjectKeyID, s.SubjectKeyID)
	}
	return bytes.Equal(trimSerial(c.RawSerial), trimSerial(s.Serial)) && bytes.Equal(c.RawIssuer, s.Issuer)
}

// trimSerial drops leading zero octets some encoders add to serials.
func trimSerial(b []byte) []byte {
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	return b
}
