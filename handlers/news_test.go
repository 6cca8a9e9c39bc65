package handlers_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"cacao/handlers"
	"cacao/models"
	"cacao/views/viewtest"
)

// The table of Settings keeps, for each kind of news, the channels ticked
// (an unticked box is a "no"), and shows them again; news that is not in
// the list is refused and changes nothing.
func TestSettingsNewsTable(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	_, page := ana.get("/settings")
	if !viewtest.HasText(t, page, "table caption", "How each kind of news reaches you") {
		t.Fatalf("the settings lack the news table:\n%s", viewtest.Show(t, page, "caption"))
	}
	for _, want := range []string{`input[name="news_app"][value="turn"][checked]`, `[aria-labelledby="news-c-mail news-r-turn"]`, `form[action="/settings/devices"]`} {
		if !viewtest.Has(t, page, want) {
			t.Fatalf("the settings lack %s", want)
		}
	}
	if viewtest.Has(t, page, `[name="news_app"][value="chat"]`) {
		t.Fatal("the chat's notices on the site are offered as a choice")
	}
	form := url.Values{"table": {"1"}, "news_app": {"turn"}, "news_push": {"turn", "chat"}, "news_digest": {"result"}}
	if code, _ := ana.post("/settings/news", form); code != http.StatusOK {
		t.Fatalf("saving the table: %d", code)
	}
	u, _ := s.store.UserNamed("ana")
	if u.AppNews != models.NewsTurn || u.MailNews != 0 || u.PushNews != models.NewsTurn|models.NewsChat || u.HookNews != 0 || u.DigestNews != models.NewsResult {
		t.Fatalf("stored: %+v", u.Choices())
	}
	_, page = ana.get("/settings")
	if !viewtest.Has(t, page, `input[type="hidden"][name="news_digest"][value="result"]`) || viewtest.Has(t, page, `[name="news_mail"][value="turn"]`) {
		t.Fatal("the settings do not show the choices saved")
	}
	form.Set("news_hook", "everything")
	if code, body := ana.post("/settings/news", form); code != http.StatusUnprocessableEntity || !strings.Contains(body, "Choose news from the list") {
		t.Fatalf("news not in the list: %d", code)
	}
	if after, _ := s.store.UserNamed("ana"); after.Choices()[models.ChanHook] != 0 {
		t.Fatal("a refused form changed the choices")
	}
}

// A channel with nowhere to send yet (no address, device or webhook) shows
// its boxes off and disabled, says why, and keeps what the player chose
// for it when the table is saved; once it has somewhere to send, its boxes
// show the choices kept.
func TestSettingsNewsWaitForAnAddress(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	before, _ := s.store.UserNamed("ana")
	_, page := ana.get("/settings")
	for _, ch := range []string{"mail", "push", "hook", "digest"} {
		if viewtest.Has(t, page, `input[type="checkbox"][name="news_`+ch+`"]`) || !viewtest.Has(t, page, `input[type="checkbox"][disabled][aria-labelledby="news-c-`+ch+` news-r-turn"]`) {
			t.Fatalf("the %s boxes are offered before there is anywhere to send", ch)
		}
	}
	if !viewtest.Has(t, page, "#news-nowhere") {
		t.Fatal("the settings do not say why the boxes are off")
	}
	// Saved as a browser sends the form: the boxes ticked and the choices
	// kept for the channels without an address.
	form := url.Values{"table": {"1"}}
	viewtest.Find(t, page, `input[type="checkbox"][name^="news_"], input[type="hidden"][name^="news_"]`).Each(func(_ int, in *goquery.Selection) {
		if _, checked := in.Attr("checked"); checked || in.AttrOr("type", "") == "hidden" {
			form.Add(in.AttrOr("name", ""), in.AttrOr("value", ""))
		}
	})
	if code, _ := ana.post("/settings/news", form); code != http.StatusOK {
		t.Fatalf("saving the table: %d", code)
	}
	if after, _ := s.store.UserNamed("ana"); fmt.Sprint(after.Choices()) != fmt.Sprint(before.Choices()) {
		t.Fatalf("saving the table as shown changed the choices: %v, were %v", after.Choices(), before.Choices())
	}
	if code, _ := ana.post("/settings/news", newsForm("ana@example.test", eachMail...)); code != http.StatusOK {
		t.Fatal("giving an address")
	}
	if _, page = ana.get("/settings"); !viewtest.Has(t, page, `input[type="checkbox"][name="news_mail"][value="turn"][checked]`) ||
		!viewtest.Has(t, page, `input[type="checkbox"][disabled][aria-labelledby="news-c-push news-r-turn"]`) {
		t.Fatal("with an address, the mail boxes are not offered (or push is, without a device)")
	}
}

// "Notify this device" registers the browser's subscription, shown in the
// list with a button to remove it; a subscription on this machine is
// refused on a real site; nobody removes another's device.
func TestSettingsDevices(t *testing.T) {
	s := newSiteWith(t, func(c *handlers.Config) { c.PrivateHooks = true })
	ana, bob := s.signup("ana"), s.signup("bob")
	key, auth := "B"+strings.Repeat("A", 86), strings.Repeat("A", 22)
	form := url.Values{"endpoint": {"http://127.0.0.1:9/push/1"}, "p256dh": {key}, "auth": {auth}}
	code, page := ana.post("/settings/devices", form)
	if code != http.StatusOK || !strings.Contains(page, "This device will be notified.") {
		t.Fatalf("registering a device: %d", code)
	}
	subs, _ := s.store.PushSubs(s.userID("ana"))
	if len(subs) != 1 || !viewtest.Has(t, page, `input[name="id"][value="`+fmt.Sprint(subs[0].ID)+`"]`) {
		t.Fatalf("ana's devices: %+v", subs)
	}
	bob.post("/settings/devices/remove", url.Values{"id": {fmt.Sprint(subs[0].ID)}})
	if after, _ := s.store.PushSubs(s.userID("ana")); len(after) != 1 {
		t.Fatal("bob removed ana's device")
	}
	ana.post("/settings/devices/remove", url.Values{"id": {fmt.Sprint(subs[0].ID)}})
	if after, _ := s.store.PushSubs(s.userID("ana")); len(after) != 0 {
		t.Fatal("ana could not remove her device")
	}
	form.Set("p256dh", "nonsense")
	if code, body := ana.post("/settings/devices", form); code != http.StatusUnprocessableEntity || !strings.Contains(body, "cannot use") {
		t.Fatalf("a bad subscription: %d", code)
	}

	real := newSite(t)
	eve := real.signup("eve")
	form = url.Values{"p256dh": {key}, "auth": {auth}}
	for _, endpoint := range []string{"http://127.0.0.1:9/push/1", "http://push.example.org/1", "https://localhost/push", "https://10.0.0.2/push", "https://[::1]/push"} {
		form.Set("endpoint", endpoint)
		form.Del("_csrf")
		if code, _ := eve.post("/settings/devices", form); code != http.StatusUnprocessableEntity {
			t.Errorf("a push endpoint at %s: %d", endpoint, code)
		}
	}
	if subs, _ := real.store.PushSubs(real.userID("eve")); len(subs) != 0 {
		t.Fatal("a private endpoint was kept")
	}
}

// The webhook: kept with its signing key shown and its form said; a
// private address is refused; a test notice goes to it, a few a minute.
func TestSettingsHook(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	for _, bad := range []string{"ftp://example.org/x", "http://ntfy.sh/plain-http", "http://127.0.0.1:8080/hook", "https://192.168.1.10/hook", "https://localhost/x", "https://intranet/x"} {
		if code, _ := ana.post("/settings/hook", url.Values{"hook": {bad}}); code != http.StatusUnprocessableEntity {
			t.Errorf("webhook %s: %d", bad, code)
		}
	}
	code, page := ana.post("/settings/hook", url.Values{"hook": {"https://ntfy.sh/ana-cacao-7f3"}})
	u, _ := s.store.UserNamed("ana")
	if code != http.StatusOK || u.HookURL != "https://ntfy.sh/ana-cacao-7f3" || !strings.Contains(page, "Posted as an ntfy message") ||
		!strings.Contains(page, fmt.Sprintf("%x", u.HookSecret)) {
		t.Fatalf("saving an ntfy webhook: %d, %q", code, u.HookURL)
	}
	for i, want := range []string{"A test notice is on its way", "A test notice is on its way", "You sent test notices just now"} {
		if _, body := ana.post("/settings/news/test", nil); !strings.Contains(body, want) {
			t.Fatalf("test %d does not say %q", i+1, want)
		}
	}
	ana.post("/settings/hook", url.Values{"hook": {""}})
	if u, _ := s.store.UserNamed("ana"); u.HookURL != "" {
		t.Fatal("the webhook could not be removed")
	}
}

// TestHookNewSecret: a form beside the webhook (a plain post, with the
// CSRF token) gives it a new signing key, shown as the first one was; the
// old key is gone. Without the token nothing changes.
func TestHookNewSecret(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	if _, page := ana.get("/settings"); viewtest.Has(t, page, `[action="/settings/hook/secret"]`) {
		t.Fatal("a new key is offered for no webhook")
	}
	ana.post("/settings/hook", url.Values{"hook": {"https://ntfy.sh/ana-cacao-7f3"}})
	before, _ := s.store.UserNamed("ana")
	old := fmt.Sprintf("%x", before.HookSecret)
	_, page := ana.get("/settings")
	if token, _ := viewtest.Attr(t, page, `form[method="post"][action="/settings/hook/secret"] > input:first-child[type="hidden"][name="_csrf"]`, "value"); token == "" {
		t.Fatal("the settings have no form for a new webhook key")
	}
	if code, _ := ana.post("/settings/hook/secret", url.Values{"_csrf": {"x"}}); code < 400 {
		t.Fatalf("a new key without the CSRF token: %d", code)
	}
	if u, _ := s.store.UserNamed("ana"); fmt.Sprintf("%x", u.HookSecret) != old {
		t.Fatal("the key changed without the CSRF token")
	}
	code, page := ana.post("/settings/hook/secret", nil)
	after, _ := s.store.UserNamed("ana")
	fresh := fmt.Sprintf("%x", after.HookSecret)
	if code != http.StatusOK || fresh == old || len(after.HookSecret) != len(before.HookSecret) || after.HookURL != before.HookURL ||
		!viewtest.HasText(t, page, "code.secret", fresh) || strings.Contains(page, old) {
		t.Fatalf("a new webhook key: %d, %s after %s", code, fresh, old)
	}
}

// A device and a webhook switched off, their posts failing, are shown so
// in Settings, in the viewer's language, and told of among the notices;
// set again, they are on.
func TestSettingsShowWhatIsSwitchedOff(t *testing.T) {
	s := newSiteWith(t, func(c *handlers.Config) { c.PrivateHooks = true })
	ana := s.signup("ana")
	key, auth := "B"+strings.Repeat("A", 86), strings.Repeat("A", 22)
	device := url.Values{"endpoint": {"http://127.0.0.1:9/push/1"}, "p256dh": {key}, "auth": {auth}}
	ana.post("/settings/devices", device)
	ana.post("/settings/hook", url.Values{"hook": {"http://127.0.0.1:9/hook"}})
	subs, _ := s.store.PushSubs(s.userID("ana"))
	if len(subs) != 1 {
		t.Fatalf("ana's devices: %+v", subs)
	}
	_, page := ana.get("/settings")
	if strings.Contains(page, "Switched off") {
		t.Fatal("Settings show a device or webhook switched off before any post failed")
	}
	for range models.OffAfterFailures {
		for _, m := range []models.Mail{{UserID: s.userID("ana"), Channel: models.ChanPush, To: fmt.Sprint(subs[0].ID)}, {UserID: s.userID("ana"), Channel: models.ChanHook}} {
			if _, err := s.store.PostFailed(&m, errors.New("context deadline exceeded")); err != nil {
				t.Fatal(err)
			}
		}
		s.clock.Advance(models.OffAfter / (models.OffAfterFailures - 1))
	}
	_, page = ana.get("/settings")
	for _, want := range []string{"Switched off on Tue 1 Dec, 10:00 UTC: no notice went through", `id="hook-off">Switched off on Tue 1 Dec, 10:00 UTC: no post went through`} {
		if !strings.Contains(page, want) {
			t.Fatalf("Settings do not say %q", want)
		}
	}
	_, page = ana.get("/notifications")
	for _, want := range []string{`<h2 id="notices-0">Your account</h2>`, "Posts to your webhook are switched off", "Notices to one of your devices are switched off"} {
		if !strings.Contains(page, want) {
			t.Fatalf("the notices do not say %q", want)
		}
	}
	ana.post("/language", url.Values{"lang": {"fa"}})
	if _, page = ana.get("/settings"); !strings.Contains(page, "خاموش شد: بیش از یک ساعت هیچ درخواستی به آن نرسید") {
		t.Fatal("Settings in Persian do not say the webhook is switched off")
	}
	ana.post("/language", url.Values{"lang": {"en"}})
	ana.post("/settings/devices", device)
	ana.post("/settings/hook", url.Values{"hook": {"http://127.0.0.1:9/hook"}})
	if _, page = ana.get("/settings"); strings.Contains(page, "Switched off") {
		t.Fatal("set again, a device or the webhook is still shown switched off")
	}
}

// The service worker is served from the root, so that its scope is the
// whole site.
func TestServiceWorker(t *testing.T) {
	s := newSite(t)
	res, err := http.Get(s.srv.URL + "/sw.js")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(res.Header.Get("Content-Type"), "javascript") || res.Header.Get("Cache-Control") != "public, no-cache" {
		t.Fatalf("/sw.js: %d %v", res.StatusCode, res.Header)
	}
}

// userID is the id of the user called name.
func (s *site) userID(name string) uint {
	s.t.Helper()
	u, err := s.store.UserNamed(name)
	if err != nil {
		s.t.Fatal(err)
	}
	return u.ID
}
