package sigs

import (
	"sort"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/report"
)

// maxSigWalkNodes bounds the form-field nodes all signature walks of one
// analysis visit together (the newest view and the older views searched
// for removed signatures).
const maxSigWalkNodes = 200000

// maxSignatures bounds the signatures inventoried; real documents carry a
// handful.
const maxSignatures = 1000

// Signature kinds, as evidence names them.
const (
	sigApproval      = "approval"
	sigCertification = "certification"
	sigTimestamp     = "timestamp"
	sigUsageRights   = "usage-rights"
)

// signature is one signature value of the newest view: a /Sig or
// /DocTimeStamp dictionary named by a signature field or by /Perms.
type signature struct {
	num  int // the value's object number; 0 when it is a direct object
	host int // the object whose bytes hold the value (num, or its container)
	dict *cos.Dict
	kind string
	// field is the fully qualified name of the first field naming the
	// value (attacker-authored); fields counts the fields that name it.
	field   string
	fields  int
	visible bool
	// p is the DocMDP permission level of a certification signature.
	p     int
	locks []fieldLock
	cov   rangeCoverage
	// integ is the integrity check, made on first need.
	integ *integrity
}

// sigInventory is every signature of the newest view.
type sigInventory struct {
	sigs []*signature // in file order of their values
	// emptyFields counts signature fields without a signature value.
	emptyFields int
	truncated   bool
	budget      int // field-walk nodes left for the older views
	lockNames   int // FieldMDP field names the locks may still list

	// placeholders counts values that carry no signature bytes; like empty
	// fields they are unsigned, never inventoried as signatures (issue 25).
	placeholders int

	integrityDone bool
}

// signatures builds the inventory once; document.signed, signature-coverage
// and signature-permissions all read it.
func (a *analysis) signatures() *sigInventory {
	if a.sigs != nil {
		return a.sigs
	}
	inv := &sigInventory{budget: maxSigWalkNodes, lockNames: maxLockNames}
	a.sigs = inv
	if a.catalog == nil {
		return inv
	}
	byKey := map[any]*signature{}
	add := func(v cos.Object, host int) *signature {
		d := a.dict(v)
		if !isSigDict(d) {
			return nil
		}
		if a.placeholder(d) {
			inv.placeholders++
			return nil
		}
		var key any = d
		num := 0
		if ref, ok := v.(cos.Ref); ok {
			key, num, host = ref.Num, ref.Num, ref.Num
		}
		if s := byKey[key]; s != nil {
			return s
		}
		if len(inv.sigs) >= maxSignatures {
			inv.truncated = true
			return nil
		}
		s := &signature{num: num, host: host, dict: d, kind: sigApproval}
		if d.Name("Type") == "DocTimeStamp" {
			s.kind = sigTimestamp
		}
		byKey[key] = s
		inv.sigs = append(inv.sigs, s)
		return s
	}
	form := a.walkForm(a.catalog, 0, &inv.budget)
	inv.truncated = form.truncated
	for _, fl := range form.fields {
		if fl.ft != "Sig" {
			continue
		}
		s := add(fl.value, fl.num)
		if s == nil {
			if !isSigDict(a.dict(fl.value)) {
				inv.emptyFields++
			}
			continue
		}
		s.fields++
		if s.fields == 1 {
			s.field = fl.name
			s.visible = fl.visible(a.resolve)
		}
		if lock := readLock(a.dict(fl.dict.Get("Lock")), a.resolve, &inv.lockNames); lock != nil {
			s.locks = append(s.locks, *lock)
		}
	}
	catalogNum := 0
	if ref, ok := a.f.Trailer().Get("Root").(cos.Ref); ok {
		catalogNum = ref.Num
	}
	permsObj := a.catalog.Get("Perms")
	permsHost := catalogNum
	if ref, ok := permsObj.(cos.Ref); ok {
		permsHost = ref.Num
	}
	if perms := a.dict(permsObj); perms != nil {
		for _, k := range []cos.Name{"DocMDP", "UR3", "UR"} {
			s := add(perms.Get(k), permsHost)
			switch {
			case s == nil:
			case k == "DocMDP":
				s.kind, s.p = sigCertification, 2
			case s.fields == 0:
				s.kind = sigUsageRights
			}
		}
	}
	for _, s := range inv.sigs {
		a.readReferences(s, &inv.lockNames)
		s.cov = a.measureCoverage(s)
	}
	sort.SliceStable(inv.sigs, func(i, j int) bool { return inv.sigs[i].cov.at < inv.sigs[j].cov.at })
	return inv
}

// readReferences reads the signature's transform methods: DocMDP makes it
// a certification signature, FieldMDP locks form fields.
func (a *analysis) readReferences(s *signature, lockNames *int) {
	refs, _ := a.resolve(s.dict.Get("Reference")).(cos.Array)
	for i, r := range refs {
		if i >= maxLockFields {
			break
		}
		d := a.dict(r)
		if d == nil {
			continue
		}
		params := a.dict(d.Get("TransformParams"))
		switch d.Name("TransformMethod") {
		case "DocMDP":
			if s.kind != sigUsageRights {
				s.kind = sigCertification
			}
			s.p = 2 // ISO 32000: the default when /P is absent or invalid
			if p, ok := cos.AsInt(a.resolve(params.Get("P"))); ok && p >= 1 && p <= 3 {
				s.p = int(p)
			}
		case "FieldMDP":
			if lock := readLock(params, a.resolve, lockNames); lock != nil {
				s.locks = append(s.locks, *lock)
			}
		}
	}
}

// placeholder reports a signature dictionary with no signature in it: no
// /Contents string, or one of zero bytes only (the space a signing tool
// reserves and never filled). Such a field is unsigned, whatever signer
// details the dictionary states.
func (a *analysis) placeholder(d *cos.Dict) bool {
	c, ok := a.resolve(d.Get("Contents")).(cos.String)
	if !ok {
		return true
	}
	for _, b := range c.Bytes {
		if b != 0 {
			return false
		}
	}
	return true
}

// earliestBase is the first revision a signature vouches for (0: none):
// only the revisions after it need classifying.
func (inv *sigInventory) earliestBase() int {
	first := 0
	for _, s := range inv.sigs {
		if b := s.cov.base(); first == 0 || b < first {
			first = b
		}
	}
	return first
}

// certification returns the certification signature, or nil.
func (inv *sigInventory) certification() *signature {
	for _, s := range inv.sigs {
		if s.kind == sigCertification {
			return s
		}
	}
	return nil
}

// isSigDict recognises a signature value dictionary.
func isSigDict(d *cos.Dict) bool {
	if d == nil {
		return false
	}
	t := d.Name("Type")
	return t == "Sig" || t == "DocTimeStamp" || (d.Has("ByteRange") && d.Has("Contents"))
}

// variants collects what a signature family found: the first message is
// the signal's, the others its notes, the severity the highest.
type variants struct {
	msgs []report.Message
	sev  report.Severity
}

func (v *variants) add(sev report.Severity, m report.Message) {
	if len(v.msgs) == 0 {
		v.sev = sev
	}
	v.msgs = append(v.msgs, m)
	v.sev = v.sev.Max(sev)
}

func (v *variants) finding(family report.FamilyID, ev map[string]any) *report.Finding {
	return &report.Finding{Family: family, Severity: v.sev, Message: v.msgs[0], Notes: v.msgs[1:], Evidence: ev}
}
