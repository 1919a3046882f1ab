package office

import (
	"context"
	"strings"
	"time"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// Options configure one analysis.
type Options struct {
	// Now is the time of analysis, used only to flag dates in the future;
	// the zero value skips that check.
	Now time.Time
	// Budget caps the decompressed bytes of the whole package; 0 means
	// DefaultBudget.
	Budget int64
}

// ErrDeadline is returned when the context ends during analysis.
var ErrDeadline = report.ErrDeadline.Named("office: deadline exceeded")

// analysis carries what the walk learned to the family functions.
type analysis struct {
	ctx    context.Context
	opt    Options
	format sniff.Format
	pkg    *Package
	ct     *contentTypes
	rels   []rel
	props  props
	// main is the officeDocument part; kind is "word", "xl" or "ppt" from
	// the main part's content type, falling back to its folder.
	main, kind string
	word       wordScan
	xl         xlScan
	ppt        pptScan
	comments   []string // comment texts (Word and Excel), attacker-authored
	malformed  []string // parts whose XML stopped early (malformed or at a limit)
}

// Analyze inspects an Office Open XML package the sniffer recognised as
// format. It returns ErrDeadline only when ctx ends; every file, hostile or
// damaged, otherwise gets a report.
func Analyze(ctx context.Context, data []byte, format sniff.Format, opt Options) (*report.Report, error) {
	a := &analysis{ctx: ctx, opt: opt, format: format}
	r := report.New(report.MediaOffice, int64(len(data)))
	a.pkg = OpenPackage(data, opt.Budget)
	a.walk()
	if ctx.Err() != nil {
		return nil, ErrDeadline
	}
	a.fillBlocks(r)
	// The run list (runlist_gen.go) ends with the structure family: it
	// reports on every limit the other walks hit, and it always carries the
	// blind-spot disclosure.
	for _, fam := range families {
		if f := fam.Run(a); f != nil {
			r.Add(*f)
		}
	}
	// figure-arithmetic is declared with the PDF families whose content
	// walk it shares; on an Office file it reads the tables (figures.go).
	if f := a.figureArithmetic(); f != nil {
		r.Add(*f)
	}
	r.Summary.Cost.ExpandedBytes = a.pkg.Expanded
	r.Finish()
	return r, nil
}

// walk reads the package parts every family needs, each at most once.
func (a *analysis) walk() {
	a.ct = readContentTypes(a.ctx, a.pkg)
	if a.ct.malformed {
		a.malformed = append(a.malformed, "[Content_Types].xml")
	}
	var bad []string
	a.rels, bad = readRels(a.ctx, a.pkg)
	a.malformed = append(a.malformed, bad...)
	a.props, bad = readProps(a.ctx, a.pkg)
	a.malformed = append(a.malformed, bad...)
	for _, r := range a.rels {
		if r.Source == "" && r.Type == "officeDocument" && !r.External && a.pkg.Lookup(r.Resolved) != nil {
			a.main = a.pkg.Lookup(r.Resolved).Name
			break
		}
	}
	a.kind = mainKind(a.format, a.main)
	switch a.kind {
	case "word":
		a.scanWord()
	case "xl":
		a.scanExcel()
	case "ppt":
		a.scanPowerPoint()
	}
}

// mainKind decides which walker applies. The sniffer already decided the
// format from the main part's content type, so it is trusted over names.
func mainKind(f sniff.Format, main string) string {
	switch f {
	case sniff.DOCX, sniff.DOCM:
		return "word"
	case sniff.XLSX, sniff.XLSM:
		return "xl"
	case sniff.PPTX, sniff.PPTM:
		return "ppt"
	}
	dir, _, _ := strings.Cut(strings.ToLower(main), "/")
	return dir
}

// fillBlocks sets the office block and the document block (SPEC.md: for
// Office, producer is the writing application, creator the recorded author,
// revisions the cp:revision save counter).
func (a *analysis) fillBlocks(r *report.Report) {
	parts := len(a.pkg.Parts)
	fillPropertyBlocks(r, &a.props, a.format, &parts, a.hasMacros())
	d := &r.Document
	d.Signed = a.pkg.Lookup("_xmlsignatures/origin.sigs") != nil || len(a.pkg.Matching("_xmlsignatures/", ".xml")) > 0
}
