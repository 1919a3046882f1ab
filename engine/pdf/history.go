package pdf

import (
	"strings"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/producers"
	"github.com/doctrust/doctrust/engine/xmp"
)

// maxHistoryRevisions bounds the revisions whose metadata is read: the
// first ones and the newest, so a file of thousands of tiny updates costs
// no more than a long genuine signing history.
const maxHistoryRevisions = 64

// revisionMeta is what one revision's metadata says about the software
// that wrote it, as that revision saw the file: the Info dictionary and the
// XMP packet of its catalogue.
type revisionMeta struct {
	revision                         int
	producer, creator                string   // Info
	xmpProducer, xmpCreator, toolkit string   // pdf:Producer, xmp:CreatorTool, x:xmptk
	agents                           []string // xmpMM:History stEvt:softwareAgent
	created, modified                cos.Date
	hasCreated, hasModified          bool
	// signed: the revision added a signature; signing tools restamp the
	// producer as a matter of course.
	signed bool
}

// claimed is every producer and creator value the revision names, and
// the software agents of its XMP editing history.
func (m revisionMeta) claimed() []string {
	return append([]string{m.producer, m.creator, m.xmpProducer, m.xmpCreator}, m.agents...)
}

// editors are the PDF editors the revision's producer, creator and XMP
// history name (the XMP toolkit aside: it is not a claim about who wrote
// the document).
func (m revisionMeta) editors() []producers.Tool {
	var out []producers.Tool
	for _, t := range producers.Identify(m.claimed()...) {
		if t.Class.IsEditor() {
			out = append(out, t)
		}
	}
	return out
}

// metadataHistory reads the metadata of every revision, oldest first, up
// to maxHistoryRevisions (the newest always included). Nil for a file with
// one revision or an encrypted one.
func (a *analysis) metadataHistory() []revisionMeta {
	n := len(a.f.Revisions)
	if n < 2 || a.f.Encrypted {
		return nil
	}
	signed := map[int]bool{}
	for _, ch := range a.revisionChanges() {
		signed[ch.Revision] = ch.Touched.Signatures > 0
	}
	var out []revisionMeta
	var prevXMP *xmp.Packet
	prevRef := -1
	for k := 1; k <= n; k++ {
		if k >= maxHistoryRevisions && k < n {
			continue
		}
		if a.f.Err() != nil {
			break
		}
		m := revisionMeta{revision: k, signed: signed[k]}
		var info *cos.Dict
		var x *xmp.Packet
		if k == n {
			info, x = a.info, a.xmp
		} else {
			view := k
			trailer := a.f.Revisions[k-1].Trailer
			info = cos.DictOf(a.f.ResolveIn(trailer.Get("Info"), view))
			x = prevXMP
			if root := cos.DictOf(a.f.ResolveIn(trailer.Get("Root"), view)); root != nil {
				ref, isRef := root.Get("Metadata").(cos.Ref)
				_, written := a.f.Revisions[k-1].Find(ref.Num)
				// The same XMP object, not rewritten by this revision, is
				// the packet already read.
				switch {
				case !isRef:
					x = nil
				case written || ref.Num != prevRef || prevXMP == nil:
					x = nil
					if st, ok := a.f.ResolveIn(ref, view).(*cos.Stream); ok {
						x = a.decodeXMP(st)
					}
				}
				prevRef = ref.Num
			} else {
				x = nil
			}
			prevXMP = x
		}
		if info != nil {
			text := func(key cos.Name) string { return cos.Text(a.f.ResolveIn(info.Get(key), k)) }
			m.producer, m.creator = text("Producer"), text("Creator")
			if s := text("CreationDate"); s != "" {
				m.created, m.hasCreated = cos.ParseDate(s)
			}
			if s := text("ModDate"); s != "" {
				m.modified, m.hasModified = cos.ParseDate(s)
			}
		}
		m.xmpProducer, m.xmpCreator, m.toolkit = x.First(nsPDF, "Producer"), x.First(nsXMP, "CreatorTool"), x.First(nsMeta, "xmptk")
		m.agents = x.All(nsEvt, "softwareAgent")
		out = append(out, m)
	}
	return out
}

// historyFindings are the producer-history facts of a revised file.
type historyFindings struct {
	// laundered: editors an earlier revision named (producer, creator or
	// XMP history) while the newest revision names no editor at all;
	// namedIn and clearedIn are the revisions that named and first dropped
	// them.
	laundered          []producers.Tool
	namedIn, clearedIn int
	// changed lists what changed between two consecutive unsigned
	// revisions: producer, creator, creationDate, modDateRolledBack.
	changed []string
}

// readHistory compares the revisions' metadata.
func readHistory(h []revisionMeta) historyFindings {
	var out historyFindings
	if len(h) < 2 {
		return out
	}
	final := h[len(h)-1]
	if len(final.editors()) == 0 {
		seen := map[string]bool{}
		for i, m := range h[:len(h)-1] {
			for _, t := range m.editors() {
				if seen[t.Name] {
					continue
				}
				// The revision that dropped the name: a signing revision
				// restamps the producer and is no concealment.
				j := clearedAt(h, i, t)
				if j < 0 || h[j].signed {
					continue
				}
				seen[t.Name] = true
				if len(out.laundered) == 0 {
					out.namedIn, out.clearedIn = m.revision, h[j].revision
				}
				out.laundered = append(out.laundered, t)
			}
		}
	}
	changed := map[string]bool{}
	for i := 1; i < len(h); i++ {
		prev, cur := h[i-1], h[i]
		if cur.signed || prev.revision+1 != cur.revision {
			continue
		}
		if toolChanged(prev.producer, cur.producer) || toolChanged(prev.xmpProducer, cur.xmpProducer) {
			changed["producer"] = true
		}
		if toolChanged(prev.creator, cur.creator) || toolChanged(prev.xmpCreator, cur.xmpCreator) {
			changed["creator"] = true
		}
		if prev.hasCreated && cur.hasCreated && datesDiffer(prev.created, cur.created) {
			changed["creationDate"] = true
		}
		if prev.hasModified && cur.hasModified && before(cur.modified, prev.modified) {
			changed["modDateRolledBack"] = true
		}
	}
	for _, k := range []string{"producer", "creator", "creationDate", "modDateRolledBack"} {
		if changed[k] {
			out.changed = append(out.changed, k)
		}
	}
	return out
}

// clearedAt is the index of the first revision after i whose producer,
// creator and XMP history no longer name t, or -1.
func clearedAt(h []revisionMeta, i int, t producers.Tool) int {
	for j := i + 1; j < len(h); j++ {
		named := false
		for _, u := range h[j].editors() {
			if u.Name == t.Name {
				named = true
			}
		}
		if !named {
			return j
		}
	}
	return -1
}

// toolChanged reports a producer or creator value that names different
// software in two revisions: both present, and the later one no longer
// naming every tool the earlier one named (for unrecognised values: no
// longer starting with the same text once versions are set aside). A value
// that appears or disappears is not a change of tool, and neither is a
// tool added to the chain ("X; modified using iText", "X; pyHanko"): that
// is how processing steps stamp themselves.
func toolChanged(a, b string) bool {
	if strings.TrimSpace(a) == "" || strings.TrimSpace(b) == "" {
		return false
	}
	ta, tb := producers.Match(a), producers.Match(b)
	if len(ta) == 0 && len(tb) == 0 {
		return !strings.HasPrefix(versionless(b), versionless(a))
	}
	for _, t := range ta {
		if !hasTool(tb, t) {
			return true
		}
	}
	return len(ta) == 0
}

// versionless lower-cases s and drops digits, dots and spaces, so "Foo 1.2"
// and "Foo 1.3" compare equal.
func versionless(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' || r == '.' || r == ' ' || r == '-' || r == '_' {
			return -1
		}
		return r
	}, strings.ToLower(s))
}
