package handlers_test

import (
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"cacao/models"
	"cacao/views/viewtest"
)

var tokenTextRE = regexp.MustCompile(`cacao_[A-Za-z0-9_-]{43}`)

// tokenLines are the texts of the access tokens the settings page lists.
func tokenLines(t *testing.T, page string) []string {
	t.Helper()
	var out []string
	for _, s := range viewtest.Texts(t, page, `#tokens-h ~ ul li:has(form[action="/settings/tokens/revoke"])`) {
		out = append(out, viewtest.Collapse(s))
	}
	return out
}

// TestAccessTokens: Settings makes a named, scoped token and shows its
// text once, in a box to copy (a reload does not show it again); the list
// says each token's scopes, when it was made and last used; a token is
// revoked by its own form, not by another account's; signing out
// everywhere revokes the rest. "Download my data" lists them without
// their text.
func TestAccessTokens(t *testing.T) {
	s := newSite(t)
	ana, bob := s.signup("ana"), s.signup("bob")
	_, page := ana.get("/settings")
	if !viewtest.HasText(t, page, "h2#tokens-h", "Access tokens") || !viewtest.Has(t, page, `#tokens-h ~ p a[href="/api"]`) ||
		!viewtest.Has(t, page, `form[action="/settings/tokens"] input[name="scope"][value="read"][checked]`) ||
		viewtest.Has(t, page, `form[action="/settings/tokens"] input[name="scope"][value="play"][checked]`) ||
		!says(t, page, "#tokens-h ~ p", "You have no access tokens.") || viewtest.Has(t, page, "#new-token") {
		t.Fatalf("the settings' tokens, before any:\n%s", viewtest.Show(t, page, `section[aria-labelledby="tokens-h"]`))
	}
	code, page := ana.post("/settings/tokens", url.Values{"name": {" my bot "}, "scope": {"play", "read"}})
	text, _ := viewtest.Attr(t, page, `[role="status"] input#new-token[readonly]`, "value")
	if code != http.StatusOK || !tokenTextRE.MatchString(text) || !says(t, page, `[role="status"]`, "Copy it now: it is not shown again.") {
		t.Fatalf("a token made: %d, %q\n%s", code, text, viewtest.Show(t, page, `section[aria-labelledby="tokens-h"]`))
	}
	u, tok, err := s.store.TokenUser(text)
	if err != nil || u.Username != "ana" || tok.Name != "my bot" || tok.Scopes != "read,play" {
		t.Fatalf("the token shown: %v, %+v (%v)", u, tok, err)
	}
	if lines := tokenLines(t, page); len(lines) != 1 || !strings.Contains(lines[0], "my bot May read, play. Made ") {
		t.Fatalf("the tokens listed: %q", lines)
	}
	_, page = ana.get("/settings")
	if strings.Contains(page, text) || viewtest.Has(t, page, "#new-token") {
		t.Fatal("a reload shows the token's text again")
	}
	if lines := tokenLines(t, page); len(lines) != 1 || !strings.Contains(lines[0], "last used") {
		t.Fatalf("the token, used once: %q", lines)
	}
	code, data := ana.get("/settings/data")
	if code != http.StatusOK || !strings.Contains(data, `"access_tokens": [`) || !strings.Contains(data, `"name": "my bot"`) ||
		strings.Contains(data, text) || strings.Contains(data, "hash") {
		t.Fatalf("my data: %d\n%.2000s", code, data)
	}
	id, _ := viewtest.Attr(t, page, `form[action="/settings/tokens/revoke"] input[name="token"]`, "value")
	if code, page := bob.post("/settings/tokens/revoke", url.Values{"token": {id}}); code != http.StatusNotFound || !says(t, page, "main .error", "That token is revoked already.") {
		t.Fatalf("bob revokes ana's token: %d", code)
	}
	if _, _, err := s.store.TokenUser(text); err != nil {
		t.Fatalf("ana's token after bob's try: %v", err)
	}
	code, page = ana.post("/settings/tokens/revoke", url.Values{"token": {id}})
	if code != http.StatusOK || !says(t, page, `[role="status"]`, "The token is revoked") || len(tokenLines(t, page)) != 0 {
		t.Fatalf("ana revokes her token: %d, %q", code, tokenLines(t, page))
	}
	if _, _, err := s.store.TokenUser(text); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("the revoked token: %v", err)
	}
	_, page = ana.post("/settings/tokens", url.Values{"name": {"second"}, "scope": {"chat"}})
	second, _ := viewtest.Attr(t, page, "input#new-token", "value")
	ana.post("/settings/sign-out-everywhere", nil)
	if _, _, err := s.store.TokenUser(second); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("a token after signing out everywhere: %v", err)
	}
}

// TestAccessTokenRefusals: a bad name or no scope re-renders the settings
// with the reason in the reader's language (422) and makes nothing; a
// guest makes none.
func TestAccessTokenRefusals(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	ana.post("/language", url.Values{"lang": {"de"}})
	for _, c := range []struct {
		form url.Values
		want string
	}{
		{url.Values{"name": {"   "}, "scope": {"read"}}, "Der Name eines Tokens hat 1 bis 40 Zeichen"},
		{url.Values{"name": {strings.Repeat("x", 41)}, "scope": {"read"}}, "Der Name eines Tokens hat 1 bis 40 Zeichen"},
		{url.Values{"name": {"bot"}}, "Wähl, was der Token darf"},
		{url.Values{"name": {"bot"}, "scope": {"read", "root"}}, "Wähl, was der Token darf"},
	} {
		code, page := ana.post("/settings/tokens", c.form)
		if code != http.StatusUnprocessableEntity || !says(t, page, "main .error", c.want) || viewtest.Has(t, page, "#new-token") {
			t.Errorf("%v: %d, %q", c.form, code, viewtest.Text(t, page, "main .error"))
		}
	}
	if list, _ := s.store.Tokens(s.userID("ana")); len(list) != 0 {
		t.Fatalf("refused forms made tokens: %+v", list)
	}
	gus, _ := s.playAsGuest("gus", "easy")
	if code, _ := gus.post("/settings/tokens", url.Values{"name": {"bot"}, "scope": {"read"}}); code != http.StatusForbidden {
		t.Fatalf("a guest makes a token: %d", code)
	}
	if list, _ := s.store.Tokens(s.userID("gus")); len(list) != 0 {
		t.Fatalf("the guest has tokens: %+v", list)
	}
}
