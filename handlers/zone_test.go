package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"cacao/views/viewtest"
)

// A new player's time zone is the one their browser gave at sign-up; the
// site's dates are in it (Settings says the time now in it), and Settings
// changes it: an unknown zone is refused and changes nothing, an empty one
// is UTC. The daily email's hour and the quiet hours are saved beside the
// email choice.
func TestTimeZone(t *testing.T) {
	s := newSite(t)
	ana := s.client("ana")
	ana.get("/signup")
	if code, body := ana.post("/signup", url.Values{"username": {"ana"}, "password": {"secret-ana"}, "tz": {"Asia/Tehran"}}); code != http.StatusOK || !strings.Contains(body, "My games") {
		t.Fatalf("sign-up: %d", code)
	}
	// The test clock reads 09:00 UTC on 1 December: 12:30 in Tehran.
	_, page := ana.get("/settings")
	if !viewtest.Has(t, page, `input[name="tz"][list="zones"][autocomplete="off"][value="Asia/Tehran"]`) || !strings.Contains(page, "It is now Tue 1 Dec, 12:30 +0330.") {
		t.Fatalf("settings after signing up from Tehran:\n%.4000s", page[strings.Index(page, "zone-h"):])
	}
	code, body := ana.post("/settings/zone", url.Values{"tz": {"Mars/Olympus"}})
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, "That time zone is unknown") {
		t.Fatalf("an unknown zone: %d", code)
	}
	if u, _ := s.store.UserNamed("ana"); u.TimeZone != "Asia/Tehran" {
		t.Fatalf("the refused zone changed it to %q", u.TimeZone)
	}
	if code, _ := ana.post("/settings/zone", url.Values{"tz": {"America/Los_Angeles"}}); code != http.StatusOK {
		t.Fatalf("a zone: %d", code)
	}
	if _, page := ana.get("/settings"); !strings.Contains(page, "It is now Tue 1 Dec, 01:00 PST.") {
		t.Fatal("the settings do not tell the time in Los Angeles")
	}
	if code, _ := ana.post("/settings/zone", url.Values{"tz": {""}}); code != http.StatusOK {
		t.Fatalf("no zone: %d", code)
	}
	if _, page := ana.get("/settings"); !strings.Contains(page, "It is now Tue 1 Dec, 09:00 UTC.") {
		t.Fatal("without a zone the settings do not tell the time in UTC")
	}
	// A browser that gave nothing, or nonsense, leaves UTC.
	bob := s.client("bob")
	bob.get("/signup")
	bob.post("/signup", url.Values{"username": {"bob"}, "password": {"secret-bob"}, "tz": {"../etc/passwd"}})
	if u, _ := s.store.UserNamed("bob"); u == nil || u.TimeZone != "" {
		t.Fatalf("a sign-up with a bad zone: %+v", u)
	}

	if code, _ := ana.post("/settings/news", url.Values{"email": {"ana@example.com"}, "digest_hour": {"19"}}); code != http.StatusOK {
		t.Fatalf("saving the email choice: %d", code)
	}
	if u, _ := s.store.UserNamed("ana"); u.DigestHour != 19 {
		t.Fatalf("the digest hour is %d, want 19", u.DigestHour)
	}
	if _, page := ana.get("/settings"); !viewtest.HasText(t, page, `option[value="19"][selected]`, "19:00") {
		t.Fatal("the settings do not show the digest hour chosen")
	}
	if code, _ := ana.post("/settings/news", url.Values{"email": {"ana@example.com"}, "digest_hour": {"25"}}); code != http.StatusUnprocessableEntity {
		t.Fatalf("hour 25: %d", code)
	}
	// Quiet hours, saved with the email choice.
	if code, _ := ana.post("/settings/news", url.Values{"email": {"ana@example.com"}, "quiet_from": {"22"}, "quiet_to": {"7"}}); code != http.StatusOK {
		t.Fatalf("quiet hours: %d", code)
	}
	if u, _ := s.store.UserNamed("ana"); u.QuietFrom != 22 || u.QuietTo != 7 {
		t.Fatalf("quiet hours saved as %d–%d", u.QuietFrom, u.QuietTo)
	}
	if _, page := ana.get("/settings"); !viewtest.HasText(t, page, `option[value="22"][selected]`, "22:00") || !viewtest.HasText(t, page, `option[value="7"][selected]`, "07:00") {
		t.Fatal("the settings do not show the quiet hours")
	}
	if code, _ := ana.post("/settings/news", url.Values{"email": {"ana@example.com"}, "quiet_from": {"x"}, "quiet_to": {"7"}}); code != http.StatusUnprocessableEntity {
		t.Fatalf("quiet from x: %d", code)
	}
	// A refused hour keeps nothing of the form: not its new address, not
	// its other hours.
	for _, bad := range []url.Values{
		{"email": {"ana@elsewhere.example"}, "digest_hour": {"99"}, "quiet_from": {"1"}, "quiet_to": {"2"}},
		{"email": {"ana@elsewhere.example"}, "digest_hour": {"3"}, "quiet_from": {"1"}, "quiet_to": {"24"}},
	} {
		if code, _ := ana.post("/settings/news", bad); code != http.StatusUnprocessableEntity {
			t.Fatalf("%v: %d", bad, code)
		}
		if u, _ := s.store.UserNamed("ana"); u.Email != "ana@example.com" || u.DigestHour != 19 || u.QuietFrom != 22 || u.QuietTo != 7 {
			t.Fatalf("a refused form %v kept %q, digest %d, quiet %d–%d", bad, u.Email, u.DigestHour, u.QuietFrom, u.QuietTo)
		}
	}
}
