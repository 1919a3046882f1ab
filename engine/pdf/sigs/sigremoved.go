package sigs

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
)

// removedSig is a signature attached to the form in an earlier revision and
// no longer attached in the newest view.
type removedSig struct {
	num       int    // the value's object number, or its field's for a direct value
	field     string // fully qualified field name (attacker-authored)
	kind      string
	present   int // the last revision it was attached in
	removedIn int // the first revision without it
}

// detached are the signature values of older revisions the newest view no
// longer attaches: removed ones, and orphans that were never attached.
type detached struct {
	removed   []removedSig
	orphans   int
	truncated bool
}

// removedSignatures finds signature values written by an earlier revision
// and follows them through the views after it. Signature values cannot sit
// in object streams (their /ByteRange must point into the file), so only
// revisions whose bytes hold "/ByteRange" are searched.
func (a *analysis) removedSignatures() detached {
	var out detached
	inv := a.signatures()
	n := len(a.f.Revisions)
	if n < 2 || a.f.Warn.XrefRepaired {
		return out
	}
	current := map[int]bool{}
	for _, s := range inv.sigs {
		current[s.host] = true
	}
	type candidate struct {
		removedSig
		first, seen int
	}
	var cands []*candidate
	listed := map[int]bool{}
	for r := 1; r < n; r++ {
		for _, e := range a.entriesHolding(r, "/ByteRange") {
			if current[int(e.Num)] || listed[int(e.Num)] {
				continue
			}
			if a.f.Deadline() != nil {
				out.truncated = true
				break
			}
			d := cos.DictOf(a.f.Load(e, r))
			if d != nil && !isSigDict(d) {
				d = cos.DictOf(d.Get("V")) // a field holding its value directly
			}
			if !isSigDict(d) || a.placeholder(d) {
				continue // a placeholder that goes away takes no signature with it
			}
			kind := sigApproval
			if d.Name("Type") == "DocTimeStamp" {
				kind = sigTimestamp
			}
			listed[int(e.Num)] = true
			cands = append(cands, &candidate{removedSig: removedSig{num: int(e.Num), kind: kind}, first: r})
		}
	}
	if len(cands) == 0 {
		return out
	}
	for v := cands[0].first; v < n; v++ {
		attached, ok := a.attachedIn(v, &inv.budget)
		if !ok {
			out.truncated = true
			break
		}
		for _, c := range cands {
			if name, on := attached[c.num]; on && c.first <= v {
				c.seen, c.field = v, name
			}
		}
	}
	for _, c := range cands {
		if c.seen == 0 {
			out.orphans++
			continue
		}
		c.present, c.removedIn = c.seen, c.seen+1
		out.removed = append(out.removed, c.removedSig)
	}
	return out
}

// entriesHolding lists revision r's own in-use entries whose object text
// contains marker: for each occurrence in the revision's bytes, the entry
// that starts last before it. Only those objects are parsed.
func (a *analysis) entriesHolding(r int, marker string) []file.Entry {
	rev := a.f.Revisions[r-1]
	if rev.Start < 0 || rev.Start >= rev.End || rev.End > len(a.f.Data) {
		return nil
	}
	var byOffset []file.Entry
	for _, e := range rev.Entries {
		if e.Kind == file.InUse && e.Off >= int64(rev.Start) && e.Off < int64(rev.End) {
			byOffset = append(byOffset, e)
		}
	}
	slices.SortFunc(byOffset, func(x, y file.Entry) int { return cmp.Compare(x.Off, y.Off) })
	var out []file.Entry
	for pos := rev.Start; len(out) < len(byOffset); {
		i := bytes.Index(a.f.Data[pos:rev.End], []byte(marker))
		if i < 0 {
			break
		}
		at := pos + i
		pos = at + len(marker)
		j, _ := slices.BinarySearchFunc(byOffset, int64(at), func(e file.Entry, off int64) int { return cmp.Compare(e.Off, off) })
		if j > 0 && (len(out) == 0 || out[len(out)-1] != byOffset[j-1]) {
			out = append(out, byOffset[j-1])
		}
	}
	return out
}

// attachedIn maps the signature values revision v's view attaches (by
// value number, or field number for a direct value) to their field names.
func (a *analysis) attachedIn(v int, budget *int) (map[int]string, bool) {
	resolve := func(o cos.Object) cos.Object { return a.f.ResolveIn(o, v) }
	out := map[int]string{}
	cat := cos.DictOf(resolve(a.f.Revisions[v-1].Trailer.Get("Root")))
	if cat == nil {
		return out, true
	}
	form := a.walkForm(cat, v, budget)
	for _, fl := range form.fields {
		if fl.ft != "Sig" || !isSigDict(cos.DictOf(resolve(fl.value))) {
			continue
		}
		if n := refNum(fl.value); n > 0 {
			out[n] = fl.name
		} else if fl.num > 0 {
			out[fl.num] = fl.name
		}
	}
	if perms := cos.DictOf(resolve(cat.Get("Perms"))); perms != nil {
		for _, o := range perms.Vals {
			if n := refNum(o); n > 0 {
				if _, named := out[n]; !named {
					out[n] = ""
				}
			}
		}
	}
	return out, !form.truncated
}
