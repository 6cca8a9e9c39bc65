// Package handlers is the web layer: thin echo handlers that parse a request,
// check who is asking, call the models and the engine, build a view model and
// render a templ component. Every route is listed in routes.go; errors map to
// statuses in one place (errors.go).
package handlers

import (
	"cacao/engine/tutorial"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"cacao/handlers/live"
	"cacao/handlers/mail"
	"cacao/handlers/push"
	"cacao/models"
	"cacao/models/autoplay"
)

// Config is what the web layer needs to know about its deployment.
type Config struct {
	// SecureCookies marks cookies Secure (set when served over TLS).
	SecureCookies bool
	// BaseURL is the site's public address, for invite links ("" = from the request).
	BaseURL string
	// Logger receives structured request logs.
	Logger *slog.Logger
	// Live carries game changes to open pages; nil makes one. Close it at
	// shutdown to end the event streams.
	Live *live.Hub
	// TrustProxy takes the client's address from X-Forwarded-For (set only
	// behind a reverse proxy that writes it), for the log-in limits.
	TrustProxy bool
	// Signer signs and checks the one-click links in mail; nil makes one from
	// the store's "links" secret (the outbox must use the same one).
	Signer *mail.Signer
	// MaxStreams bounds the event streams open at once (0: 2000); viewers
	// not signed in hold at most half of them.
	MaxStreams int
	// GamesPerHour is how many games one player opens an hour, half of
	// them in a row (0: 20; below 0: no limit, for load tests).
	GamesPerHour int
	// Bots plays the bots' moves after a person's, slow ones in the
	// background (required). Close it at shutdown, before the store.
	Bots *autoplay.Runner
	// HashSlots is how many password hashes run at once, one a core (0:
	// GOMAXPROCS; cacao serve gives the Ps it had before it added the
	// bots').
	HashSlots int
	// PrivateHooks lets players give webhooks and push endpoints on this
	// machine or a private network (a host's own ntfy server, tests; the
	// outbox's client must allow them too).
	PrivateHooks bool
}

// Server holds what the handlers share.
type Server struct {
	// pushKey is the site's VAPID public key, which browsers subscribe with.
	pushKey  string
	store    *models.Store
	live     *live.Hub
	signer   *mail.Signer
	limiter  *limiter
	hashing  *gate
	streams  *streams
	bots     *autoplay.Runner
	sessions *scs.SessionManager
	cfg      Config
	log      *slog.Logger
	tutorial *tutorial.Script // the game /learn coaches
}

// LinkSigner returns the signer of the store's one-click links.
func LinkSigner(store *models.Store) (*mail.Signer, error) {
	key, err := store.Secret("links")
	if err != nil {
		return nil, err
	}
	return mail.NewSigner(key), nil
}

// ChangeListener tells the pages open on hub of a committed change: the
// game's page, its players' home pages and, when the list of open games
// changed, every home page (models.WithChangeListener).
func ChangeListener(hub *live.Hub) func(models.Change) {
	return func(c models.Change) {
		if c.Chat > 0 {
			hub.Publish(live.Chat(c.Game), int(c.Chat))
		} else {
			hub.Publish(live.Game(c.Game), c.Version)
		}
		topics := make([]string, 0, len(c.Users)+1)
		for _, u := range c.Users {
			topics = append(topics, live.User(u))
		}
		if c.Lobby {
			topics = append(topics, live.Lobby)
		}
		hub.Touch(topics...)
	}
}

// New returns the site's router. Pages follow the games live on cfg.Live,
// the hub the store's change listener tells (ChangeListener).
func New(store *models.Store, cfg Config) (*echo.Echo, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	sm := scs.New()
	sm.Store = store.Sessions()
	sm.Lifetime = 30 * 24 * time.Hour
	sm.Cookie.Name = "cacao_session"
	sm.Cookie.HttpOnly = true
	sm.Cookie.SameSite = http.SameSiteLaxMode
	sm.Cookie.Secure = cfg.SecureCookies
	if cfg.Live == nil {
		cfg.Live = live.New()
	}
	if cfg.Signer == nil {
		var err error
		if cfg.Signer, err = LinkSigner(store); err != nil {
			return nil, err
		}
	}
	if cfg.Bots == nil {
		return nil, errors.New("handlers: Config.Bots is required")
	}
	keys, err := push.LoadKeys(store)
	if err != nil {
		return nil, err
	}
	script, err := tutorial.Load()
	if err != nil {
		return nil, err
	}
	s := &Server{tutorial: script, store: store, live: cfg.Live, signer: cfg.Signer, limiter: &limiter{store: store, log: cfg.Logger}, hashing: hashGate(cfg.HashSlots), streams: newStreams(cfg.MaxStreams), bots: cfg.Bots, sessions: sm, cfg: cfg, log: cfg.Logger,
		pushKey: keys.Public}

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	// The client's address is the connection's (X-Forwarded-For can be
	// forged) unless the site is told it sits behind a proxy.
	e.IPExtractor = echo.ExtractIPDirect()
	if cfg.TrustProxy {
		e.IPExtractor = echo.ExtractIPFromXFFHeader()
	}
	e.HTTPErrorHandler = s.errorHandler
	// A session that cannot be loaded or saved (the database away) gets
	// the site's own error page, not the session library's plain text.
	sm.ErrorFunc = func(w http.ResponseWriter, r *http.Request, err error) { s.errorHandler(err, e.NewContext(r, w)) }
	e.Pre(headAsGet)
	e.Use(securityHeaders)
	e.Use(s.requestLog)
	e.Use(middleware.Recover())
	// Sessions load before anything can refuse the request: the error page
	// needs them.
	e.Use(echo.WrapMiddleware(sm.LoadAndSave), sessionLoaded)
	e.Use(oneVary)
	e.Use(middleware.BodyLimit("64K"))
	e.Use(middleware.CSRFWithConfig(middleware.CSRFConfig{
		TokenLookup:    "form:_csrf,header:X-CSRF-Token",
		CookieName:     "cacao_csrf",
		CookiePath:     "/",
		CookieHTTPOnly: true,
		CookieSameSite: http.SameSiteLaxMode,
		CookieSecure:   cfg.SecureCookies,
		Skipper: func(c echo.Context) bool {
			// The one-click unsubscribe POST (RFC 8058) comes from a mail
			// client with a signed token instead of a CSRF token; the API
			// takes an access token and never a session.
			p := c.Request().URL.Path
			return p == "/healthz" || p == "/readyz" || p == "/m/unsubscribe" || strings.HasPrefix(p, "/static/") || isAPI(p)
		},
	}))
	e.Use(s.loadUser)
	e.Use(s.setLang)
	s.routes(e)
	return e, nil
}

// policy is the content security policy of every answer: nothing from
// other sites, no script but the site's files (no inline script, no
// eval), no framing. Styles may be inline: the board sets its size in a
// style attribute.
const policy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// securityHeaders sets the security headers of every answer, and its
// request id (always the site's own: a client's X-Request-Id is not
// taken, so a log line cannot be made to look like another's).
func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", policy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		var id [8]byte
		_, _ = rand.Read(id[:])
		h.Set(echo.HeaderXRequestID, hex.EncodeToString(id[:]))
		return next(c)
	}
}

// sessionKey marks a request whose session is loaded: an error met
// before (its session store failed) reads nothing of it.
const sessionKey = "session"

func sessionLoaded(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Set(sessionKey, true)
		return next(c)
	}
}

// oneVary sends the response's Vary values as one header, each value
// once: the session and CSRF middleware both add "Cookie", and the
// language and compression add their own.
func oneVary(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		res := c.Response()
		res.Before(func() {
			h := res.Header()
			vs := h.Values(echo.HeaderVary)
			if len(vs) < 2 {
				return
			}
			out := make([]string, 0, len(vs))
			for _, v := range vs {
				for _, f := range strings.Split(v, ",") {
					if f = strings.TrimSpace(f); f != "" && !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, f) }) {
						out = append(out, f)
					}
				}
			}
			h[echo.HeaderVary] = []string{strings.Join(out, ", ")}
		})
		return next(c)
	}
}

// headAsGet answers a HEAD request as its GET would be answered, without
// the body (health checks and link checkers ask HEAD). The router reads the
// request's method, so it is a GET while the site works on it; its body is
// dropped, and the method is HEAD again for the server, which writes the
// response once the handler is done.
func headAsGet(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method != http.MethodHead {
			return next(c)
		}
		r.Method = http.MethodGet
		defer func() { r.Method = http.MethodHead }()
		c.Response().Writer = bodiless{c.Response().Writer}
		return next(c)
	}
}

// bodiless is a response without a body: what is written is dropped.
type bodiless struct{ http.ResponseWriter }

func (b bodiless) Write(p []byte) (int, error) { return len(p), nil }
func (b bodiless) Unwrap() http.ResponseWriter { return b.ResponseWriter }
func (b bodiless) Flush() {
	if f, ok := b.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// requestLog writes one structured line per request.
func (s *Server) requestLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		req, res := c.Request(), c.Response()
		s.log.Info("request", "method", req.Method, "path", req.URL.Path, "status", res.Status,
			"dur_ms", float64(time.Since(start).Microseconds())/1000, "id", res.Header().Get(echo.HeaderXRequestID), "ip", c.RealIP())
		return nil
	}
}
