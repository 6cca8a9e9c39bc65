package models_test

import (
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"cacao/models"
)

// channelsOf counts user's outbox rows of kind by channel.
func channelsOf(t *testing.T, s *models.Store, userID uint, kind models.Kind) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, m := range mailsOf(t, s, userID, kind) {
		out[m.Channel]++
	}
	return out
}

// addDevice registers a device for u with well-formed keys.
func addDevice(t *testing.T, s *models.Store, u *models.User, endpoint string) {
	t.Helper()
	key := "B" + strings.Repeat("A", 86) // 65 bytes, starting 0x04
	if err := s.AddPushSub(u.ID, models.PushSub{Endpoint: endpoint, P256dh: key, Auth: strings.Repeat("A", 22)}); err != nil {
		t.Fatal(err)
	}
}

// Each kind of news goes by the channels the player chose for it: the
// site's notices, mail, a push to each device, the webhook, the digest.
func TestNewsGoesByTheChannelsChosen(t *testing.T) {
	s, _ := openClocked(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	mustEmail(t, s, bob, "bob@example.test", models.MailEach, true)
	addDevice(t, s, bob, "https://push.example.org/1")
	addDevice(t, s, bob, "https://push.example.org/2")
	if err := s.SetHook(bob.ID, "https://ntfy.sh/bob-cacao"); err != nil {
		t.Fatal(err)
	}
	// Starts by push and digest only, no notice; turns by every channel.
	err := s.SetChoices(bob.ID, models.Choices{models.ChanApp: models.NewsTurn, models.ChanMail: models.NewsTurn,
		models.ChanPush: models.NewsTurn | models.NewsInvitation, models.ChanHook: models.NewsTurn, models.ChanDigest: models.NewsInvitation})
	if err != nil {
		t.Fatal(err)
	}
	startDuel(t, s, ana, bob, 0) // bob is told it started; ana that it is her turn
	if n := notesOf(t, s, bob.ID, "started"); len(n) != 0 {
		t.Fatalf("bob chose no notice of starts, got %d", len(n))
	}
	got := channelsOf(t, s, bob.ID, "started")
	if want := map[string]int{models.ChanPush: 2, models.ChanDigest: 1}; !equalCounts(got, want) {
		t.Fatalf("bob's news of the start went by %v, want %v", got, want)
	}
	for _, m := range mailsOf(t, s, bob.ID, "started") {
		if m.Channel == models.ChanDigest && m.Status != models.MailForDigest {
			t.Fatalf("the digest's line is %q", m.Status)
		}
	}
	if got := channelsOf(t, s, ana.ID, "turn"); !equalCounts(got, map[string]int{models.ChanMail: 0}) {
		t.Fatalf("ana has no address, device or webhook: %v", got)
	}
	if len(notesOf(t, s, ana.ID, "turn")) != 1 {
		t.Fatal("ana's turn notice is missing: the site's notices are on by default")
	}
	// A choice the site does not offer is refused; chat news on the site
	// is its unread marks, not a notice.
	if err := s.SetChoices(bob.ID, models.Choices{"fax": models.NewsTurn}); !errors.Is(err, models.ErrBadChoices) {
		t.Fatalf("a channel that is not: %v", err)
	}
	if err := s.SetChoices(bob.ID, models.Choices{models.ChanApp: models.AllNews}); err != nil {
		t.Fatal(err)
	}
	if u, _ := s.UserByID(bob.ID); u.AppNews != models.AllNews&^models.NewsChat {
		t.Fatalf("the site's notices are %v", u.AppNews)
	}
}

// A chat message is news for the players whose chat was all read: one
// until they read it, none for whoever muted it or wrote it.
func TestChatNewsOncePerUnreadRun(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	mustEmail(t, s, bob, "bob@example.test", models.MailOff, true)
	addDevice(t, s, bob, "https://push.example.org/bob")
	id := startDuel(t, s, ana, bob, 0)
	say := func(u *models.User, text string) {
		t.Helper()
		clock.Advance(time.Minute)
		if _, err := s.Say(u, id, text); err != nil {
			t.Fatal(err)
		}
	}
	say(ana, "hello")
	say(ana, "are you there?")
	if got := channelsOf(t, s, bob.ID, models.KindChat); !equalCounts(got, map[string]int{models.ChanPush: 1}) {
		t.Fatalf("two messages unread gave bob %v; want one push", got)
	}
	if got := channelsOf(t, s, ana.ID, models.KindChat); len(got) != 0 {
		t.Fatalf("the writer got news of her own message: %v", got)
	}
	m := mailsOf(t, s, bob.ID, models.KindChat)[0]
	if !strings.Contains(m.Text, "ana wrote in game") || !strings.Contains(m.Text, "hello") {
		t.Fatalf("the chat's news says %q", m.Text)
	}
	if err := s.ReadChat(bob.ID, id); err != nil {
		t.Fatal(err)
	}
	if _, skip, err := s.MailRecipient(&m); err != nil || skip == "" {
		t.Fatalf("news of a chat read since still goes (skip %q, %v)", skip, err)
	}
	say(ana, "again")
	news := mailsOf(t, s, bob.ID, models.KindChat)
	if len(news) != 2 || news[0].Status != models.MailSkipped || news[1].Status != models.MailPending {
		t.Fatalf("after reading, a new message: %d news in all; want the first dropped and one new", len(news))
	}
	if err := s.ReadChat(bob.ID, id); err != nil {
		t.Fatal(err)
	}
	if err := s.MuteChat(bob.ID, id, true); err != nil {
		t.Fatal(err)
	}
	say(ana, "muted?")
	if n := len(mailsOf(t, s, bob.ID, models.KindChat)); n != 2 {
		t.Fatal("a muted chat brought news")
	}
}

// A digest tells the news its reader chose for it since the last one, and
// once sent those lines are done.
func TestDigestTellsNews(t *testing.T) {
	s, clock := openClocked(t) // 09:00 UTC
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	mustEmail(t, s, bob, "bob@example.test", models.MailOff, true)
	if err := s.SetChoices(bob.ID, models.Choices{models.ChanDigest: models.NewsInvitation}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDigestHour(bob.ID, 10); err != nil {
		t.Fatal(err)
	}
	startDuel(t, s, ana, bob, 0) // a game waits on ana, not bob: only the start is news to him
	clock.Advance(time.Hour)
	if n := mustDigests(t, s); n != 1 {
		t.Fatalf("%d digests queued; want bob's", n)
	}
	d := mailsOf(t, s, bob.ID, models.KindDigest)[0]
	r, skip, err := s.MailRecipient(&d)
	if err != nil || skip != "" {
		t.Fatalf("bob's digest: skip %q, %v", skip, err)
	}
	if len(r.News) != 1 || !strings.Contains(r.News[0].Text, "has started") || len(r.Waiting) != 0 {
		t.Fatalf("bob's digest tells %+v, waiting %d", r.News, len(r.Waiting))
	}
	if err := s.MailSent(&d, r.News...); err != nil {
		t.Fatal(err)
	}
	for _, m := range mailsOf(t, s, bob.ID, "started") {
		if m.Status != models.MailSent {
			t.Fatalf("a line told is %q", m.Status)
		}
	}
	clock.Advance(24 * time.Hour)
	if n := mustDigests(t, s); n != 0 {
		t.Fatal("a day with no news brought a digest")
	}
}

// A database from before choices per channel keeps what its players
// wanted: each event by mail, a digest, or no mail.
func TestMailModeMigrates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	s, err := models.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"each", "digest", "off"} {
		models.MustUser(t, s, name)
	}
	s.Close()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	// The users table as it was: the mail mode, none of the choices.
	qs := []string{"DROP TABLE schema_steps", "DROP INDEX idx_users_digest", "ALTER TABLE users ADD COLUMN email_mode text NOT NULL DEFAULT 'off'", "UPDATE users SET email_mode = username"}
	for _, col := range []string{"app_news", "mail_news", "push_news", "hook_news", "digest_news", "hook_url", "hook_secret"} {
		qs = append(qs, "ALTER TABLE users DROP COLUMN "+col)
	}
	for _, q := range qs {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	if s, err = models.Open(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for name, want := range map[string][2]models.News{
		"each":   {models.AllNews &^ (models.NewsChat | models.NewsFollow), 0},
		"digest": {0, models.WaitingNews | models.NewsChat},
		"off":    {0, 0},
	} {
		u, err := s.UserNamed(name)
		if err != nil {
			t.Fatal(err)
		}
		if u.MailNews != want[0] || u.DigestNews != want[1] {
			t.Errorf("%s: mail %v digest %v; want %v", name, u.MailNews, u.DigestNews, want)
		}
	}
	if models.DB(s).Migrator().HasColumn(&models.User{}, "email_mode") {
		t.Fatal("the old column stayed")
	}
}

// Devices: bad subscriptions are refused, at most MaxPushDevices a player,
// a browser moves to whoever registers it last.
func TestPushDevices(t *testing.T) {
	s, _ := openClocked(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	key, auth := "B"+strings.Repeat("A", 86), strings.Repeat("A", 22)
	for _, bad := range []models.PushSub{
		{Endpoint: "ftp://push.example.org/1", P256dh: key, Auth: auth},
		{Endpoint: "https://push.example.org/1", P256dh: "AAAA", Auth: auth},
		{Endpoint: "https://push.example.org/1", P256dh: key, Auth: "short"},
		{Endpoint: "https://push.example.org/" + strings.Repeat("x", 1024), P256dh: key, Auth: auth},
	} {
		if err := s.AddPushSub(ana.ID, bad); !errors.Is(err, models.ErrBadPushSub) {
			t.Errorf("%.40s: %v", bad.Endpoint, err)
		}
	}
	for i := range models.MaxPushDevices {
		addDevice(t, s, ana, "https://push.example.org/"+string(rune('a'+i)))
	}
	if err := s.AddPushSub(ana.ID, models.PushSub{Endpoint: "https://push.example.org/more", P256dh: key, Auth: auth}); !errors.Is(err, models.ErrTooManyDevices) {
		t.Fatalf("one device too many: %v", err)
	}
	addDevice(t, s, bob, "https://push.example.org/a")
	if subs, _ := s.PushSubs(ana.ID); len(subs) != models.MaxPushDevices-1 {
		t.Fatalf("ana has %d devices after bob signed in on one of them", len(subs))
	}
	subs, _ := s.PushSubs(bob.ID)
	if err := s.RemovePushSub(ana.ID, subs[0].ID); err != nil {
		t.Fatal(err)
	}
	if after, _ := s.PushSubs(bob.ID); len(after) != 1 {
		t.Fatal("ana removed bob's device")
	}
}

func equalCounts(got, want map[string]int) bool {
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	for k, v := range got {
		if want[k] != v {
			return false
		}
	}
	return true
}

// Signing out everywhere, a new password (changed or reset) and a ban stop
// push to the player's devices: a lost phone no longer gets their news.
func TestSigningOutForgetsDevices(t *testing.T) {
	s, _ := openClocked(t)
	ana := models.MustUser(t, s, "ana")
	admin := models.MustUser(t, s, "boss")
	if _, err := s.SetAdmin("boss", true); err != nil {
		t.Fatal(err)
	}
	for name, act := range map[string]func() error{
		"signing out everywhere": func() error { return s.SignOutEverywhere(ana.ID) },
		"a new password": func() error {
			_, err := s.ChangePassword(ana.ID, "password-ana", "password-ana")
			return err
		},
		"a reset": func() error {
			u, _ := s.UserByID(ana.ID)
			return s.ResetPassword(ana.ID, u.TokenVersion, "password-ana")
		},
		"a ban": func() error { _, err := s.Ban(admin, "ana", "spam"); return err },
	} {
		addDevice(t, s, ana, "https://push.example.org/ana")
		if err := act(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if subs, _ := s.PushSubs(ana.ID); len(subs) != 0 {
			t.Errorf("after %s ana still has %d devices", name, len(subs))
		}
	}
}
