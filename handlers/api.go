package handlers

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"cacao/handlers/api"
	"cacao/models"
	"cacao/views"
	"cacao/views/i18n"
)

// The API (/api/v1) answers programs with JSON on the same rules and the
// same checks as the pages: a caller is the account of the personal access
// token sent as "Authorization: Bearer …" (never a session: a page's
// cookies open nothing here, so no cross-site form can post to it), a
// token does what its scopes allow, and every refusal is {"error": …} with
// the sentence a page would show, in the account's language.

// apiRequests is what one token may ask: 60 at once, then one a second.
var apiRequests = rule{Burst: 60, Every: time.Second}

func apiKey(token uint) limitKey {
	return limitKey{Key: fmt.Sprintf("api:%d", token), Rule: apiRequests}
}

const tokenKey = "token"

// apiRoutes lists the API's routes; api/openapi.json documents each
// (TestOpenAPIMatchesRoutes).
func (s *Server) apiRoutes(e *echo.Echo) {
	e.GET("/api", s.apiPage)
	g := e.Group("/api/v1", s.apiErrors)
	g.GET("/openapi.json", s.openAPI)
	read, play, chat := s.apiAuth(models.ScopeRead), s.apiAuth(models.ScopePlay), s.apiAuth(models.ScopeChat)
	g.GET("/account", s.apiAccount, read)
	g.GET("/stream", s.apiStream, read)
	g.GET("/games", s.apiGames, read)
	g.POST("/games", s.apiCreate, play)
	g.GET("/tables", s.apiTables, read)
	g.GET("/invitations", s.apiInvitations, read)
	g.POST("/games/:id/join", s.apiJoin, play)
	g.POST("/games/:id/decline", s.apiDecline, play)
	g.GET("/games/:id", s.apiGame, read)
	g.GET("/games/:id/moves", s.apiMoves, read)
	g.POST("/games/:id/turn", s.apiTurn, play)
	g.POST("/games/:id/choice", s.apiChoice, play)
	g.GET("/games/:id/chat", s.apiChat, read)
	g.POST("/games/:id/chat", s.apiSay, chat)
}

// isAPI reports whether a path is the API's, which takes no session and
// so no CSRF token.
func isAPI(path string) bool { return strings.HasPrefix(path, "/api/v1/") }

// apiAuth lets a request through with a live token that has scope, its
// account as the request's user and the account's language as its own.
// The token's requests are counted before the work they ask for.
func (s *Server) apiAuth(scope string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			c.Set(userKey, nil) // a session's user is nobody here
			text, ok := strings.CutPrefix(c.Request().Header.Get(echo.HeaderAuthorization), "Bearer ")
			if !ok {
				c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="cacao"`)
				return refusal(http.StatusUnauthorized, "send a personal access token: Authorization: Bearer …")
			}
			// A wrong token costs one indexed read, as a page not found
			// does: it takes no limit, which would refuse the right tokens
			// of the same address too.
			u, tok, err := s.store.TokenUser(strings.TrimSpace(text))
			if errors.Is(err, models.ErrNotFound) {
				c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="cacao", error="invalid_token"`)
				return refusal(http.StatusUnauthorized, "this access token is not valid: it was revoked, or never made")
			}
			if err != nil {
				return err
			}
			if u.BannedAt != nil {
				return &models.BannedError{Reason: u.BanReason}
			}
			c.Set(userKey, u)
			c.Set(tokenKey, tok)
			l := s.pickLang(c, u)
			if u.TimeZone != "" {
				l = l.In(u.Zone())
			}
			c.SetRequest(c.Request().WithContext(i18n.With(c.Request().Context(), l)))
			if !tok.Allows(scope) {
				return refusal(http.StatusForbidden, "this access token may not do that: it lacks the scope %q", scope)
			}
			if d := s.take(c, apiKey(tok.ID)); d > 0 {
				n := int(d.Seconds()) + 1
				return echo.NewHTTPError(http.StatusTooManyRequests, lang(c).N("Too many requests with this token. Try again in %d second.", "Too many requests with this token. Try again in %d seconds.", n, n))
			}
			return next(c)
		}
	}
}

// apiErrors answers an API request's error as {"error": …} with its
// status, in the caller's language; a move or an act it cannot read is
// a 422, as the pages' refusals of a move.
func (s *Server) apiErrors(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		if err == nil || c.Response().Committed {
			return err
		}
		var p *api.Problem
		var code int
		var msg string
		if errors.As(err, &p) {
			code, msg = http.StatusUnprocessableEntity, lang(c).Sentence(p.Format, p.Args...)
		} else {
			code, msg = status(lang(c), err)
		}
		if he := (*echo.HTTPError)(nil); errors.As(err, &he) && he.Code == http.StatusTooManyRequests {
			if m, ok := he.Message.(string); ok {
				msg = m // already in the caller's language
			}
		}
		if code >= http.StatusInternalServerError {
			s.log.Error("API request failed", "err", err, "path", c.Request().URL.Path, "id", c.Response().Header().Get(echo.HeaderXRequestID))
		}
		if code == http.StatusServiceUnavailable {
			c.Response().Header().Set("Retry-After", "30")
		}
		return c.JSON(code, api.Error{Error: msg})
	}
}

// readJSON reads the request's body into v.
func readJSON(c echo.Context, v any) error {
	if ct := c.Request().Header.Get(echo.HeaderContentType); ct != "" && !strings.HasPrefix(ct, echo.MIMEApplicationJSON) {
		return refusal(http.StatusUnsupportedMediaType, "send the body as JSON (Content-Type: application/json)")
	}
	if err := json.NewDecoder(c.Request().Body).Decode(v); err != nil {
		return refusal(http.StatusBadRequest, "the body is not the JSON this address takes: %s", err.Error())
	}
	return nil
}

// openAPI serves the API's OpenAPI document.
func (s *Server) openAPI(c echo.Context) error {
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, api.OpenAPI)
}

// apiPage explains the API to people, with an example.
func (s *Server) apiPage(c echo.Context) error {
	return render(c, http.StatusOK, views.APIPage(s.page(c, tr(c, "The API")), s.baseURL(c)))
}
