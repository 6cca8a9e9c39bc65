package models_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"cacao/models"
)

// mustGuest makes a guest called name.
func mustGuest(t *testing.T, s *models.Store, name string) *models.User {
	t.Helper()
	u, err := s.CreateGuest(name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// privateDuel starts a private table of first, whose seat second takes
// through its link.
func privateDuel(t *testing.T, s *models.Store, first, second *models.User) uint {
	t.Helper()
	g, err := s.CreateGame(first, models.GameSpec{Seats: []string{models.SeatOpen}, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	if g, err = s.Join(0, g.InviteToken, second); err != nil || g.Status != models.StatusActive {
		t.Fatalf("%s takes the seat by the link: %v", second.Username, err)
	}
	return g.ID
}

// TestGuestIsNoAccount: a guest's name is taken as an account's is, and
// no password logs them in (they have none).
func TestGuestIsNoAccount(t *testing.T) {
	s, _ := openClocked(t)
	gus := mustGuest(t, s, "gus")
	if !gus.Guest || len(gus.PasswordHash) != 0 {
		t.Fatalf("a guest: %+v", gus)
	}
	for _, pw := range []string{"", "anything-at-all"} {
		if _, err := s.Authenticate("gus", pw); !errors.Is(err, models.ErrBadLogin) {
			t.Fatalf("a guest logged in with %q: %v", pw, err)
		}
	}
	if _, err := s.CreateGuest("GUS"); !errors.Is(err, models.ErrUsernameTaken) {
		t.Fatalf("a second guest with the name: %v", err)
	}
	if _, err := s.CreateUser("Gus", "password-gus"); !errors.Is(err, models.ErrUsernameTaken) {
		t.Fatalf("an account with a guest's name: %v", err)
	}
	if _, err := s.CreateGuest("x"); !errors.Is(err, models.ErrInvalid) {
		t.Fatalf("a guest with a name too short: %v", err)
	}
}

// TestGuestRestrictions: a guest plays bots (at a private table) and
// takes seats they were invited to, by the link of a private table or
// kept for them by name; they open no table for people, join no public
// table, chat only at private tables, get no mail, push or webhook post
// (the site's notices only), and a game with a guest is rated for nobody.
func TestGuestRestrictions(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob := veteran(t, s, "ana"), veteran(t, s, "bob")
	gus := mustGuest(t, s, "gus")
	clock.Advance(models.RatedAge)

	for _, seats := range [][]string{{models.SeatOpen}, {"@ana"}, {"random", models.SeatOpen}} {
		if _, err := s.CreateGame(gus, models.GameSpec{Seats: seats}); !errors.Is(err, models.ErrGuestTable) {
			t.Fatalf("a guest opens a table %v: %v", seats, err)
		}
	}
	bots, err := s.CreateGame(gus, models.GameSpec{Seats: []string{"random"}})
	if err != nil {
		t.Fatal(err)
	}
	if !bots.Private || !bots.Seats[0].Guest || bots.Status != models.StatusActive {
		t.Fatalf("a guest's game against a bot: private %v, seat marked %v, %s", bots.Private, bots.Seats[0].Guest, bots.Status)
	}

	public, err := s.CreateGame(ana, models.GameSpec{Seats: []string{models.SeatOpen}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Join(public.ID, "", gus); !errors.Is(err, models.ErrGuestPublic) {
		t.Fatalf("a guest joins a public table from the lobby: %v", err)
	}
	if _, err := s.Join(0, public.InviteToken, gus); !errors.Is(err, models.ErrGuestPublic) {
		t.Fatalf("a guest joins a public table by its link: %v", err)
	}

	// Kept by name at a public table: the seat is theirs, the chat (where
	// anyone from the lobby may sit) is not.
	kept, err := s.CreateGame(bob, models.GameSpec{Seats: []string{"@gus", models.SeatOpen}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Join(kept.ID, "", gus); err != nil {
		t.Fatalf("a guest takes the seat kept for them: %v", err)
	}
	if _, err := s.Say(gus, kept.ID, "hello"); !errors.Is(err, models.ErrGuestChat) {
		t.Fatalf("a guest chats at a public table: %v", err)
	}

	// Mail, push and webhooks set for the guest behind the site's back
	// still carry nothing.
	err = models.DB(s).Model(&models.User{}).Where("id = ?", gus.ID).
		Updates(map[string]any{"email": "gus@example.org", "email_verified": true, "hook_url": "https://hooks.example.org/gus", "hook_secret": []byte("k")}).Error
	if err != nil {
		t.Fatal(err)
	}
	id := privateDuel(t, s, ana, gus)
	if seat := seatOf(t, s, id, gus); !seat.Guest {
		t.Fatal("the guest's seat taken by the link is not marked")
	}
	if _, err := s.Say(gus, id, "hello ana"); err != nil {
		t.Fatalf("a guest chats at the private table they were invited to: %v", err)
	}
	if n := len(notesOf(t, s, gus.ID, models.KindStarted)); n == 0 {
		t.Fatal("the guest was not told on the site that the game started")
	}
	var mails int64
	if err := models.DB(s).Model(&models.Mail{}).Where("user_id = ?", gus.ID).Count(&mails).Error; err != nil {
		t.Fatal(err)
	}
	if mails != 0 {
		t.Fatalf("%d mails, pushes or posts queued for a guest", mails)
	}

	l := playOut(t, s, id, ana, gus)
	for _, seat := range l.Seats {
		if seat.RatedFrom != 0 || seat.RatedTo != 0 {
			t.Fatalf("a game with a guest rated %s: %.1f→%.1f", seat.Name, seat.RatedFrom, seat.RatedTo)
		}
	}
	if a := mustUserByID(t, s, ana.ID); a.RatedGames != 0 || a.Rating != 1500 {
		t.Fatalf("ana rated by a game against a guest: %.1f after %d games", a.Rating, a.RatedGames)
	}
}

// TestBecomeAccount: a guest who makes an account (in another name here)
// keeps their games, seats, messages and notices; their seats are no longer
// marked; they log in with the password, and are rated from then on. A
// refused form changes nothing; of two submits at once, one makes the
// account.
func TestBecomeAccount(t *testing.T) {
	s, _ := openClocked(t)
	ana := models.MustUser(t, s, "ana")
	gus := mustGuest(t, s, "gus")
	id := privateDuel(t, s, ana, gus)
	if _, err := s.Say(gus, id, "hi"); err != nil {
		t.Fatal(err)
	}
	notices := len(notesOf(t, s, gus.ID, models.KindStarted))

	for _, bad := range []struct{ name, pw string }{{"ana", "password-gus"}, {"gustav", "short"}, {"no way", "password-gus"}} {
		if _, err := s.BecomeAccount(gus.ID, bad.name, bad.pw); !errors.Is(err, models.ErrInvalid) {
			t.Fatalf("an account %q/%q: %v", bad.name, bad.pw, err)
		}
		if u := mustUserByID(t, s, gus.ID); !u.Guest || u.Username != "gus" {
			t.Fatalf("a refused form changed the guest: %+v", u)
		}
	}

	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.BecomeAccount(gus.ID, "gustav", "password-gus")
		}()
	}
	wg.Wait()
	made := 0
	for _, err := range errs {
		switch {
		case err == nil:
			made++
		case !errors.Is(err, models.ErrGuestOnly):
			t.Fatalf("the second submit: %v", err)
		}
	}
	if made != 1 {
		t.Fatalf("two submits at once made %d accounts", made)
	}
	u, err := s.Authenticate("gustav", "password-gus")
	if err != nil || u.ID != gus.ID || u.Guest {
		t.Fatalf("the new account logs in: %+v, %v", u, err)
	}
	seat := seatOf(t, s, id, u)
	if seat.Guest || seat.Name != "gustav" {
		t.Fatalf("the account's seat: marked %v, named %q", seat.Guest, seat.Name)
	}
	if n := len(notesOf(t, s, u.ID, models.KindStarted)); n != notices || n == 0 {
		t.Fatalf("the account has %d of the guest's %d notices", n, notices)
	}
	msgs, _, err := s.Chat(id, 0)
	if err != nil || len(msgs) != 1 || msgs[0].Name != "gustav" {
		t.Fatalf("the guest's message: %+v, %v", msgs, err)
	}
	mine, total, err := s.MyGames(u.ID, 0, 10)
	if err != nil || total != 1 || mine[0].Game.ID != id {
		t.Fatalf("the account's games: %d, %v", total, err)
	}
	if _, err := s.CreateGame(u, models.GameSpec{Seats: []string{models.SeatOpen}}); err != nil {
		t.Fatalf("the account opens a table for people: %v", err)
	}
}

// TestExpireGuests: a guest's seats are theirs for GuestLife; then the
// worker gives the running ones to the stand-in (the game plays on, the
// others told, the log says the seat was resigned), cancels their tables
// not started, frees the seats they took at tables not started, and ends
// their sessions, once. A guest who made an account is left alone.
func TestExpireGuests(t *testing.T) {
	s, clock := openClocked(t)
	ana := models.MustUser(t, s, "ana")
	gus, ida := mustGuest(t, s, "gus"), mustGuest(t, s, "ida")
	running := privateDuel(t, s, ana, gus)
	waiting, err := s.CreateGame(ana, models.GameSpec{Seats: []string{models.SeatOpen, models.SeatOpen}, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Join(0, waiting.InviteToken, gus); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordLogin("gus-token", gus, "a browser"); err != nil {
		t.Fatal(err)
	}
	keeper := privateDuel(t, s, ana, ida)
	if _, err := s.BecomeAccount(ida.ID, "ida", "password-ida"); err != nil {
		t.Fatal(err)
	}

	clock.Advance(models.GuestLife - time.Hour)
	if games, err := s.ExpireGuests(10); err != nil || len(games) != 0 {
		t.Fatalf("guests ended before their time: %v, %v", games, err)
	}
	if g := mustUserByID(t, s, gus.ID); g.GuestExpired(clock.Now()) {
		t.Fatal("the guest's time is over a hour early")
	}
	clock.Advance(2 * time.Hour)
	if g := mustUserByID(t, s, gus.ID); !g.GuestExpired(clock.Now()) {
		t.Fatal("the guest's time is not over")
	}
	games, err := s.ExpireGuests(10)
	if err != nil || len(games) != 1 || games[0] != running {
		t.Fatalf("the guest's running games handed to the stand-in: %v, %v", games, err)
	}
	l := mustLoad(t, s, running)
	for _, seat := range l.Seats {
		if seat.Name == "gus" && (seat.UserID != nil || seat.Bot != l.Game.StandIn || seat.ResignedID == nil || *seat.ResignedID != gus.ID) {
			t.Fatalf("the guest's seat after their time: %+v", seat)
		}
	}
	lastKind(t, s, running, models.LogResign)
	if n := len(notesOf(t, s, ana.ID, models.KindResigned)); n != 1 {
		t.Fatalf("ana was told %d times that the guest's seat went to the stand-in", n)
	}
	w := mustLoad(t, s, waiting.ID)
	for _, seat := range w.Seats {
		if seat.UserID != nil && *seat.UserID == gus.ID {
			t.Fatal("the guest still holds a seat of a table not started")
		}
	}
	if g := mustUserByID(t, s, gus.ID); g.TokenVersion == gus.TokenVersion {
		t.Fatal("the guest's sessions still sign them in")
	}
	var logins int64
	if err := models.DB(s).Model(&models.Login{}).Where("user_id = ?", gus.ID).Count(&logins).Error; err != nil || logins != 0 {
		t.Fatalf("the guest's sessions: %d, %v", logins, err)
	}
	if games, err := s.ExpireGuests(10); err != nil || len(games) != 0 {
		t.Fatalf("a guest ended twice: %v, %v", games, err)
	}
	if seat := seatOf(t, s, keeper, mustUserByID(t, s, ida.ID)); seat.UserID == nil {
		t.Fatal("an account made from a guest lost its seat at the guest's time")
	}
}
