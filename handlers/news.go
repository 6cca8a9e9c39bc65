package handlers

import (
	"encoding/hex"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"cacao/handlers/hook"
	"cacao/models"
	"cacao/views"
)

// newsVM fills the settings' news: the choices per kind and channel, the
// viewer's devices and webhook.
func (s *Server) newsVM(c echo.Context, u *models.User, vm *views.SettingsVM) error {
	l := lang(c)
	subs, err := s.store.PushSubs(u.ID)
	if err != nil {
		return err
	}
	choices := u.Choices()
	nowhere := map[string]bool{models.ChanMail: u.Email == "", models.ChanDigest: u.Email == "", models.ChanPush: len(subs) == 0, models.ChanHook: u.HookURL == ""}
	for _, n := range models.Kinds {
		row := views.NewsRow{Name: n.Name(), Label: views.NewsName(l, n.Name())}
		for _, ch := range models.ChannelNames {
			row.Cells = append(row.Cells, views.NewsCell{Channel: ch, On: choices[ch]&n != 0, Fixed: ch == models.ChanApp && n == models.NewsChat, Nowhere: nowhere[ch]})
		}
		vm.News = append(vm.News, row)
	}
	off := func(at *time.Time) string {
		if at == nil {
			return ""
		}
		return l.Date(*at, false, true)
	}
	for _, sub := range subs {
		vm.Devices = append(vm.Devices, views.DeviceLine{ID: sub.ID, Device: sub.Device, Added: l.Date(sub.CreatedAt, true, false), Off: off(sub.OffAt)})
	}
	vm.HookOff = off(u.HookOffAt)
	vm.PushKey, vm.HookURL = s.pushKey, u.HookURL
	if u.HookURL != "" {
		if hu, err := url.Parse(u.HookURL); err == nil {
			vm.HookForm = hook.Form(hu)
		}
		vm.HookSecret = hex.EncodeToString(u.HookSecret)
	}
	return nil
}

// saveNews keeps the viewer's address, the news they want by each channel
// (when the form has the table: an unticked box is a "no"), the digest
// hour and the quiet hours. A new address gets a confirmation mail first.
func (s *Server) saveNews(c echo.Context) error {
	u := currentUser(c)
	choices := models.Choices{}
	if c.FormValue("table") != "" {
		form, err := c.FormParams()
		if err != nil {
			return err
		}
		for _, ch := range models.ChannelNames {
			choices[ch] = 0
			for _, name := range form["news_"+ch] {
				n := models.NewsNamed(name)
				if n == 0 {
					return s.settingsRefused(c, u, models.ErrBadChoices)
				}
				choices[ch] |= n
			}
		}
	}
	// The hours are checked before anything is kept: a refused form
	// changes nothing.
	digest, setDigest := -1, c.FormValue("digest_hour") != ""
	if setDigest {
		var err error
		if digest, err = strconv.Atoi(c.FormValue("digest_hour")); err != nil {
			digest = -1
		}
		if err := models.CheckDigestHour(digest); err != nil {
			return s.settingsRefused(c, u, err)
		}
	}
	from, to := c.FormValue("quiet_from"), c.FormValue("quiet_to")
	quietFrom, quietTo, setQuiet := -1, -1, from != "" || to != ""
	if setQuiet {
		f, err1 := strconv.Atoi(from)
		t, err2 := strconv.Atoi(to)
		if err1 == nil && err2 == nil {
			quietFrom, quietTo = f, t
		}
		if err := models.CheckQuietHours(quietFrom, quietTo); err != nil {
			return s.settingsRefused(c, u, err)
		}
	}
	// A new address takes one of the client address's confirmation mails
	// first; the store then counts the account's and the site's.
	if email := strings.TrimSpace(c.FormValue("email")); email != "" && email != u.Email {
		if d := s.take(c, confirmKey(c.RealIP())); d > 0 {
			h := int(d.Hours()) + 1
			return s.renderSettings(c, http.StatusTooManyRequests, u, lang(c).N("Your address asked for many confirmation mails today. Try again in %d hour.", "Your address asked for many confirmation mails today. Try again in %d hours.", h, h))
		}
	}
	nu, err := s.store.SetEmail(u.ID, c.FormValue("email"), "")
	if err != nil {
		return s.settingsRefused(c, u, err)
	}
	if setDigest {
		if err := s.store.SetDigestHour(u.ID, digest); err != nil {
			return s.settingsRefused(c, u, err)
		}
	}
	if setQuiet {
		if err := s.store.SetQuietHours(u.ID, quietFrom, quietTo); err != nil {
			return s.settingsRefused(c, u, err)
		}
	}
	if err := s.store.SetChoices(u.ID, choices); err != nil {
		return s.settingsRefused(c, u, err)
	}
	msg := tr(c, "Saved.")
	if nu.Email != "" && !nu.EmailVerified {
		msg = tr(c, "Saved. We sent a link to %s: follow it to confirm the address; mail starts after that.", nu.Email)
	}
	s.sessions.Put(c.Request().Context(), "flash", msg)
	return redirect(c, "/settings")
}

// addDevice registers the browser the viewer asks to be notified on (the
// subscription app.js got from its push service).
func (s *Server) addDevice(c echo.Context) error {
	u := currentUser(c)
	sub := models.PushSub{Endpoint: c.FormValue("endpoint"), P256dh: c.FormValue("p256dh"), Auth: c.FormValue("auth"), Device: device(c.Request().UserAgent())}
	if !s.cfg.PrivateHooks && !publicURL(sub.Endpoint) {
		return s.settingsRefused(c, u, models.ErrBadPushSub)
	}
	if err := s.store.AddPushSub(u.ID, sub); err != nil {
		return s.settingsRefused(c, u, err)
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "This device will be notified."))
	return redirect(c, "/settings#devices-h")
}

// removeDevice forgets one of the viewer's devices.
func (s *Server) removeDevice(c echo.Context) error {
	u := currentUser(c)
	id, _ := strconv.ParseUint(c.FormValue("id"), 10, 64)
	if err := s.store.RemovePushSub(u.ID, uint(id)); err != nil {
		return err
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "That device will no longer be notified."))
	return redirect(c, "/settings#devices-h")
}

// saveHook keeps the viewer's webhook ("" for none). An address inside a
// private network or on this machine is refused (unless the site allows
// them, for tests); the poster checks again when it connects.
func (s *Server) saveHook(c echo.Context) error {
	u := currentUser(c)
	raw := strings.TrimSpace(c.FormValue("hook"))
	if raw != "" && !s.cfg.PrivateHooks && !publicURL(raw) {
		return s.settingsRefused(c, u, models.ErrBadHook)
	}
	if err := s.store.SetHook(u.ID, raw); err != nil {
		return s.settingsRefused(c, u, err)
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "Saved."))
	return redirect(c, "/settings#devices-h")
}

// newHookSecret gives the viewer's webhook a new signing key, shown in
// the settings as the first one was: the old one stops working at once.
func (s *Server) newHookSecret(c echo.Context) error {
	if err := s.store.NewHookSecret(currentUser(c).ID); err != nil {
		return err
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "Your webhook has a new key: posts are signed with it from now on, and the old one no longer works."))
	return redirect(c, "/settings#devices-h")
}

// testNews sends a test notice to the viewer's devices and webhook.
func (s *Server) testNews(c echo.Context) error {
	u := currentUser(c)
	if s.take(c, testKey(u.ID)) > 0 {
		return s.settingsRefused(c, u, models.ErrTooManyTests)
	}
	n, err := s.store.QueueTest(u.ID)
	if err != nil {
		return s.settingsRefused(c, u, err)
	}
	msg := tr(c, "A test notice is on its way to your devices and webhook.")
	if n == 0 {
		msg = tr(c, "You have no device and no webhook to send a test notice to.")
	}
	s.sessions.Put(c.Request().Context(), "flash", msg)
	return redirect(c, "/settings#devices-h")
}

// publicURL reports whether raw is an https address whose host is not
// plainly inside a private network or this machine: a name other than
// localhost, or a public address. (What a name resolves to is checked when
// the post connects.)
func publicURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || net.ParseIP(host) == nil && !strings.Contains(host, ".") {
		return false
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return hook.Public(ip)
	}
	return true
}
