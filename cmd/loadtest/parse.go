package main

import (
	"html"
	"strconv"
	"strings"
)

// The virtual users read the pages they get as a browser's DOM would be
// read: by tag and attribute. A scan with strings.Index is several times
// cheaper than regular expressions on a 20 KB page, and the load generator
// shares the machine's two cores with the server it measures.

// tagAround returns the start tag (from '<' to '>') that contains
// body[i:], or "".
func tagAround(body string, i int) string {
	start := strings.LastIndexByte(body[:i], '<')
	end := strings.IndexByte(body[i:], '>')
	if start < 0 || end < 0 {
		return ""
	}
	return body[start : i+end+1]
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
		if i > 0 && tag[i-1] != ' ' && tag[i-1] != '\n' && tag[i-1] != '\t' {
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

// shownIn returns what the game area in body says it shows (data-shown,
// which its requests send back as htmx's hx-headers would), and whether
// body has a game area.
func shownIn(body string) (string, bool) {
	i := strings.Index(body, `id="game-main"`)
	if i < 0 {
		return "", false
	}
	v, _ := attr(tagAround(body, i), "data-shown")
	return v, true
}

// links returns the hx-get address of every tag that carries marker (an
// attribute with its value, such as `class="cell"`), in page order.
func links(body, marker string) []string {
	var out []string
	for off := 0; ; {
		i := strings.Index(body[off:], marker)
		if i < 0 {
			return out
		}
		i += off
		off = i + len(marker)
		if v, ok := attr(tagAround(body, i), "hx-get"); ok {
			out = append(out, v)
		}
	}
}

// shownVersion is the game version a page shows (from its live-update
// trigger), or -1.
func shownVersion(body string) int {
	const marker = "Number(detail.lastEventId) &gt; "
	i := strings.Index(body, marker)
	if i < 0 {
		return -1
	}
	s := body[i+len(marker):]
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	v, err := strconv.Atoi(s[:n])
	if err != nil {
		return -1
	}
	return v
}

// postForm finds the form that posts to an address ending in suffix and
// returns its action and the values a browser would send as the form is
// shown: hidden fields, the first option of each select, the values of
// number inputs.
func postForm(body, suffix string) (action string, vals map[string][]string, ok bool) {
	for off := 0; ; {
		i := strings.Index(body[off:], `<form `)
		if i < 0 {
			return "", nil, false
		}
		i += off
		off = i + 1
		tag := tagAround(body, i+1)
		a, _ := attr(tag, "action")
		if m, _ := attr(tag, "method"); m != "post" || !strings.HasSuffix(a, suffix) {
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
		case strings.HasPrefix(form[i:], "<input "):
			tag := tagAround(form, i+1)
			name, ok := attr(tag, "name")
			typ, _ := attr(tag, "type")
			if !ok || (typ != "hidden" && typ != "number") {
				continue
			}
			v, _ := attr(tag, "value")
			vals[name] = append(vals[name], v)
		case strings.HasPrefix(form[i:], "<select "):
			name, ok := attr(tagAround(form, i+1), "name")
			j := strings.Index(form[i:], "<option ")
			if !ok || j < 0 {
				continue
			}
			v, _ := attr(tagAround(form, i+j+1), "value")
			vals[name] = append(vals[name], v)
		}
	}
}
