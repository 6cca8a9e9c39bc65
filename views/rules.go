package views

import (
	"embed"
)

//go:embed rules/*.html
var rulesFS embed.FS

// RulesHTML is the rules help page's body in the language with this code
// (written for this site; English when there is none).
func RulesHTML(code string) string {
	b, err := rulesFS.ReadFile("rules/" + code + ".html")
	if err != nil {
		b, _ = rulesFS.ReadFile("rules/en.html")
	}
	return string(b)
}
