package report

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestFamilyIDsAreConstants: a FamilyID is a string type, so the compiler
// still accepts a quoted id where one is expected; this holds the engine to
// the constants, so a misspelt id cannot slip in as a literal. It flags a
// quoted string given to a Family field (Finding, the catalogue's rows, the
// corroboration table) or as the family argument of Compose, inject's
// Finding and sigs' finding, anywhere in the engine but this package's
// declaration of the ids.
func TestFamilyIDsAreConstants(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		if filepath.ToSlash(path) == "../report/families.go" {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var lit ast.Expr
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Family" {
					lit = n.Value
				}
			case *ast.CallExpr:
				if len(n.Args) > 0 && familyCall(n.Fun) {
					lit = n.Args[0]
				}
			}
			if b, ok := lit.(*ast.BasicLit); ok && b.Kind == token.STRING {
				t.Errorf("%s: family id %s written as a literal; use its report.Family... constant", fset.Position(b.Pos()), b.Value)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func familyCall(fun ast.Expr) bool {
	name := ""
	switch f := fun.(type) {
	case *ast.Ident:
		name = f.Name
	case *ast.SelectorExpr:
		name = f.Sel.Name
	}
	return name == "Compose" || name == "Finding" || name == "finding"
}
