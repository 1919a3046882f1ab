package sigs

import (
	"fmt"
	"slices"
	"time"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/sigs/cms"
	"github.com/doctrust/doctrust/engine/report"
)

// Integrity is not trust: these checks establish that the signed bytes
// are the bytes that were signed, with the key of the certificate the
// signature embeds, and nothing about who that key belongs to. No trust
// list, OCSP, CRL or AIA is consulted (SPEC.md 12, issue 38).

// maxIntegrityChecks bounds the signatures whose range is hashed: each
// hash reads up to the whole file, and the evidence lists only the first
// fifty anyway. maxHashedBytes below bounds the bytes.
const maxIntegrityChecks = 64

// maxContentsBytes bounds the signature value read: real ones, with
// certificate chains and revocation data, stay well below.
const maxContentsBytes = 4 << 20

// Reasons of our own beside those of engine/pdf/sigs/cms.
const (
	reasonByteRange = "byte-range-unreadable" // not pairs of numbers, or starting past the end
	reasonSubFilter = "subfilter"
	reasonBudget    = "check-budget"
	reasonTooLarge  = "signature-too-large"
)

// IntegrityReasons is the closed vocabulary of integrityReason.
func IntegrityReasons() []string {
	return append([]string{reasonByteRange, reasonSubFilter, reasonBudget, reasonTooLarge}, cms.Reasons()...)
}

// Integrities is the closed vocabulary of integrity.
func Integrities() []string {
	return []string{string(cms.Verified), string(cms.DigestMismatch), string(cms.SignatureInvalid), string(cms.Unsupported), string(cms.Unreadable)}
}

// integrity is one signature's check and what it read of the signer.
type integrity struct {
	cms.Result
	// stamp is the check of the signature timestamp the signer embeds,
	// nil when there is none.
	stamp *cms.Result
	// claimed is the signing time the certificate is measured against:
	// the signed signingTime, else the signature timestamp, else /M.
	claimed time.Time
}

// broken reports a verdict that says the signed bytes or attributes are
// not what was signed.
func (i *integrity) broken() bool {
	return i.Verdict == cms.DigestMismatch || i.Verdict == cms.SignatureInvalid
}

// checkIntegrity checks every inventoried signature once.
func (a *analysis) checkIntegrity(inv *sigInventory) {
	if inv.integrityDone {
		return
	}
	inv.integrityDone = true
	hashed := int64(0)
	for i, s := range inv.sigs {
		hashed += rangeBytes(s.cov.byteRange, int64(len(a.f.Data)))
		if i >= maxIntegrityChecks || hashed > maxHashedBytes || a.f.Err() != nil {
			s.integ = &integrity{Result: cms.Result{Verdict: cms.Unreadable, Reason: reasonBudget}}
			continue
		}
		s.integ = a.integrityOf(s)
	}
}

// maxHashedBytes bounds the bytes all of a document's checks hash
// together: a file that makes dozens of signatures each cover all of it
// is hashed up to this, about a second of SHA-256.
const maxHashedBytes = 512 << 20

// rangeBytes is how many bytes of a file of n bytes a byte range names.
func rangeBytes(br []int64, n int64) int64 {
	total := int64(0)
	for i := 1; i < len(br); i += 2 {
		total += min(max(br[i], 0), n)
	}
	return total
}

func (a *analysis) integrityOf(s *signature) *integrity {
	in := &integrity{}
	fail := func(v cms.Verdict, reason string) *integrity {
		in.Verdict, in.Reason = v, reason
		return in
	}
	parts, ok := a.signedParts(s)
	if !ok {
		return fail(cms.Unreadable, reasonByteRange)
	}
	contents := a.signatureValue(s)
	if len(contents) > maxContentsBytes {
		return fail(cms.Unreadable, reasonTooLarge)
	}
	sub := string(s.dict.Name("SubFilter"))
	switch {
	case sub == "adbe.x509.rsa_sha1":
		cert := a.resolve(s.dict.Get("Cert"))
		if arr, ok := cert.(cos.Array); ok && len(arr) > 0 {
			cert = a.resolve(arr[0])
		}
		c, _ := cert.(cos.String)
		in.Result = cms.CheckRSASHA1(contents, c.Bytes, parts...)
	case sub == "adbe.pkcs7.detached" || sub == "ETSI.CAdES.detached" || sub == "adbe.pkcs7.sha1" || sub == "ETSI.RFC3161":
		sd, err := cms.Parse(contents)
		if err != nil {
			return fail(cms.Unreadable, cms.ReasonMalformed)
		}
		mode := cms.Detached
		switch sub {
		case "adbe.pkcs7.sha1":
			mode = cms.SHA1Encapsulated
		case "ETSI.RFC3161":
			mode = cms.Timestamp
		}
		in.Result = cms.Check(sd, mode, parts...)
	default:
		return fail(cms.Unsupported, reasonSubFilter)
	}
	if in.Token != nil && in.Signature != nil {
		st := cms.CheckTimestampToken(in.Token, in.Signature)
		in.stamp = &st
	}
	in.claimed = in.SigningTime
	if in.claimed.IsZero() && in.stamp != nil {
		in.claimed = in.stamp.SigningTime
	}
	if d, ok := cos.ParseDate(cos.Text(a.resolve(s.dict.Get("M")))); ok && in.claimed.IsZero() && !a.f.Sealed() {
		in.claimed = d.Time.UTC()
	}
	return in
}

// signedParts are the bytes the /ByteRange names: pairs of offset and
// length, as validators read them (pyHanko and poppler hash a single pair,
// or a range running past the end of the file up to that end, just the
// same; the coverage check reports both as anomalies).
func (a *analysis) signedParts(s *signature) ([][]byte, bool) {
	br := s.cov.byteRange
	if len(br) < 2 || len(br)%2 != 0 {
		return nil, false
	}
	n := int64(len(a.f.Data))
	var parts [][]byte
	for i := 0; i < len(br); i += 2 {
		start, l := br[i], br[i+1]
		if start < 0 || l < 0 || start > n {
			return nil, false
		}
		parts = append(parts, a.f.Data[start:start+min(l, n-start)])
	}
	return parts, true
}

// signatureValue is the signature's /Contents bytes, which the file layer
// keeps as written even in an encrypted file. They are the dictionary's
// own, not the byte range's hole: a range copied from another signature
// leaves that one's value in the hole (validators read /Contents too).
func (a *analysis) signatureValue(s *signature) []byte {
	c, _ := a.resolve(s.dict.Get("Contents")).(cos.String)
	return c.Bytes
}

// weakDigestAfter is the first year an MD5 or SHA-1 digest in a new
// signature is reported: by 2018 every signing tool had moved on.
const weakDigestAfter = 2018

// weak reports an MD5 or SHA-1 document digest in a signature claiming to
// be made after 2017.
func (i *integrity) weak(subFilter string) bool {
	if i.claimed.IsZero() || i.claimed.Year() < weakDigestAfter {
		return false
	}
	return i.DigestAlg == "md5" || i.DigestAlg == "sha1" || subFilter == "adbe.pkcs7.sha1"
}

// validAtSigning reports whether the signer's certificate was valid at the
// claimed signing time; known is false when either is missing.
func (i *integrity) validAtSigning() (valid, known bool) {
	c := i.Signer
	if c == nil || i.claimed.IsZero() || c.NotBefore.IsZero() || c.NotAfter.IsZero() {
		return false, false
	}
	return !i.claimed.Before(c.NotBefore) && !i.claimed.After(c.NotAfter), true
}

// countIntegrity adds one signature's check to the tally.
func (t *coverageTally) countIntegrity(s *signature) {
	in := s.integ
	if in == nil {
		return
	}
	switch {
	case in.broken() && s.kind == sigUsageRights:
		// counted with the usage-rights anomalies
	case in.broken():
		t.broken = append(t.broken, fmt.Sprintf("revision %d, object %d: %s", s.cov.base(), s.num, in.Verdict))
	case in.Verdict != cms.Verified:
		t.uncheckedCount++
		if !slices.Contains(t.unchecked, in.Reason) {
			t.unchecked = append(t.unchecked, in.Reason)
		}
	}
	if s.kind == sigUsageRights {
		// Reader's usage rights vouch for no content: how strong their
		// digest is, or when Adobe's certificate expired, says nothing
		// about the document.
		return
	}
	if in.stamp != nil && (in.stamp.Verdict == cms.DigestMismatch || in.stamp.Verdict == cms.SignatureInvalid) {
		t.stampBroken++
	}
	if valid, known := in.validAtSigning(); known && !valid {
		t.notValidAtSigning++
	}
	if in.weak(string(s.dict.Name("SubFilter"))) {
		t.weakDigest++
	}
}

// integrityEvidence adds the check's verdict and the signer's facts to a
// signature's evidence: facts the certificate states, never a verdict on
// who the signer is.
func (a *analysis) integrityEvidence(e map[string]any, s *signature) {
	in := s.integ
	if in == nil {
		return
	}
	e["integrity"] = string(in.Verdict)
	if in.Verdict != cms.Verified {
		e["integrityReason"] = in.Reason
	}
	if in.DigestAlg != "" {
		e["digestAlgorithm"] = in.DigestAlg
	}
	if !in.claimed.IsZero() {
		e["claimedSigningTime"] = in.claimed.Format(time.RFC3339)
	}
	if in.stamp != nil {
		e["timestampIntegrity"] = string(in.stamp.Verdict)
	}
	c := in.Signer
	if c == nil {
		return
	}
	signer := map[string]any{
		"serial":     c.SerialHex(),
		"selfIssued": c.SelfIssued(),
		"selfSigned": c.SelfSigned(),
	}
	a.untrusted(signer, "subjectCN", c.SubjectCN())
	a.untrusted(signer, "issuerCN", c.IssuerCN())
	if !c.NotBefore.IsZero() {
		signer["notBefore"] = c.NotBefore.Format(time.RFC3339)
	}
	if !c.NotAfter.IsZero() {
		signer["notAfter"] = c.NotAfter.Format(time.RFC3339)
	}
	if valid, known := in.validAtSigning(); known {
		signer["validAtSigningTime"] = valid
	}
	if in.KeyType != "" {
		signer["keyType"] = in.KeyType
		signer["keyBits"] = in.KeyBits
	}
	e["signer"] = signer
}

// signatureFacts is the document block's list (report.Document.Signatures).
func (a *analysis) signatureFacts() []report.SignatureFact {
	inv := a.signatures()
	a.checkIntegrity(inv)
	var out []report.SignatureFact
	for _, s := range inv.sigs {
		f := report.SignatureFact{Kind: s.kind, Revision: s.cov.base(), Integrity: string(s.integ.Verdict)}
		if s.integ.Verdict != cms.Verified {
			f.IntegrityReason = s.integ.Reason
		}
		if v := report.Untrusted(string(s.dict.Name("SubFilter"))); v != "" {
			f.SubFilter = v
		}
		if c := s.integ.Signer; c != nil && !a.f.Sealed() {
			f.SignerCN = report.Untrusted(c.SubjectCN())
		}
		out = append(out, f)
	}
	return out
}
