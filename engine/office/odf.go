package office

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/doctrust/doctrust/engine/internal/cfb"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// OpenDocument (.odt, .ods, .odp): a ZIP package like OOXML, read with the
// same bounded package reader. content.xml and styles.xml carry the text,
// scripts, links, hidden content and tracked changes; meta.xml the
// properties; Basic/ and Scripts/ the macros; "Object N" entries the
// embedded objects.

// odfScan is what the ODF walk collects.
type odfScan struct {
	basicModules []string // Basic/<library>/<module>.xml
	scripts      []string // Scripts/ entries (Python, JavaScript, BeanShell)
	eventMacros  int      // script:event-listener bindings
	loadEvents   []string // document events that run on load
	basicSource  []byte   // module sources, capped, for keyword scanning
	dde          int
	links        []linkEntry
	linkKinds    map[string]int
	objects      []oleObject
	packages     []string // embedded ODF documents (charts excluded)
}

// maxBasicSource caps the Basic source kept for keyword scanning.
const maxBasicSource = 4 << 20

// AnalyzeODF inspects an OpenDocument package the sniffer recognised as
// ODT, ODS or ODP. It returns ErrDeadline only when ctx ends.
func AnalyzeODF(ctx context.Context, data []byte, format sniff.Format, opt Options) (*report.Report, error) {
	a := &analysis{ctx: ctx, opt: opt, format: format}
	a.kind = map[sniff.Format]string{sniff.ODT: "word", sniff.ODS: "xl", sniff.ODP: "ppt"}[format]
	r := report.New(report.MediaOffice, int64(len(data)))
	a.pkg = OpenPackage(data, opt.Budget)
	var s odfScan
	a.props = odfMeta(a, a.pkg.ReadName("meta.xml"))
	var content []byte
	for _, name := range []string{"content.xml", "styles.xml"} {
		if b := a.pkg.ReadName(name); b != nil {
			a.scanODFContent(name, b, &s)
			if name == "content.xml" {
				content = b
			}
		}
	}
	a.scanODFParts(&s)
	if ctx.Err() != nil {
		return nil, ErrDeadline
	}
	a.fillODFBlocks(r, &s)
	for _, f := range []*report.Finding{
		s.macros(), linkFinding(s.linkKinds, s.links), s.embedded(), a.hiddenContent(),
		a.trackedChanges(), a.injectionMarkers(), a.metadataAnomalies(), a.odfFigures(content),
	} {
		if f != nil {
			r.Add(*f)
		}
	}
	r.Add(a.structure(false))
	r.Summary.Cost.ExpandedBytes = a.pkg.Expanded
	r.Finish()
	return r, nil
}

// odfMeta maps meta.xml onto the core.xml and app.xml names: the initial
// creator is the author, dc:creator the last editor, editing cycles the
// save count, the editing duration the editing minutes.
func odfMeta(a *analysis, data []byte) props {
	var pr props
	if data == nil {
		return pr
	}
	pr.corePresent, pr.appPresent = true, true
	w := newWalker(a.ctx, data)
	var cur, userName string
	var buf strings.Builder
	for k := w.next(); k != tokNone; k = w.next() {
		switch k {
		case tokStart:
			cur = w.start.Name.Local
			buf.Reset()
			if cur == "user-defined" {
				userName, _ = w.attr("name")
			}
			if cur == "document-statistic" {
				for _, n := range []string{"page-count", "word-count", "character-count"} {
					if v, ok := w.attr(n); ok {
						name := map[string]string{"page-count": "Pages", "word-count": "Words", "character-count": "Characters"}[n]
						pr.app = append(pr.app, prop{Name: name, Value: v})
					}
				}
			}
		case tokText:
			if buf.Len() < maxPropBytes {
				buf.Write(w.text)
			}
		case tokEnd:
			v := strings.TrimSpace(buf.String())
			buf.Reset()
			switch w.end.Name.Local {
			case "generator":
				pr.app = append(pr.app, prop{Name: "Application", Value: v})
			case "initial-creator":
				pr.core = append(pr.core, prop{Name: "creator", Value: v})
			case "creator":
				pr.core = append(pr.core, prop{Name: "lastModifiedBy", Value: v})
			case "creation-date":
				pr.core = append(pr.core, prop{Name: "created", Value: v})
			case "date":
				pr.core = append(pr.core, prop{Name: "modified", Value: v})
			case "editing-cycles":
				pr.core = append(pr.core, prop{Name: "revision", Value: v})
			case "editing-duration":
				if m, ok := isoMinutes(v); ok {
					pr.app = append(pr.app, prop{Name: "TotalTime", Value: strconv.Itoa(m)})
				}
			case "title", "subject", "description", "keyword", "language", "print-date", "printed-by", "template":
				if v != "" {
					pr.core = append(pr.core, prop{Name: w.end.Name.Local, Value: v})
				}
			case "user-defined":
				pr.custom = append(pr.custom, prop{Name: userName, Value: v})
			}
		}
	}
	if w.malformed() {
		a.malformed = append(a.malformed, "meta.xml")
	}
	return pr
}

var isoDuration = regexp.MustCompile(`^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.\d+)?S)?)?$`)

// isoMinutes reads an ISO 8601 duration (PnDTnHnMnS) as whole minutes.
func isoMinutes(v string) (int, bool) {
	m := isoDuration.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil {
		return 0, false
	}
	n := func(s string) int { x, _ := strconv.Atoi(s); return min(x, 1<<20) }
	return n(m[1])*1440 + n(m[2])*60 + n(m[3]), true
}

// scanODFContent walks content.xml or styles.xml.
func (a *analysis) scanODFContent(name string, data []byte, s *odfScan) {
	if s.linkKinds == nil {
		s.linkKinds = map[string]int{}
	}
	w := newWalker(a.ctx, data)
	hiddenStyles := map[string]bool{} // table and page styles that hide
	var styleName string
	inChange, inDeletion, inAnnotation := 0, 0, 0
	hiddenDepth := 0 // >0 inside hidden text, a hidden section or paragraph
	var hiddenBuf, delBuf, noteBuf strings.Builder
	rowHidden := false
	var hiddenCols []bool // column visibility of the current table
	col := 0              // column of the next cell
	inHiddenCell := false
	var cellBuf strings.Builder
	inCreator := false
	var creator strings.Builder
	for k := w.next(); k != tokNone; k = w.next() {
		switch k {
		case tokStart:
			el := w.start.Name.Local
			switch el {
			case "style":
				styleName, _ = w.attr("name")
			case "table-properties":
				if v, _ := w.attr("display"); v == "false" {
					hiddenStyles[styleName] = true
				}
			case "drawing-page-properties":
				if v, _ := w.attr("visibility"); v == "hidden" {
					hiddenStyles[styleName] = true
				}
			case "table":
				if st, _ := w.attr("style-name"); hiddenStyles[st] {
					a.xl.hiddenSheets++
				}
				hiddenCols = hiddenCols[:0]
			case "page":
				if st, _ := w.attr("style-name"); hiddenStyles[st] {
					a.ppt.hiddenSlides++
				}
			case "table-column":
				v, _ := w.attr("visibility")
				n := odfRepeat(w.attr("number-columns-repeated"))
				for i := 0; i < n && len(hiddenCols) < maxODFColumns; i++ {
					hiddenCols = append(hiddenCols, v == "collapse" || v == "filter")
				}
			case "table-row":
				v, _ := w.attr("visibility")
				rowHidden = v == "collapse" || v == "filter"
				col = 0
			case "table-cell", "covered-table-cell":
				_, valued := w.attr("value-type")
				colHidden := col < len(hiddenCols) && hiddenCols[col]
				inHiddenCell = valued && (rowHidden || colHidden)
				switch {
				case !valued:
				case rowHidden:
					a.xl.hiddenRowCells++
				case colHidden:
					a.xl.hiddenColCells++
				}
				cellBuf.Reset()
				col += odfRepeat(w.attr("number-columns-repeated"))
			case "hidden-text", "hidden-paragraph":
				hiddenDepth++
				if v, ok := w.attr("string-value"); ok && strings.TrimSpace(v) != "" {
					a.word.hiddenRuns++
					if len(a.word.hiddenText) < maxSnippets {
						a.word.hiddenText = append(a.word.hiddenText, v)
					}
				} else if el == "hidden-paragraph" {
					a.word.hiddenRuns++
				}
			case "section":
				if v, _ := w.attr("display"); v == "none" {
					a.word.hiddenRuns++
				}
			case "tracked-changes":
				inChange++
			case "insertion":
				if inChange > 0 {
					a.word.ins++
				}
			case "deletion":
				if inChange > 0 {
					a.word.del++
					inDeletion++
				}
			case "format-change":
				if inChange > 0 {
					a.word.formatting++
				}
			case "creator":
				inCreator = inChange > 0
				creator.Reset()
			case "annotation":
				inAnnotation++
				noteBuf.Reset()
			case "event-listener":
				s.eventMacros++
				ev, _ := w.attr("event-name")
				if lev := strings.ToLower(ev); strings.HasSuffix(lev, "load") || strings.HasSuffix(lev, "onnew") || strings.HasSuffix(lev, "open") {
					if len(s.loadEvents) < maxSnippets {
						s.loadEvents = append(s.loadEvents, ev)
					}
				}
			case "dde-connection-decl", "dde-source", "dde-link":
				s.dde++
			case "object", "object-ole", "image", "section-source", "table-source", "cell-range-source", "plugin", "applet", "floating-frame":
				href, _ := w.attr("href")
				if external := odfExternal(href); external != "" {
					kind := map[string]string{"object": "ole-link", "object-ole": "ole-link", "image": "remote-image",
						"section-source": "remote-subdocument", "table-source": "external-workbook",
						"cell-range-source": "external-workbook"}[el]
					if kind == "" {
						kind = "remote-frame"
					}
					s.linkKinds[kind]++
					if len(s.links) < maxSnippets {
						s.links = append(s.links, linkEntry{Kind: kind, Host: report.Untrusted(linkHost(external))})
					}
				}
			}
		case tokText:
			if inHiddenCell && cellBuf.Len() < 1024 {
				cellBuf.Write(w.text)
			}
			if hiddenDepth > 0 && hiddenBuf.Len() < 1024 {
				hiddenBuf.Write(w.text)
			}
			if inDeletion > 0 && delBuf.Len() < 1024 {
				delBuf.Write(w.text)
			}
			if inAnnotation > 0 && noteBuf.Len() < maxPropBytes {
				noteBuf.Write(w.text)
			}
			if inCreator && creator.Len() < 256 {
				creator.Write(w.text)
			}
		case tokEnd:
			switch w.end.Name.Local {
			case "hidden-text", "hidden-paragraph":
				if hiddenDepth > 0 {
					hiddenDepth--
				}
				if t := strings.TrimSpace(hiddenBuf.String()); t != "" && len(a.word.hiddenText) < maxSnippets {
					a.word.hiddenText = append(a.word.hiddenText, t)
				}
				hiddenBuf.Reset()
			case "tracked-changes":
				inChange--
			case "deletion":
				if inDeletion > 0 {
					inDeletion--
					a.word.addDeleted(delBuf.String())
					delBuf.Reset()
				}
			case "creator":
				if inCreator {
					a.word.addAuthor(creator.String())
				}
				inCreator = false
			case "annotation":
				if inAnnotation > 0 {
					inAnnotation--
					if t := strings.TrimSpace(noteBuf.String()); t != "" && len(a.comments) < maxSnippets {
						a.comments = append(a.comments, t)
					}
				}
			case "table-row":
				rowHidden = false
			case "table-cell", "covered-table-cell":
				if t := strings.TrimSpace(cellBuf.String()); inHiddenCell && t != "" && len(a.xl.recovered) < maxSnippets {
					a.xl.recovered = append(a.xl.recovered, t)
				}
				inHiddenCell = false
				cellBuf.Reset()
			}
		}
	}
	if w.malformed() {
		a.malformed = append(a.malformed, name)
	}
	if s.dde > 0 {
		s.linkKinds["dde"] = s.dde
	}
}

// maxODFColumns caps the column states kept for one table.
const maxODFColumns = 16384

// odfRepeat reads a number-*-repeated attribute: 1 when absent or bad,
// capped so that a hostile count cannot stall the walk.
func odfRepeat(v string, ok bool) int {
	n, err := strconv.Atoi(v)
	if !ok || err != nil || n < 1 {
		return 1
	}
	return min(n, maxODFColumns)
}

// odfExternal returns href when it points outside the package (a URL, a
// UNC or absolute path); "" for the package's own objects ("./Object 1").
func odfExternal(href string) string {
	h := strings.TrimSpace(href)
	switch {
	case h == "", strings.HasPrefix(h, "./"), strings.HasPrefix(h, "#"):
		return ""
	case strings.Contains(h, "://"), strings.HasPrefix(h, `\\`), strings.HasPrefix(h, "//"), strings.HasPrefix(strings.ToLower(h), "file:"):
		return h
	case strings.HasPrefix(h, "../"), strings.HasPrefix(h, "/"), len(h) > 2 && h[1] == ':':
		return h
	}
	return ""
}

// scanODFParts looks at the package's entries: Basic libraries, scripts
// and embedded objects.
func (a *analysis) scanODFParts(s *odfScan) {
	for _, p := range a.pkg.Parts {
		if a.ctx.Err() != nil {
			return
		}
		n := p.Name
		low := p.lower
		switch {
		case strings.HasPrefix(low, "basic/") && strings.HasSuffix(low, ".xml") && !strings.HasSuffix(low, "/script-lb.xml") && !strings.HasSuffix(low, "/script-lc.xml") && !strings.HasSuffix(low, "/dialog-lb.xml") && !strings.HasSuffix(low, "/dialog-lc.xml"):
			s.basicModules = append(s.basicModules, n)
			if len(s.basicSource) < maxBasicSource {
				s.basicSource = append(s.basicSource, a.pkg.Read(p)...)
				s.basicSource = append(s.basicSource, '\n')
			}
		case strings.HasPrefix(low, "scripts/") && !strings.HasSuffix(low, "/"):
			s.scripts = append(s.scripts, n)
		case strings.HasPrefix(low, "object ") && !strings.Contains(low, "/"):
			b := a.pkg.Read(p)
			if f := cfb.Open(b, maxOLEStorage); f != nil {
				s.objects = append(s.objects, objectFrom(f, 0))
			} else if len(b) > 0 {
				s.objects = append(s.objects, oleObject{})
			}
		case strings.HasPrefix(low, "object ") && strings.HasSuffix(low, "/content.xml"):
			dir := n[:len(n)-len("/content.xml")]
			if !a.odfChart(dir) {
				s.packages = append(s.packages, dir)
			}
		}
	}
}

// odfChart reports an embedded object the manifest declares a chart: how
// every chart is stored, not an object someone embedded.
func (a *analysis) odfChart(dir string) bool {
	m := a.pkg.ReadName("META-INF/manifest.xml")
	if m == nil {
		return false
	}
	w := newWalker(a.ctx, m)
	for k := w.next(); k != tokNone; k = w.next() {
		if k == tokStart && w.start.Name.Local == "file-entry" {
			full, _ := w.attr("full-path")
			if strings.TrimSuffix(full, "/") == dir {
				mt, _ := w.attr("media-type")
				return strings.Contains(mt, "opendocument.chart")
			}
		}
	}
	return false
}

// macros: Basic modules and scripts are the ODF macros; a module whose
// document event runs on load and whose source uses a keyword malware
// needs is the high variant, as for VBA.
func (s *odfScan) macros() *report.Finding {
	if len(s.basicModules)+len(s.scripts) == 0 && s.eventMacros == 0 {
		return nil
	}
	p := vbaProject{modules: append(append([]string(nil), s.basicModules...), s.scripts...)}
	auto, kw := map[string]bool{}, map[string]bool{}
	scanVBASource(unescapeXMLText(s.basicSource), auto, kw)
	p.keywords = sortedKeys(kw)
	p.autoExec = append([]string(nil), s.loadEvents...)
	for k := range auto {
		p.autoExec = append(p.autoExec, k)
	}
	if len(p.modules) == 0 {
		// Event bindings to macros outside the document (an application
		// library) still say the document runs code.
		p.modules = []string{}
	}
	f := macroFinding([]vbaProject{p}, 0, nil)
	f.Evidence["eventBindings"] = s.eventMacros
	f.Evidence["basicModules"] = len(s.basicModules)
	f.Evidence["scripts"] = len(s.scripts)
	return f
}

// unescapeXMLText undoes the five predefined entities of a Basic module's
// XML, enough for keyword matching.
func unescapeXMLText(b []byte) []byte {
	r := strings.NewReplacer("&quot;", `"`, "&apos;", "'", "&lt;", "<", "&gt;", ">", "&amp;", "&")
	return []byte(r.Replace(string(b)))
}

// embedded reports OLE objects and embedded ODF documents.
func (s *odfScan) embedded() *report.Finding {
	f := objectFinding(s.objects)
	if len(s.packages) == 0 {
		return f
	}
	if f == nil {
		ev := map[string]any{"oleObjects": 0, "packages": len(s.packages), "activeX": 0, "fonts": 0, "executables": 0}
		report.Capped(ev, "parts", untrustedList(s.packages))
		return &report.Finding{Family: report.FamilyOfficeEmbeddedObjects, Severity: report.Low, Evidence: ev,
			Message: report.Msg("office-embedded-objects.package", "ole", 0, "packages", len(s.packages), "activex", 0, "fonts", 0)}
	}
	f.Evidence["packages"] = len(s.packages)
	return f
}

func (a *analysis) fillODFBlocks(r *report.Report, s *odfScan) {
	parts := len(a.pkg.Parts)
	fillPropertyBlocks(r, &a.props, a.format, &parts, len(s.basicModules)+len(s.scripts) > 0)
	d := &r.Document
	d.Signed = a.pkg.Lookup("META-INF/documentsignatures.xml") != nil
}
