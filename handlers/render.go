package handlers

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/a-h/templ"
	"github.com/klauspost/compress/gzip"
	"github.com/labstack/echo/v4"

	"cacao/models"
	"cacao/views"
)

// render writes a templ component with a status. The page is rendered
// whole before it is sent, so that an error while rendering still gets an
// error page. For a client that takes gzip it is rendered straight into
// the compressor: the page itself (10 to 20 KB for a game area) is never
// held, only its compressed bytes.
func render(c echo.Context, status int, comp templ.Component) error {
	// Pages change with every move, and a page kept in the browser's
	// back/forward cache would keep its event stream open: browsers allow
	// six connections to a site, so a few of those would stall it.
	c.Response().Header().Set("Cache-Control", "no-store")
	ctx := c.Request().Context()
	if !takesGzip(c) {
		var buf bytes.Buffer
		if err := comp.Render(ctx, &buf); err != nil {
			return err
		}
		return c.Blob(status, echo.MIMETextHTMLCharsetUTF8, buf.Bytes())
	}
	out, err := compress(func(w io.Writer) error { return comp.Render(ctx, w) })
	if err != nil {
		return err
	}
	return sendGzipped(c, status, echo.MIMETextHTMLCharsetUTF8, out)
}

// compressors are gzip writers at BestSpeed (klauspost/compress: the same
// format as compress/gzip, in about half its time). A compressor (about a
// megabyte with its window and tables) is held only while a response is
// written into it, which takes no waiting. Echo's gzip middleware holds a
// compress/gzip writer for every request in flight, and under load
// hundreds wait (for the database, for a slow client) at once: with it the
// site did not hold the README's load target (its "Measured" section).
var compressors = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return zw
}}

// compress returns what write writes, gzipped.
func compress(write func(io.Writer) error) ([]byte, error) {
	out := bytes.NewBuffer(make([]byte, 0, 4<<10))
	zw := compressors.Get().(*gzip.Writer)
	defer compressors.Put(zw)
	zw.Reset(out)
	if err := write(zw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func takesGzip(c echo.Context) bool {
	return strings.Contains(c.Request().Header.Get(echo.HeaderAcceptEncoding), "gzip")
}

func sendGzipped(c echo.Context, status int, contentType string, body []byte) error {
	h := c.Response().Header()
	h.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	h.Set(echo.HeaderContentEncoding, "gzip")
	return c.Blob(status, contentType, body)
}

// send writes a whole response body, gzipped when the client takes gzip
// and the body is worth it.
func send(c echo.Context, status int, contentType string, body []byte) error {
	if len(body) < 1024 || !takesGzip(c) {
		c.Response().Header().Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
		return c.Blob(status, contentType, body)
	}
	out, err := compress(func(w io.Writer) error { _, err := w.Write(body); return err })
	if err != nil {
		return err
	}
	return sendGzipped(c, status, contentType, out)
}

// isHTMX reports whether htmx made the request to swap a fragment. When
// htmx restores a page it no longer holds in its history cache (Back, after
// many steps) it asks for the address with HX-Request too, but puts the
// answer in place of the whole page: that answer is the whole page.
func isHTMX(c echo.Context) bool {
	h := c.Request().Header
	return h.Get("HX-Request") == "true" && h.Get("HX-History-Restore-Request") != "true"
}

// redirect sends a browser to url: a 303 for plain forms, HX-Redirect for htmx.
func redirect(c echo.Context, url string) error {
	if isHTMX(c) {
		c.Response().Header().Set("HX-Redirect", url)
		return c.NoContent(http.StatusOK)
	}
	return c.Redirect(http.StatusSeeOther, url)
}

const userKey = "user"

// unreadKey holds, when the handler counted them already, the unread
// notices the page's header shows.
const unreadKey = "unread"

// currentUser returns the signed-in user, or nil.
func currentUser(c echo.Context) *models.User {
	u, _ := c.Get(userKey).(*models.User)
	return u
}

// page builds the layout's view model for this request.
func (s *Server) page(c echo.Context, title string) views.Page {
	p := views.Page{Title: title, Path: "/"}
	if c.Request().Method == http.MethodGet && !isHTMX(c) {
		p.Path = c.Request().URL.RequestURI()
	}
	p.CSRF, _ = c.Get("csrf").(string)
	p.BoardSize = boardSize(c)
	if u := currentUser(c); u != nil {
		p.User = &views.User{ID: u.ID, Name: u.Username, Admin: u.Admin}
		if n, ok := c.Get(unreadKey).(int64); ok {
			p.Unread = n
		} else {
			p.Unread, _ = s.store.Unread(u.ID)
		}
		// The game area's own answers (htmx, their notices counted
		// already) show no header.
		if c.Get(unreadKey) == nil || !isHTMX(c) {
			p.ChatUnread, _ = s.store.ChatUnread(u.ID)
		}
	}
	if c.Get(sessionKey) != nil {
		p.Flash = s.sessions.PopString(c.Request().Context(), "flash")
	}
	return p
}

// loadUser puts the signed-in user, if any, on the context: a session
// signed in at another token version of the user (the password changed
// since, or they signed out everywhere), or of a banned user, signs nobody
// in.
func (s *Server) loadUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx := c.Request().Context()
		if id := s.sessions.GetInt(ctx, "user_id"); id > 0 {
			if u, err := s.store.UserByID(uint(id)); err == nil && s.sessions.GetInt(ctx, "user_ver") == u.TokenVersion && u.BannedAt == nil {
				c.Set(userKey, u)
				// The session's last use, for the list of sessions: written
				// once in a few minutes, not at every request (the session
				// remembers when).
				if now := s.store.Clock().Unix(); now-s.sessions.GetInt64(ctx, "seen") >= 300 {
					s.sessions.Put(ctx, "seen", now)
					if err := s.store.SeenLogin(s.sessions.Token(ctx)); err != nil {
						s.log.Warn("noting a session's use", "err", err)
					}
				}
			}
		}
		return next(c)
	}
}

// requireUser sends people who are not signed in to the log-in page.
func (s *Server) requireUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if currentUser(c) == nil {
			if c.Request().Method == http.MethodGet {
				return redirect(c, "/login?next="+url.QueryEscape(c.Request().URL.RequestURI())) // the whole address
			}
			return refusal(http.StatusUnauthorized, "please log in first")
		}
		return next(c)
	}
}
