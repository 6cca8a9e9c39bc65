package main

import (
	"html"
	"strconv"
	"strings"
)

// The virtual users read the pages they get as a browser's DOM would be
// read: by tag and attribute, never by an attribute's place in its tag or by
// markup that only one version of the site writes. A scan with
// strings.Index is several times cheaper than regular expressions on a
// 20 KB page, and the load generator shares the machine's cores with the
// server it measures.

// tagAround returns the start tag (from '<' to '>') that contains
// body[i:], or "", where i is not inside an attribute's value; a '>' in a
// quoted value does not end the tag.
func tagAround(body string, i int) string {
	start := strings.LastIndexByte(body[:i], '<')
	if start < 0 {
		return ""
	}
	var quote byte
	for j := i; j < len(body); j++ {
		switch c := body[j]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return body[start : j+1]
		}
	}
	return ""
}

// attr returns the unescaped value of attribute name in tag, and whether
// the tag has it.
func attr(tag, name string) (string, bool) {
	for off := 0; ; {
		i := strings.Index(tag[off:], name+`="`)
		if i < 0 {
			return "", false
		}
		i += off
		// It must be a whole attribute name, not the end of a longer one.
		if i > 0 && !isSpace(tag[i-1]) {
			off = i + len(name)
			continue
		}
		v := tag[i+len(name)+2:]
		end := strings.IndexByte(v, '"')
		if end < 0 {
			return "", false
		}
		return html.UnescapeString(v[:end]), true
	}
}

func isSpace(b byte) bool { return b == ' ' || b == '\n' || b == '\t' || b == '\r' }

// hasAttr says whether tag has attribute name.
func hasAttr(tag, name string) bool {
	_, ok := attr(tag, name)
	return ok
}

// hasClass says whether tag's class attribute lists class.
func hasClass(tag, class string) bool {
	v, _ := attr(tag, "class")
	for _, c := range strings.Fields(v) {
		if c == class {
			return true
		}
	}
	return false
}

// The links a player follows, told apart by what a browser's player sees
// of them: a tile of the hand, a place on the board, the rotate button.
var (
	isTile   = func(tag string) bool { return hasAttr(tag, "data-tile") }
	isCell   = func(tag string) bool { return hasAttr(tag, "data-cell") || hasClass(tag, "cell") }
	isRotate = func(tag string) bool { v, _ := attr(tag, "id"); return v == "rotate" }
)

// links returns the hx-get address of every tag of body that match
// accepts, in page order.
func links(body string, match func(tag string) bool) []string {
	const key = `hx-get="`
	var out []string
	for off := 0; ; {
		i := strings.Index(body[off:], key)
		if i < 0 {
			return out
		}
		i += off
		off = i + len(key)
		if i == 0 || !isSpace(body[i-1]) { // data-hx-get and the like
			continue
		}
		tag := tagAround(body, i)
		if !match(tag) {
			continue
		}
		if v, ok := attr(tag, "hx-get"); ok {
			out = append(out, v)
		}
	}
}

// isFinal says whether a game page shows the game over (its final scores).
func isFinal(body string) bool { return strings.Contains(body, `id="final"`) }

// hasChoice says whether a game page asks its player a pending choice (a
// form posting to the game's resolve address).
func hasChoice(body string) bool { return strings.Contains(body, `/resolve"`) }

// isMyTurn says whether a game page asks its player for a tile. The users
// send no Accept-Language: the pages are in the site's default, English.
func isMyTurn(body string) bool { return strings.Contains(body, "Choose a tile from your hand.") }

// liveTrigger returns the tag that refetches the game when its event
// stream says the game moved (hx-trigger "sse:…"), or "".
func liveTrigger(body string) string {
	const key = `hx-trigger="sse:`
	for off := 0; ; {
		i := strings.Index(body[off:], key)
		if i < 0 {
			return ""
		}
		i += off
		off = i + len(key)
		if i > 0 && isSpace(body[i-1]) {
			return tagAround(body, i)
		}
	}
}

// liveLink is the address the page fetches when the game moves past the
// version it shows, or "" when it does not follow the game.
func liveLink(body string) string {
	v, _ := attr(liveTrigger(body), "hx-get")
	return v
}

// eventsURL is the address of the game's event stream a full page
// connects to (sse-connect), or "".
func eventsURL(body string) string {
	i := strings.Index(body, `sse-connect="`)
	if i < 0 {
		return ""
	}
	v, _ := attr(tagAround(body, i), "sse-connect")
	return v
}

// shownVersion is the game version a page shows, or -1: the version its
// live trigger waits to be passed (its data-live-version), else the
// version its forms were made on, else the version its event stream starts
// from.
func shownVersion(body string) int {
	if v, ok := attr(liveTrigger(body), "data-live-version"); ok {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	for off := 0; ; {
		i := strings.Index(body[off:], `name="version"`)
		if i < 0 {
			break
		}
		i += off
		off = i + 1
		if v, ok := attr(tagAround(body, i), "value"); ok {
			if n, err := strconv.Atoi(v); err == nil {
				return n
			}
		}
	}
	if u := eventsURL(body); u != "" {
		if _, since, ok := strings.Cut(u, "since="); ok {
			if v, ok := leadingInt(since); ok {
				return v
			}
		}
	}
	return -1
}

// leadingInt reads the decimal number s starts with.
func leadingInt(s string) (int, bool) {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	v, err := strconv.Atoi(s[:n])
	return v, err == nil
}

// postForm finds the form that posts to an address ending in suffix (its
// hx-post, as htmx sends it, else its action with method post) and returns
// that address and the values a browser would send as the form is shown:
// hidden fields, the first option of each select, the values of number
// inputs.
func postForm(body, suffix string) (action string, vals map[string][]string, ok bool) {
	for off := 0; ; {
		i := strings.Index(body[off:], `<form`)
		if i < 0 {
			return "", nil, false
		}
		i += off
		off = i + 1
		if i+5 >= len(body) || !isSpace(body[i+5]) {
			continue
		}
		tag := tagAround(body, i+1)
		a, ok := attr(tag, "hx-post")
		if !ok {
			m, _ := attr(tag, "method")
			if a, _ = attr(tag, "action"); !strings.EqualFold(m, "post") {
				continue
			}
		}
		if !strings.HasSuffix(a, suffix) {
			continue
		}
		end := strings.Index(body[i:], "</form>")
		if end < 0 {
			return "", nil, false
		}
		return a, formValues(body[i : i+end]), true
	}
}

// formValues reads the fields of one form's markup.
func formValues(form string) map[string][]string {
	vals := map[string][]string{}
	for off := 0; ; {
		i := strings.IndexByte(form[off:], '<')
		if i < 0 {
			return vals
		}
		i += off
		off = i + 1
		switch {
		case startsTag(form[i:], "input"):
			tag := tagAround(form, i+1)
			name, ok := attr(tag, "name")
			typ, _ := attr(tag, "type")
			if !ok || (typ != "hidden" && typ != "number") {
				continue
			}
			v, _ := attr(tag, "value")
			vals[name] = append(vals[name], v)
		case startsTag(form[i:], "select"):
			name, ok := attr(tagAround(form, i+1), "name")
			j := strings.Index(form[i:], "<option")
			if !ok || j < 0 {
				continue
			}
			v, _ := attr(tagAround(form, i+j+1), "value")
			vals[name] = append(vals[name], v)
		}
	}
}

// startsTag says whether s starts with the start tag of element name.
func startsTag(s, name string) bool {
	return len(s) > len(name)+1 && s[0] == '<' && s[1:len(name)+1] == name && isSpace(s[len(name)+1])
}
