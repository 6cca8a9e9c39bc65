package handlers

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"cacao/models"
	"cacao/views"
	"cacao/views/i18n"
)

func (s *Server) signupForm(c echo.Context) error {
	return render(c, http.StatusOK, views.AuthPage(views.AuthVM{Page: s.page(c, tr(c, "Sign up")), Signup: true, Next: safeNext(c.QueryParam("next"))}))
}

func (s *Server) loginForm(c echo.Context) error {
	return render(c, http.StatusOK, views.AuthPage(views.AuthVM{Page: s.page(c, tr(c, "Log in")), Next: safeNext(c.QueryParam("next"))}))
}

func (s *Server) signup(c echo.Context) error {
	name, pw := c.FormValue("username"), c.FormValue("password")
	refuse := func(code int, msg string) error {
		return render(c, code, views.AuthPage(views.AuthVM{Page: s.page(c, tr(c, "Sign up")), Signup: true, Username: name, Error: msg, Next: safeNext(c.FormValue("next"))}))
	}
	// A sign-up refused for its name costs no hash, but one of the
	// address's password checks all the same: asking which names are taken
	// is no faster than signing up.
	if err := s.takeCheck(c); err != nil {
		return refused(c, err, refuse)
	}
	if err := s.store.CheckSignup(name, pw); err != nil {
		return refused(c, err, refuse)
	}
	if d := s.take(c, signupKey(c.RealIP())); d > 0 {
		return refuse(http.StatusTooManyRequests, lang(c).N("Too many sign-ups from your address. Try again in %d minute.", "Too many sign-ups from your address. Try again in %d minutes.", int(d.Minutes())+1, int(d.Minutes())+1))
	}
	var u *models.User
	err := s.hashing.do(c.Request().Context(), AddressOf(c.RealIP()), func() error {
		var err error
		u, err = s.store.CreateUser(name, pw)
		return err
	})
	if err != nil {
		return refused(c, err, refuse)
	}
	// The browser's time zone (app.js fills it in) is a guess: one the
	// site does not know leaves UTC, changeable in Settings.
	if tz := c.FormValue("tz"); tz != "" {
		if err := s.store.SetTimeZone(u.ID, tz); err == nil {
			u.TimeZone = tz
		}
	}
	if err := s.startSession(c, u); err != nil {
		return err
	}
	return redirect(c, safeNext(c.FormValue("next")))
}

// login signs a user in. Failures are counted once the password is found
// wrong (wait, then spend: a right password must not count), per account
// and address and per address; racing guesses gain little over that, as
// one address has at most two password checks under way at once (gate).
// The account's log-ins are taken once it is found right; one past them
// waits without a hash.
func (s *Server) login(c echo.Context) error {
	name := c.FormValue("username")
	folded := strings.ToLower(strings.TrimSpace(name))
	failures := []limitKey{accountKey(folded, c.RealIP()), addressKey(c.RealIP())}
	refuse := func(code int, msg string) error {
		return render(c, code, views.AuthPage(views.AuthVM{Page: s.page(c, tr(c, "Log in")), Username: name, Error: msg, Next: safeNext(c.FormValue("next"))}))
	}
	tooMany := func(d time.Duration) error {
		retryAfter(c, d)
		return refused(c, &errSpent{wait: d, of: spentLogins}, refuse)
	}
	if d := s.limiter.wait(failures...); d > 0 {
		retryAfter(c, d)
		return refuse(http.StatusTooManyRequests, lang(c).N("Too many failed log-ins. Try again in %d minute.", "Too many failed log-ins. Try again in %d minutes.", int(d.Minutes())+1, int(d.Minutes())+1))
	}
	if d := s.limiter.wait(loginsKey(folded)); d > 0 {
		return tooMany(d)
	}
	var u *models.User
	err := s.hash(c, func() error {
		var err error
		u, err = s.store.Authenticate(name, c.FormValue("password"))
		return err
	})
	if errors.Is(err, models.ErrBadLogin) {
		s.limiter.spend(failures...)
		_, msg := status(lang(c), err)
		return refuse(http.StatusUnauthorized, msg)
	}
	if err != nil {
		return refused(c, err, refuse)
	}
	s.limiter.forget(failures[0])
	if d := s.take(c, loginsKey(folded)); d > 0 {
		return tooMany(d) // log-ins at once, past the account's
	}
	if err := s.startSession(c, u); err != nil {
		return err
	}
	return redirect(c, safeNext(c.FormValue("next")))
}

// refused shows a form again with why err refused it (refuse renders it);
// an error of the site's own is returned, for the error handler.
func refused(c echo.Context, err error, refuse func(code int, msg string) error) error {
	code, msg := status(lang(c), err)
	if code >= http.StatusInternalServerError {
		return err
	}
	return refuse(code, msg)
}

// startSession signs u in on a fresh session token (no fixation).
func (s *Server) startSession(c echo.Context, u *models.User) error {
	if u.BannedAt != nil {
		return &models.BannedError{Reason: u.BanReason}
	}
	ctx := c.Request().Context()
	if err := s.sessions.RenewToken(ctx); err != nil {
		return err
	}
	s.sessions.Put(ctx, "user_id", int(u.ID))
	s.sessions.Put(ctx, "user_ver", u.TokenVersion) // see loadUser
	s.sessions.Put(ctx, "seen", s.store.Clock().Unix())
	if err := s.store.RecordLogin(s.sessions.Token(ctx), u, device(c.Request().UserAgent())); err != nil {
		return err
	}
	// A language chosen before signing in becomes the account's, so that
	// mail (which has no browser to ask) is in it too.
	if ck, err := c.Cookie(langCookie); err == nil && u.Lang == "" {
		if l, ok := i18n.Get(ck.Value); ok {
			return s.store.SetLang(u.ID, l.Code)
		}
	}
	return nil
}

// logout ends this browser's session (POST /logout): a guest's only with
// confirm=1, sent by the page that warns them (logoutForm).
func (s *Server) logout(c echo.Context) error {
	if u := currentUser(c); u != nil && u.Guest && c.FormValue("confirm") != "1" {
		// A guest cannot sign in again: they log out from the page that
		// warns them (a form of an older page leads there too).
		return redirect(c, "/logout")
	}
	ctx := c.Request().Context()
	if err := s.store.ForgetLogin(s.sessions.Token(ctx)); err != nil {
		return err
	}
	if err := s.sessions.Destroy(ctx); err != nil {
		return err
	}
	return redirect(c, "/")
}

// logoutForm asks before logging out (GET /logout): a guest, who has no
// password to sign in with again, is told that their games will be lost
// and offered to make an account instead.
func (s *Server) logoutForm(c echo.Context) error {
	return render(c, http.StatusOK, views.LogoutPage(s.page(c, tr(c, "Log out?"))))
}

// safeNext keeps redirects after log-in on this site.
func safeNext(next string) string {
	// Browsers drop tabs and newlines from URLs ("/\t/host" becomes
	// "//host"), so any control character refuses the address.
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.Contains(next, "\\") ||
		strings.IndexFunc(next, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return "/"
	}
	return next
}

// device names the browser and system of a user agent in a few words, for
// the list of sessions ("Firefox · Android"); "" when unknown.
func device(ua string) string {
	pick := func(pairs ...string) string {
		for i := 0; i < len(pairs); i += 2 {
			if strings.Contains(ua, pairs[i]) {
				return pairs[i+1]
			}
		}
		return ""
	}
	browser := pick("Firefox/", "Firefox", "Edg/", "Edge", "OPR/", "Opera", "Chrome/", "Chrome", "Chromium/", "Chromium", "Safari/", "Safari")
	system := pick("Android", "Android", "iPhone", "iPhone", "iPad", "iPad", "Windows", "Windows", "Mac OS X", "macOS", "CrOS", "ChromeOS", "Linux", "Linux")
	switch {
	case browser != "" && system != "":
		return browser + " · " + system
	case browser+system != "":
		return browser + system
	}
	return ""
}
