package models_test

import (
	"errors"
	"testing"
	"time"

	"cacao/models"
)

// TestDeleteAccount: a wrong password changes nothing; deleting gives the
// seat of a running game to the bot and takes the account, its
// notifications and mail away.
func TestDeleteAccount(t *testing.T) {
	s, _ := openClocked(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	id := startDuel(t, s, ana, bob, 24)
	if _, err := s.DeleteAccount(ana.ID, "nope"); !errors.Is(err, models.ErrWrongPassword) {
		t.Fatalf("a wrong password: %v", err)
	}
	signedIn := session(t, s, ana)
	addDevice(t, s, ana, "https://push.example.org/ana")
	said, err := s.Say(ana, id, "my words")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ReportChat(bob.ID, id, said.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveNote(ana.ID, id, "bob likes water"); err != nil {
		t.Fatal(err)
	}
	running, err := s.DeleteAccount(ana.ID, "password-ana")
	if err != nil || len(running) != 1 || running[0] != id {
		t.Fatalf("deleting: %v %v", running, err)
	}
	if _, err := s.UserByID(ana.ID); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("the account is still there: %v", err)
	}
	if _, ok, _ := s.Sessions().Find(signedIn); ok {
		t.Fatal("the deleted account's session is still stored")
	}
	if ns, _, _ := s.Notifications(ana.ID, 0, -1); len(ns) != 0 {
		t.Fatalf("%d notices of the deleted account are left", len(ns))
	}
	if notes, _ := s.Notes(ana.ID); len(notes) != 0 {
		t.Fatal("the deleted account's note is left")
	}
	if subs, _ := s.PushSubs(ana.ID); len(subs) != 0 {
		t.Fatal("the deleted account's device is left")
	}
	if msgs, _, _ := s.Chat(id, 0); len(msgs) != 0 {
		t.Fatal("the deleted account's message is left")
	}
	if _, n, _ := s.Reports(0, 10); n != 0 {
		t.Fatal("a report of the deleted account's message is left")
	}
	l := mustLoad(t, s, id)
	for _, st := range l.Seats {
		if st.UserID != nil && *st.UserID == ana.ID || st.Name == "ana" {
			t.Fatalf("a seat still names ana: %+v", st)
		}
	}
}

// session stores a session signed in as u (as the site's log-in does) and
// returns its token.
func session(t *testing.T, s *models.Store, u *models.User) string {
	t.Helper()
	token := "token-of-" + u.Username
	if err := s.Sessions().Commit(token, []byte("data"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordLogin(token, u, "a test"); err != nil {
		t.Fatal(err)
	}
	return token
}
