package handlers_test

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"cacao/engine"
	"cacao/models"
)

// codeRE finds the records' tile codes (engine's doc, Records) in text.
var codeRE = regexp.MustCompile(`\b(1111|2101|3001|3100|P[12]|M[234]|G[12])\b`)

// visibleText is what a page shows and says: its text and its labels,
// without its markup, scripts and addresses.
func visibleText(body string) string {
	body = regexp.MustCompile(`(?s)<(script|style)\b.*?</(script|style)>`).ReplaceAllString(body, " ")
	var labels []string
	for _, m := range regexp.MustCompile(`(?:aria-label|title|alt)="([^"]*)"`).FindAllStringSubmatch(body, -1) {
		labels = append(labels, m[1])
	}
	text := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(body, " ")
	return html.UnescapeString(text + " " + strings.Join(labels, " "))
}

// TestPagesShowNoNotationCodes: the tile codes of the records ("2101",
// "M3") never reach a player: every page and fragment of a game, each
// step of choosing a move, the log and the home page name tiles in words
// and draw them.
func TestPagesShowNoNotationCodes(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	r := engine.NewRand(5)
	for step := 0; step < 24; step++ {
		for _, c := range []*client{ana, bob} {
			for name, body := range pagesFor(t, s, c, id) {
				if strings.Contains(name, "/rules") || strings.HasSuffix(name, "/record.json") || strings.HasSuffix(name, "/settings/data") ||
					strings.HasSuffix(name, " /api") || strings.HasPrefix(name, "API ") {
					continue // the rules explain the records' codes; a record and Download my data are records; the API speaks them
				}
				if m := codeRE.FindString(visibleText(body)); m != "" {
					text := visibleText(body)
					i := strings.Index(text, m)
					t.Fatalf("step %d: %s as %s shows the code %q: …%s…", step, name, c.name, m, text[max(0, i-80):min(len(text), i+40)])
				}
			}
		}
		if l, _ := s.store.LoadGame(id); l.Game.Status == models.StatusFinished {
			return
		}
		if !ana.act(id, r) && !bob.act(id, r) {
			t.Fatal("nobody could move")
		}
	}
}
