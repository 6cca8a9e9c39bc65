package models

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"strings"
	"testing"
)

// TestEveryKindIsKnown: every constant of type Kind in the package is in
// kinds (but turnAndChoice, which startWaiting turns into a KindTurn
// notice), and every notice the package writes names its kind by a
// constant, not a string: a kind added without its rule fails here rather
// than go undelivered. A kind not in kinds is refused when written.
func TestEveryKindIsKnown(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	kindArg := map[string]int{"notify": 4, "newsOf": 0, "startWaiting": 5} // the kind's place among the arguments
	consts := 0
	for _, f := range pkgs["models"].Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				if id, ok := n.Type.(*ast.Ident); !ok || id.Name != "Kind" {
					return true
				}
				for i, name := range n.Names {
					lit, ok := n.Values[i].(*ast.BasicLit)
					if !ok {
						t.Errorf("%s: the kind %s is not a string", fset.Position(n.Pos()), name.Name)
						continue
					}
					consts++
					if k := Kind(strings.Trim(lit.Value, `"`)); !k.Known() && name.Name != "turnAndChoice" {
						t.Errorf("%s: the kind %s (%q) is not in kinds", fset.Position(n.Pos()), name.Name, k)
					}
				}
			case *ast.CallExpr:
				var fn string
				switch f := n.Fun.(type) {
				case *ast.Ident:
					fn = f.Name
				case *ast.SelectorExpr:
					fn = f.Sel.Name
				}
				if i, ok := kindArg[fn]; ok && i < len(n.Args) {
					if lit, ok := n.Args[i].(*ast.BasicLit); ok && lit.Value != `""` {
						t.Errorf("%s: %s names its kind by the string %s: use a Kind constant", fset.Position(n.Pos()), fn, lit.Value)
					}
				}
			}
			return true
		})
	}
	if consts != len(kinds)+1 {
		t.Errorf("%d constants of type Kind; kinds has %d (and turnAndChoice is one more)", consts, len(kinds))
	}
	for k, r := range kinds {
		if r.news != 0 && r.news.Name() == "" {
			t.Errorf("the kind %q is news %d, which has no name", k, r.news)
		}
	}
	if _, err := newsOf("moved", 1, "Something moved."); err == nil {
		t.Error("a notice of a kind not in kinds was written")
	}
}
