package main

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// family is one declaration as read from the source.
type family struct {
	varName, id, summary               string
	order                              int
	contentDependent, triageSuppressed bool
	hasRun                             bool
	evidence                           []string
	variants                           []variant
	pos                                string
}

type variant struct {
	code, title, text string
	// severity and upTo name report's severity constants (Low, Medium
	// ...), upTo equal to severity when the declaration gives none; a
	// note has neither.
	severity, upTo string
}

// readDeclarations parses the package in dir and returns its family
// declarations in their declared order. It reads the literals only: a
// declaration must spell its id, order, summary, flags and texts as
// constants, which is what a reader of the family file wants anyway.
func readDeclarations(dir string) ([]family, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var out []family
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_gen.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if len(vs.Values) != 1 {
					continue
				}
				lit, ok := vs.Values[0].(*ast.CompositeLit)
				if !ok || !isIdent(lit.Type, "declaration") {
					continue
				}
				fam, err := readFamily(fset, lit)
				if err != nil {
					return nil, err
				}
				fam.varName = vs.Names[0].Name
				out = append(out, fam)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no family declarations in %s", dir)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].order < out[j].order })
	for _, f := range out[1:] {
		if f.hasRun != out[0].hasRun {
			return nil, fmt.Errorf("%s: in one package either every family names its analyser (Run) or none does", f.pos)
		}
	}
	seen := map[string]string{}
	for i, f := range out {
		if i > 0 && out[i-1].order == f.order {
			return nil, fmt.Errorf("%s: order %d is also %s's", f.pos, f.order, out[i-1].id)
		}
		if prev, ok := seen[f.id]; ok {
			return nil, fmt.Errorf("%s: id %s is declared twice (also %s)", f.pos, f.id, prev)
		}
		seen[f.id] = f.pos
	}
	return out, nil
}

func readFamily(fset *token.FileSet, lit *ast.CompositeLit) (family, error) {
	fam := family{pos: fset.Position(lit.Pos()).String()}
	fail := func(format string, args ...any) (family, error) {
		return family{}, fmt.Errorf("%s: %s", fam.pos, fmt.Sprintf(format, args...))
	}
	err := eachField(lit, func(key string, v ast.Expr) (err error) {
		switch key {
		case "ID":
			fam.id, err = stringOf(v)
		case "Summary":
			fam.summary, err = stringOf(v)
		case "Order":
			fam.order, err = intOf(v)
		case "ContentDependent":
			fam.contentDependent, err = boolOf(v)
		case "TriageSuppressed":
			fam.triageSuppressed, err = boolOf(v)
		case "Evidence":
			fam.evidence, err = stringsOf(v)
		case "Variants":
			fam.variants, err = readVariants(v)
		case "Run":
			// the run list takes the declaration itself
			fam.hasRun = true
		default:
			return fmt.Errorf("familygen does not know the field %s", key)
		}
		return err
	})
	if err != nil {
		return fail("%v", err)
	}
	switch {
	case fam.id == "":
		return fail("a declaration needs an id")
	case fam.order <= 0:
		return fail("%s needs a positive order", fam.id)
	case fam.summary == "":
		return fail("%s needs a summary", fam.id)
	case len(fam.variants) == 0:
		return fail("%s declares no variant", fam.id)
	}
	return fam, nil
}

func readVariants(e ast.Expr) ([]variant, error) {
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil, fmt.Errorf("want a []variant literal")
	}
	var out []variant
	for _, elt := range lit.Elts {
		vl, ok := elt.(*ast.CompositeLit)
		if !ok {
			return nil, fmt.Errorf("want a variant literal")
		}
		var v variant
		err := eachField(vl, func(key string, e ast.Expr) (err error) {
			switch key {
			case "Code":
				v.code, err = stringOf(e)
			case "Title":
				v.title, err = stringOf(e)
			case "Text":
				v.text, err = stringOf(e)
			case "Severity":
				v.severity, err = severityOf(e)
			case "UpTo":
				v.upTo, err = severityOf(e)
			default:
				err = fmt.Errorf("unknown variant field %s", key)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		switch {
		case v.code == "" || v.text == "":
			return nil, fmt.Errorf("a variant needs a code and a text")
		case v.severity != "" && v.title == "":
			return nil, fmt.Errorf("variant %s states a severity but has no title", v.code)
		case v.severity == "" && (v.title != "" || v.upTo != ""):
			return nil, fmt.Errorf("variant %s has a title or upTo but no severity (a note has neither)", v.code)
		case v.upTo != "" && severityRank[v.upTo] <= severityRank[v.severity]:
			return nil, fmt.Errorf("variant %s: UpTo %s is not above %s", v.code, v.upTo, v.severity)
		}
		if v.upTo == "" {
			v.upTo = v.severity // a single severity: the range is one wide
		}
		out = append(out, v)
	}
	return out, nil
}

// eachField hands each keyed field of a composite literal to fn, which
// names the field in its error.
func eachField(lit *ast.CompositeLit, fn func(key string, v ast.Expr) error) error {
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return fmt.Errorf("fields must be keyed")
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok {
			return fmt.Errorf("fields must be keyed by name")
		}
		if err := fn(key.Name, kv.Value); err != nil {
			return fmt.Errorf("%s: %w", key.Name, err)
		}
	}
	return nil
}

// stringOf evaluates a string literal or a sum of them.
func stringOf(e ast.Expr) (string, error) {
	v, err := eval(e)
	if err != nil || v.Kind() != constant.String {
		return "", fmt.Errorf("want a string constant")
	}
	return constant.StringVal(v), nil
}

func intOf(e ast.Expr) (int, error) {
	v, err := eval(e)
	if err != nil || v.Kind() != constant.Int {
		return 0, fmt.Errorf("want an integer constant")
	}
	n, ok := constant.Int64Val(v)
	if !ok {
		return 0, fmt.Errorf("integer out of range")
	}
	return int(n), nil
}

// severityRank orders report's severity constants.
var severityRank = map[string]int{"Info": 0, "Low": 1, "Medium": 2, "High": 3}

// severityOf reads report.Low and the like.
func severityOf(e ast.Expr) (string, error) {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || !isIdent(sel.X, "report") {
		return "", fmt.Errorf("want report.Info, report.Low, report.Medium or report.High")
	}
	if _, ok := severityRank[sel.Sel.Name]; !ok {
		return "", fmt.Errorf("%s is not a severity", sel.Sel.Name)
	}
	return sel.Sel.Name, nil
}

// stringsOf reads a []string literal of constants.
func stringsOf(e ast.Expr) ([]string, error) {
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil, fmt.Errorf("want a []string literal")
	}
	var out []string
	for _, elt := range lit.Elts {
		s, err := stringOf(elt)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func boolOf(e ast.Expr) (bool, error) {
	if isIdent(e, "true") {
		return true, nil
	}
	if isIdent(e, "false") {
		return false, nil
	}
	return false, fmt.Errorf("want true or false")
}

func eval(e ast.Expr) (constant.Value, error) {
	switch e := e.(type) {
	case *ast.BasicLit:
		v := constant.MakeFromLiteral(e.Value, e.Kind, 0)
		if v.Kind() == constant.Unknown {
			return nil, fmt.Errorf("bad literal")
		}
		return v, nil
	case *ast.ParenExpr:
		return eval(e.X)
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			break
		}
		x, err := eval(e.X)
		if err != nil {
			return nil, err
		}
		y, err := eval(e.Y)
		if err != nil {
			return nil, err
		}
		return constant.BinaryOp(x, token.ADD, y), nil
	}
	return nil, fmt.Errorf("not a constant")
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// constName is the report constant of a family id: hidden-text is
// FamilyHiddenText.
func constName(id string) string {
	var b strings.Builder
	b.WriteString("Family")
	for _, w := range strings.Split(id, "-") {
		if w == "" {
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

func quote(s string) string { return strconv.Quote(s) }
