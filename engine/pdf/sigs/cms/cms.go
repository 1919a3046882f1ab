// Package cms reads the CMS SignedData (RFC 5652) a PDF signature or
// document timestamp carries and checks its integrity: the digest of the
// signed content against the signed messageDigest attribute and the
// signer's signature against the public key of the certificate it embeds.
// It never decides whether a certificate is trusted and never fetches
// anything: integrity needs only the bytes given.
//
// The walk is the standard library's crypto with cryptobyte over input
// first normalised from BER (ToDER), bounded in depth, element count and
// certificates read, so hostile input costs at most a few passes over it.
package cms

import (
	"encoding/asn1"
	"errors"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// maxCerts bounds the certificates read from one SignedData; signers embed
// their chain, a handful.
const maxCerts = 64

// Object identifiers this package reads.
var (
	oidSignedData    = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 2}
	oidTSTInfo       = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 1, 4}
	oidMessageDigest = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 4}
	oidSigningTime   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 5}
	oidTimeStampAttr = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 14}
)

// ErrMalformed is returned for input that is not a readable SignedData.
var ErrMalformed = errors.New("cms: malformed SignedData")

// SignedData is the part of a CMS SignedData an integrity check reads.
type SignedData struct {
	// ContentType is the encapsulated content's type; Content its bytes,
	// nil when the content is detached.
	ContentType asn1.ObjectIdentifier
	Content     []byte
	HasContent  bool
	Certs       []*Certificate
	// CertsTotal counts the certificates present, read or not.
	CertsTotal int
	Signers    []*SignerInfo
}

// SignerInfo is one signer.
type SignerInfo struct {
	// The signer identifier: issuer and serial (raw DER of the Name and
	// the INTEGER's content octets), or a subject key identifier.
	Issuer, Serial, SubjectKeyID []byte
	DigestAlg                    Algorithm
	// SignedAttrs is the DER the signature covers (the [0] attributes
	// re-tagged as a SET), nil when absent.
	SignedAttrs []byte
	Attrs       []Attribute
	SigAlg      Algorithm
	Signature   []byte
	Unsigned    []Attribute
}

// Algorithm is an AlgorithmIdentifier: its OID and raw parameters.
type Algorithm struct {
	OID    asn1.ObjectIdentifier
	Params []byte // the parameters' full element, nil when absent
}

// Attribute is one attribute with its values' full DER elements.
type Attribute struct {
	Type   asn1.ObjectIdentifier
	Values [][]byte
}

// maxAttrs bounds the attributes and values read per signer.
const maxAttrs = 256

// Parse reads a ContentInfo holding a SignedData from the start of b;
// bytes after the element (a /Contents string's zero padding) are ignored.
func Parse(b []byte) (*SignedData, error) {
	der, _, err := ToDER(b)
	if err != nil {
		return nil, err
	}
	return parseDER(der)
}

func parseDER(der []byte) (*SignedData, error) {
	in := cryptobyte.String(der)
	var ci, sdSeq cryptobyte.String
	var ct asn1.ObjectIdentifier
	if !in.ReadASN1(&ci, cbasn1.SEQUENCE) || !ci.ReadASN1ObjectIdentifier(&ct) || !ct.Equal(oidSignedData) {
		return nil, ErrMalformed
	}
	var explicit cryptobyte.String
	if !ci.ReadASN1(&explicit, cbasn1.Tag(0).Constructed().ContextSpecific()) || !explicit.ReadASN1(&sdSeq, cbasn1.SEQUENCE) {
		return nil, ErrMalformed
	}
	sd := &SignedData{}
	var version int64
	var digestAlgs, encap cryptobyte.String
	if !sdSeq.ReadASN1Integer(&version) || !sdSeq.ReadASN1(&digestAlgs, cbasn1.SET) || !sdSeq.ReadASN1(&encap, cbasn1.SEQUENCE) {
		return nil, ErrMalformed
	}
	if !encap.ReadASN1ObjectIdentifier(&sd.ContentType) {
		return nil, ErrMalformed
	}
	if encap.PeekASN1Tag(cbasn1.Tag(0).Constructed().ContextSpecific()) {
		var ec, oct cryptobyte.String
		if !encap.ReadASN1(&ec, cbasn1.Tag(0).Constructed().ContextSpecific()) || !ec.ReadASN1(&oct, cbasn1.OCTET_STRING) {
			return nil, ErrMalformed
		}
		sd.Content, sd.HasContent = []byte(oct), true
	}
	if sdSeq.PeekASN1Tag(cbasn1.Tag(0).Constructed().ContextSpecific()) {
		var certs cryptobyte.String
		if !sdSeq.ReadASN1(&certs, cbasn1.Tag(0).Constructed().ContextSpecific()) {
			return nil, ErrMalformed
		}
		for !certs.Empty() {
			var el cryptobyte.String
			var tag cbasn1.Tag
			if !certs.ReadAnyASN1Element(&el, &tag) {
				return nil, ErrMalformed
			}
			sd.CertsTotal++
			if tag != cbasn1.SEQUENCE || len(sd.Certs) >= maxCerts {
				continue // attribute certificates and the like
			}
			if c, err := parseCertificate(el); err == nil {
				sd.Certs = append(sd.Certs, c)
			}
		}
	}
	if sdSeq.PeekASN1Tag(cbasn1.Tag(1).Constructed().ContextSpecific()) {
		var crls cryptobyte.String
		if !sdSeq.ReadASN1(&crls, cbasn1.Tag(1).Constructed().ContextSpecific()) {
			return nil, ErrMalformed
		}
	}
	var signers cryptobyte.String
	if !sdSeq.ReadASN1(&signers, cbasn1.SET) {
		return nil, ErrMalformed
	}
	for !signers.Empty() && len(sd.Signers) < maxCerts {
		var si cryptobyte.String
		if !signers.ReadASN1(&si, cbasn1.SEQUENCE) {
			return nil, ErrMalformed
		}
		s, err := parseSignerInfo(si)
		if err != nil {
			return nil, err
		}
		sd.Signers = append(sd.Signers, s)
	}
	if len(sd.Signers) == 0 {
		return nil, ErrMalformed
	}
	return sd, nil
}

func parseSignerInfo(si cryptobyte.String) (*SignerInfo, error) {
	s := &SignerInfo{}
	var version int64
	if !si.ReadASN1Integer(&version) {
		return nil, ErrMalformed
	}
	switch {
	case si.PeekASN1Tag(cbasn1.SEQUENCE):
		var ias, name, serial cryptobyte.String
		if !si.ReadASN1(&ias, cbasn1.SEQUENCE) || !ias.ReadASN1Element(&name, cbasn1.SEQUENCE) || !ias.ReadASN1(&serial, cbasn1.INTEGER) {
			return nil, ErrMalformed
		}
		s.Issuer, s.Serial = name, serial
	case si.PeekASN1Tag(cbasn1.Tag(0).ContextSpecific()):
		var ski cryptobyte.String
		if !si.ReadASN1(&ski, cbasn1.Tag(0).ContextSpecific()) {
			return nil, ErrMalformed
		}
		s.SubjectKeyID = ski
	default:
		return nil, ErrMalformed
	}
	var ok bool
	if s.DigestAlg, ok = readAlgorithm(&si); !ok {
		return nil, ErrMalformed
	}
	if si.PeekASN1Tag(cbasn1.Tag(0).Constructed().ContextSpecific()) {
		var el, attrs cryptobyte.String
		if !si.ReadASN1Element(&el, cbasn1.Tag(0).Constructed().ContextSpecific()) {
			return nil, ErrMalformed
		}
		s.SignedAttrs = append([]byte(nil), el...)
		s.SignedAttrs[0] = 0x31 // the signature covers the attributes as a SET
		if !el.ReadASN1(&attrs, cbasn1.Tag(0).Constructed().ContextSpecific()) {
			return nil, ErrMalformed
		}
		if s.Attrs, ok = readAttributes(attrs); !ok {
			return nil, ErrMalformed
		}
	}
	var sig cryptobyte.String
	if s.SigAlg, ok = readAlgorithm(&si); !ok || !si.ReadASN1(&sig, cbasn1.OCTET_STRING) {
		return nil, ErrMalformed
	}
	s.Signature = sig
	if si.PeekASN1Tag(cbasn1.Tag(1).Constructed().ContextSpecific()) {
		var attrs cryptobyte.String
		if !si.ReadASN1(&attrs, cbasn1.Tag(1).Constructed().ContextSpecific()) {
			return nil, ErrMalformed
		}
		if s.Unsigned, ok = readAttributes(attrs); !ok {
			return nil, ErrMalformed
		}
	}
	return s, nil
}

func readAlgorithm(s *cryptobyte.String) (Algorithm, bool) {
	var seq cryptobyte.String
	var a Algorithm
	if !s.ReadASN1(&seq, cbasn1.SEQUENCE) || !seq.ReadASN1ObjectIdentifier(&a.OID) {
		return a, false
	}
	if !seq.Empty() {
		var p cryptobyte.String
		var tag cbasn1.Tag
		if !seq.ReadAnyASN1Element(&p, &tag) {
			return a, false
		}
		if tag != cbasn1.NULL {
			a.Params = p
		}
	}
	return a, true
}

func readAttributes(s cryptobyte.String) ([]Attribute, bool) {
	var out []Attribute
	for !s.Empty() {
		if len(out) >= maxAttrs {
			return out, true
		}
		var at, vals cryptobyte.String
		var a Attribute
		if !s.ReadASN1(&at, cbasn1.SEQUENCE) || !at.ReadASN1ObjectIdentifier(&a.Type) || !at.ReadASN1(&vals, cbasn1.SET) {
			return nil, false
		}
		for !vals.Empty() && len(a.Values) < maxAttrs {
			var v cryptobyte.String
			var tag cbasn1.Tag
			if !vals.ReadAnyASN1Element(&v, &tag) {
				return nil, false
			}
			a.Values = append(a.Values, v)
		}
		out = append(out, a)
	}
	return out, true
}

// attr returns the first value of the attribute of type t, nil if absent.
func attr(attrs []Attribute, t asn1.ObjectIdentifier) []byte {
	for _, a := range attrs {
		if a.Type.Equal(t) && len(a.Values) > 0 {
			return a.Values[0]
		}
	}
	return nil
}

// MessageDigest is the signed messageDigest attribute, nil when absent.
func (s *SignerInfo) MessageDigest() []byte {
	v := cryptobyte.String(attr(s.Attrs, oidMessageDigest))
	var d cryptobyte.String
	if v == nil || !v.ReadASN1(&d, cbasn1.OCTET_STRING) {
		return nil
	}
	return d
}

// SigningTime is the signed signingTime attribute.
func (s *SignerInfo) SigningTime() (time.Time, bool) {
	return readTime(cryptobyte.String(attr(s.Attrs, oidSigningTime)))
}

// TimestampToken is the unsigned signature-timestamp attribute's token,
// nil when absent.
func (s *SignerInfo) TimestampToken() []byte { return attr(s.Unsigned, oidTimeStampAttr) }

// readTime reads a UTCTime or GeneralizedTime, with the fractions of a
// second timestamp authorities write.
func readTime(v cryptobyte.String) (time.Time, bool) {
	var s cryptobyte.String
	var layouts []string
	switch {
	case v == nil:
		return time.Time{}, false
	case v.PeekASN1Tag(cbasn1.UTCTime) && v.ReadASN1(&s, cbasn1.UTCTime):
		layouts = []string{"060102150405Z0700", "0601021504Z0700"}
	case v.PeekASN1Tag(cbasn1.GeneralizedTime) && v.ReadASN1(&s, cbasn1.GeneralizedTime):
		layouts = []string{"20060102150405Z0700", "20060102150405"}
	default:
		return time.Time{}, false
	}
	for _, l := range layouts {
		if t, err := time.Parse(l, string(s)); err == nil {
			if t.Year() >= 2050 && l[0] == '0' {
				t = t.AddDate(-100, 0, 0) // RFC 5280: two-digit years 50-99 are 19xx
			}
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// TSTInfo is what an RFC 3161 timestamp token's content says.
type TSTInfo struct {
	ImprintAlg Algorithm
	Imprint    []byte
	GenTime    time.Time
}

// ParseTSTInfo reads the TSTInfo a timestamp token encapsulates.
func (sd *SignedData) ParseTSTInfo() (*TSTInfo, error) {
	if !sd.ContentType.Equal(oidTSTInfo) || !sd.HasContent {
		return nil, ErrMalformed
	}
	in := cryptobyte.String(sd.Content)
	var seq, mi, imprint cryptobyte.String
	var version int64
	var policy asn1.ObjectIdentifier
	t := &TSTInfo{}
	var ok bool
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !seq.ReadASN1Integer(&version) || !seq.ReadASN1ObjectIdentifier(&policy) ||
		!seq.ReadASN1(&mi, cbasn1.SEQUENCE) {
		return nil, ErrMalformed
	}
	if t.ImprintAlg, ok = readAlgorithm(&mi); !ok || !mi.ReadASN1(&imprint, cbasn1.OCTET_STRING) {
		return nil, ErrMalformed
	}
	t.Imprint = imprint
	var serial cryptobyte.String
	if !seq.ReadASN1(&serial, cbasn1.INTEGER) {
		return nil, ErrMalformed
	}
	var gt cryptobyte.String
	if !seq.ReadASN1Element(&gt, cbasn1.GeneralizedTime) {
		return nil, ErrMalformed
	}
	t.GenTime, _ = readTime(gt)
	return t, nil
}
