package handlers

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"cacao/models"
	"cacao/views"
)

// render writes a templ component with a status.
func render(c echo.Context, status int, comp templ.Component) error {
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(status)
	return comp.Render(c.Request().Context(), c.Response())
}

// isHTMX reports whether htmx made the request (it then swaps a fragment).
func isHTMX(c echo.Context) bool { return c.Request().Header.Get("HX-Request") == "true" }

// redirect sends a browser to url: a 303 for plain forms, HX-Redirect for htmx.
func redirect(c echo.Context, url string) error {
	if isHTMX(c) {
		c.Response().Header().Set("HX-Redirect", url)
		return c.NoContent(http.StatusOK)
	}
	return c.Redirect(http.StatusSeeOther, url)
}

const userKey = "user"

// currentUser returns the signed-in user, or nil.
func currentUser(c echo.Context) *models.User {
	u, _ := c.Get(userKey).(*models.User)
	return u
}

// page builds the layout's view model for this request.
func (s *Server) page(c echo.Context, title string) views.Page {
	p := views.Page{Title: title}
	p.CSRF, _ = c.Get("csrf").(string)
	if u := currentUser(c); u != nil {
		p.User = &views.User{ID: u.ID, Name: u.Username}
		p.Unread, _ = s.store.Unread(u.ID)
	}
	p.Flash = s.sessions.PopString(c.Request().Context(), "flash")
	return p
}

// loadUser puts the signed-in user, if any, on the context.
func (s *Server) loadUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if id := s.sessions.GetInt(c.Request().Context(), "user_id"); id > 0 {
			if u, err := s.store.UserByID(uint(id)); err == nil {
				c.Set(userKey, u)
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
				return redirect(c, "/login?next="+c.Request().URL.RequestURI())
			}
			return echo.NewHTTPError(http.StatusUnauthorized, "please log in first")
		}
		return next(c)
	}
}
