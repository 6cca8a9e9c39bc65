// Package handlers is the web layer: thin echo handlers that parse a request,
// check who is asking, call the models and the engine, build a view model and
// render a templ component. Every route is listed in routes.go; errors map to
// statuses in one place (errors.go).
package handlers

import (
	"log/slog"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"cacao/engine"
	"cacao/handlers/live"
	"cacao/handlers/mail"
	"cacao/models"
	"cacao/views"
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
	// CheckMemos (for tests) compares every view of a position taken from
	// the memo with one made afresh, and fails the request (a 500) when they
	// differ: the memo's views are shared, and nothing may change them.
	CheckMemos bool
}

// Server holds what the handlers share.
type Server struct {
	store    *models.Store
	live     *live.Hub
	signer   *mail.Signer
	limiter  *limiter
	sessions *scs.SessionManager
	cfg      Config
	log      *slog.Logger
	lines    *memo[string]        // log lines by game, entry and language
	places   *memo[[]views.Place] // where a tile may go, by position and viewer
	views    *memo[engine.View]   // what a viewer sees of a position, by game, version and viewer; read only
}

// LinkSigner returns the signer of the store's one-click links.
func LinkSigner(store *models.Store) (*mail.Signer, error) {
	key, err := store.Secret("links")
	if err != nil {
		return nil, err
	}
	return mail.NewSigner(key), nil
}

// New returns the site's router.
func New(store *models.Store, cfg Config) (*echo.Echo, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	sm := scs.New()
	sm.Store = store.Sessions()
	sm.Codec = newSessionCodec()
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
	hub := cfg.Live
	store.OnChange = func(c models.Change) {
		hub.Publish(live.Game(c.Game), c.Version)
		topics := make([]string, 0, len(c.Users)+1)
		for _, u := range c.Users {
			topics = append(topics, live.User(u))
		}
		if c.Lobby {
			topics = append(topics, live.Lobby)
		}
		hub.Touch(topics...)
	}
	s := &Server{store: store, live: cfg.Live, signer: cfg.Signer, limiter: newLimiter(store.Clock), sessions: sm, cfg: cfg, log: cfg.Logger,
		lines: newMemo[string](50_000), places: newMemo[[]views.Place](1_000),
		views: newMemo[engine.View](500)}

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	// The client's address is the connection's (X-Forwarded-For can be
	// forged) unless the site is told it sits behind a proxy.
	e.IPExtractor = echo.ExtractIPDirect()
	if cfg.TrustProxy {
		e.IPExtractor = echo.ExtractIPFromXFFHeader()
	}
	e.HTTPErrorHandler = s.errorHandler
	e.Pre(headAsGet)
	e.Use(middleware.RequestID())
	e.Use(admission(runtime.GOMAXPROCS(0) + 1))
	e.Use(s.requestLog)
	e.Use(middleware.Recover())
	// Sessions load before anything can refuse the request: the error page
	// needs them.
	e.Use(echo.WrapMiddleware(sm.LoadAndSave))
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
			// client with a signed token instead of a CSRF token.
			p := c.Request().URL.Path
			return p == "/healthz" || p == "/m/unsubscribe" || strings.HasPrefix(p, "/static/")
		},
	}))
	e.Use(s.loadUser)
	e.Use(s.setLang)
	s.routes(e)
	return e, nil
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

// admission lets at most n requests work at once; the others wait their
// turn in order. On a saturated machine, hundreds of requests sharing the
// CPU would each take longer, and one holding the database's write
// connection would make every writer wait: a short queue keeps the latency
// of every request close to its own work. One request per core plus one
// that waits on the disk measured best (p99 68 ms against 80-90 ms with
// four per core, the same throughput). Event streams, which mostly wait,
// are not counted, and a request that waits on purpose (a password hash)
// gives its place back meanwhile: see unadmitted.
func admission(n int) echo.MiddlewareFunc {
	slots := make(chan struct{}, n)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if strings.HasSuffix(c.Request().URL.Path, "/events") {
				return next(c)
			}
			select {
			case slots <- struct{}{}:
			case <-c.Request().Context().Done():
				return c.Request().Context().Err()
			}
			defer func() { <-slots }()
			c.Set(slotsKey, slots)
			return next(c)
		}
	}
}

// slotsKey holds the admission queue a request was let in by.
const slotsKey = "cacao.admission"

// hashers limits the password hashes worked out at once, apart from the
// admission queue: half the cores at most, so that a burst of sign-ups or
// log-ins cannot take the machine from the games.
var hashers = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2))

// unadmitted runs f with the request's place in the admission queue given
// back, and waits for a place again after it: f is slow on purpose (bcrypt
// takes tens of milliseconds) and must not hold up the requests behind it.
// It waits for one of the hashers' places instead.
func unadmitted(c echo.Context, f func()) {
	if slots, _ := c.Get(slotsKey).(chan struct{}); slots != nil {
		<-slots
		defer func() { slots <- struct{}{} }()
	}
	hashers <- struct{}{}
	defer func() { <-hashers }()
	f()
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
			"dur_ms", float64(time.Since(start).Microseconds())/1000, "id", res.Header().Get(echo.HeaderXRequestID))
		return nil
	}
}
