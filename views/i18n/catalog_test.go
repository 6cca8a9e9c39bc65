package i18n_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"cacao/views/i18n"
)

var update = flag.Bool("update", false, "rewrite the catalogs: add missing keys (empty), drop unused ones")

// The packages whose text reaches players.
var sourceDirs = []string{"../../views", "../../handlers", "../../handlers/api", "../../models", "../../engine", "../../handlers/mail"}

// Calls that take a message: function name -> index of the catalog key.
// Views and handlers call t(ctx, msg, ...) and tn(ctx, one, other, n, ...);
// a *Lang's T(msg, ...), Sentence(msg, ...) and N(one, other, n, ...) (the
// handlers' sentence(c, msg, ...) too); the engine's illegal and
// the models' invalid and note build errors and notices from a message.
var keyArg = map[string]int{"t": 1, "tn": 2, "T": 0, "Sentence": 0, "N": 1, "sentence": 1, "illegal": 0, "invalid": 0, "tr": 1, "refusal": 1, "notify": 5, "newsOf": 2}

// Calls whose message must be a literal (T, Sentence and N may pass on a variable:
// they are also how the code translates a message it was given).
var checked = map[string]bool{"t": true, "tn": true, "sentence": true, "illegal": true, "invalid": true, "tr": true, "refusal": true, "notify": true, "newsOf": true}

// Functions that pass a message through (their own parameter) to one of
// the calls above.
var passThrough = map[string]bool{"t": true, "tn": true, "T": true, "Sentence": true, "N": true, "sentence": true, "illegal": true, "invalid": true, "tr": true, "refusal": true, "notify": true, "newsOf": true}

type use struct {
	key    string
	at     string
	plural bool // a message about a count (N, tn)
}

// messages finds every message the code passes to the calls above, and
// fails on a message that is not a literal (it could not be checked).
func messages(t *testing.T) []use {
	var out []use
	fset := token.NewFileSet()
	for _, dir := range sourceDirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range f.Decls {
				encl := ""
				if fn, ok := decl.(*ast.FuncDecl); ok {
					encl = fn.Name.Name
				}
				ast.Inspect(decl, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					var fname string
					switch fun := call.Fun.(type) {
					case *ast.Ident:
						fname = fun.Name
					case *ast.SelectorExpr:
						fname = fun.Sel.Name
						// Only notify is a method; the others are functions.
						if checked[fname] && fname != "notify" {
							return true
						}
					}
					i, ok := keyArg[fname]
					if !ok || len(call.Args) <= i {
						return true
					}
					// T and N also name other methods (testing.T...): only
					// calls whose key argument is a string count.
					pos := fset.Position(call.Pos()).String()
					switch a := call.Args[i].(type) {
					case *ast.BasicLit:
						if a.Kind != token.STRING {
							return true
						}
						s, err := strconv.Unquote(a.Value)
						if err != nil {
							t.Fatalf("%s: %v", pos, err)
						}
						out = append(out, use{s, pos, fname == "N" || fname == "tn"})
					default:
						if !passThrough[encl] && checked[fname] {
							t.Errorf("%s: the message passed to %s is not a literal, so its translation cannot be checked", pos, fname)
						}
					}
					return true
				})
			}
		}
	}
	return out
}

func keys(uses []use) []string {
	set := map[string]bool{}
	for _, u := range uses {
		set[u.key] = true
	}
	var out []string
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestCatalogsComplete fails when an interface message lacks a translation
// in one of the languages, or a translation does not use the same
// arguments as its English text.
func TestCatalogsComplete(t *testing.T) {
	uses := messages(t)
	all := keys(uses)
	if len(all) < 100 {
		t.Fatalf("found only %d messages: the scan is broken", len(all))
	}
	where, plural := map[string]string{}, map[string]bool{}
	for _, u := range uses {
		where[u.key] = u.at
		plural[u.key] = plural[u.key] || u.plural
	}
	for _, l := range i18n.All[1:] {
		path := filepath.Join("catalog", l.Code+".json")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cat, err := i18n.ReadCatalog(data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if *update {
			next := map[string]any{}
			for _, k := range all {
				if e := cat[k]; e.Forms != nil {
					next[k] = e.Forms
				} else {
					next[k] = e.Text
				}
			}
			data, _ := json.MarshalIndent(next, "", "  ")
			if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		cats := i18n.Categories(l.Tag())
		var missing []string
		for _, k := range all {
			e := cat[k]
			if e.Text == "" && e.Forms == nil {
				missing = append(missing, fmt.Sprintf("%q (%s)", k, where[k]))
				continue
			}
			texts := []string{e.Text}
			if e.Forms != nil {
				texts = nil
				var got []string
				for c, tr := range e.Forms {
					got = append(got, c)
					texts = append(texts, tr)
				}
				sort.Strings(got)
				if !plural[k] {
					t.Errorf("%s: %q is not about a count, yet has plural forms %v", l.Code, k, got)
				} else if !slices.Equal(got, cats) {
					t.Errorf("%s: %q has the plural forms %v; the language's counts take %v (CLDR)", l.Code, k, got, cats)
				}
			} else if plural[k] && l.Plurals {
				t.Errorf("%s: %q is about a count: give its forms for %v (CLDR), not one text", l.Code, k, cats)
			}
			for _, tr := range texts {
				if want, got := i18n.Verbs(k), i18n.Verbs(tr); !slices.Equal(want, got) {
					t.Errorf("%s: %q uses arguments %v, its English text %q uses %v", l.Code, tr, got, k, want)
				}
			}
		}
		if len(missing) > 0 {
			t.Errorf("%s: %d of %d messages have no translation (run with -update to list them in %s):\n%s", l.Code, len(missing), len(all), path, strings.Join(missing, "\n"))
		}
		for k := range cat {
			if !slices.Contains(all, k) {
				t.Errorf("%s: %q is translated but no longer used (run with -update to drop it)", l.Code, k)
			}
		}
	}
}

var (
	attrRe = regexp.MustCompile(`(?:aria-label|title|alt|placeholder)="([^"]*)`)
	wordRe = regexp.MustCompile(`\pL{2,}`)
)

// TestNoBareTemplateText fails when a template writes words of its own:
// interface text in templates must go through t or tn. It reads the
// generated code's literal writes in order, as an HTML tokenizer would,
// and looks at the text between tags and at text attributes.
func TestNoBareTemplateText(t *testing.T) {
	files, _ := filepath.Glob("../../views/*_templ.go")
	if len(files) == 0 {
		t.Fatal("no generated templates found")
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		inTag, inQuote := false, false
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "WriteString" || len(call.Args) != 3 {
				return true
			}
			lit, ok := call.Args[2].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, _ := strconv.Unquote(lit.Value)
			checked++
			for _, m := range attrRe.FindAllStringSubmatch(s, -1) {
				if wordRe.MatchString(m[1]) {
					t.Errorf("%s: attribute text %q is not translated", fset.Position(lit.Pos()), m[1])
				}
			}
			var text strings.Builder
			for _, r := range s {
				switch {
				case inTag && r == '"':
					inQuote = !inQuote
				case inTag && !inQuote && r == '>':
					inTag = false
				case !inTag && r == '<':
					inTag = true
					text.WriteRune(' ')
				case !inTag:
					text.WriteRune(r)
				}
			}
			if w := wordRe.FindString(text.String()); w != "" {
				t.Errorf("%s: template text %q is not translated", fset.Position(lit.Pos()), strings.TrimSpace(text.String()))
			}
			return true
		})
	}
	if checked < 50 {
		t.Fatalf("checked only %d template writes: the scan is broken", checked)
	}
}
