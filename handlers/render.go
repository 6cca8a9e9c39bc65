package handlers

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"
	"github.com/klauspost/compress/gzip"
	"github.com/labstack/echo/v4"

	"cacao/models"
	"cacao/views"
)

// render writes a templ component with a status. The page is rendered
// whole before it is sent, so that an error while rendering still gets an
// error page; for a client that takes gzip it is then compressed.
func render(c echo.Context, status int, comp templ.Component) error {
	// Pages change with every move, and a page kept in the browser's
	// back/forward cache would keep its event stream open: browsers allow
	// six connections to a site, so a few of those would stall it.
	c.Response().Header().Set("Cache-Control", "no-store")
	// The game area is some 21 KB: room for it from the start spares a
	// page the 60 KB of copies a buffer grown from nothing makes (under
	// load, 29 % of the server's allocation, and so of the collector's
	// pace).
	buf := bytes.NewBuffer(make([]byte, 0, 24<<10))
	if err := comp.Render(c.Request().Context(), buf); err != nil {
		return err
	}
	return send(c, status, echo.MIMETextHTMLCharsetUTF8, buf.Bytes())
}

// compress gzips body in one go, keeping no state between answers
// (klauspost/compress's StatelessCompression): a game area of 22 KB
// becomes 4.8 KB, as at BestSpeed, in some 60 µs and 9 KB of memory on
// this project's machine. A BestSpeed writer holds some 800 KB of tables,
// which take a millisecond to make; a sync.Pool of them loses them to the
// garbage collector (it keeps them two collections at most), and under
// load their compression took 8 % of the server's CPU.
func compress(body []byte) ([]byte, error) {
	out := bytes.NewBuffer(make([]byte, 0, len(body)/3+64))
	zw, err := gzip.NewWriterLevel(out, gzip.StatelessCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(body); err != nil {
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
	out, err := compress(body)
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
		p.User = &views.User{ID: u.ID, Name: u.Username, Admin: u.Admin, Guest: u.Guest}
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
			// A guest's session ends with their time (the worker then
			// gives their seats to the stand-in).
			if u, err := s.store.UserByID(uint(id)); err == nil && s.sessions.GetInt(ctx, "user_ver") == u.TokenVersion && u.BannedAt == nil && !u.GuestExpired(s.store.Clock()) {
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
