package models_test

import (
	"errors"
	"testing"
	"time"

	"cacao/engine"
	"cacao/models"
	"cacao/models/autoplay"
)

// TestResign: a player who resigns hands the seat to the greedy bot for
// the rest of the game: the log says so, the seat keeps their name and
// remembers them, it has no clock, the other player is told, the bot
// plays it to the end, and the player can no longer act there (nor resign
// again). A finished game cannot be resigned.
func TestResign(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	id := startDuel(t, s, ana, bob, 24)
	l := mustLoad(t, s, id)
	seat := l.SeatOf(ana.ID)
	if _, err := s.Resign(id, 999); !errors.Is(err, models.ErrForbidden) {
		t.Fatalf("resigning a seat one does not hold: %v", err)
	}
	l, err := s.Resign(id, ana.ID)
	if err != nil {
		t.Fatal(err)
	}
	st := mustLoad(t, s, id).Seats[seat]
	if st.UserID != nil || st.Bot != models.DefaultStandIn || st.ResignedID == nil || *st.ResignedID != ana.ID || st.Name != "ana" {
		t.Fatalf("the resigned seat: %+v", st)
	}
	if st.Deadline != nil || st.RemindAt != nil {
		t.Fatalf("the resigned seat keeps a clock: %+v", st)
	}
	last := l.Events[len(l.Events)-1]
	if last.Kind != models.LogResign || last.Seat != seat {
		t.Fatalf("the log ends with %+v, want ana's resignation", last)
	}
	ns, _, err := s.Notifications(bob.ID, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) == 0 || ns[0].Format != "%s resigned in game %d: the stand-in bot plays their seat to the end." {
		t.Fatalf("bob's newest notice: %+v", ns)
	}
	if _, err := s.Resign(id, ana.ID); !errors.Is(err, models.ErrForbidden) {
		t.Fatalf("resigning twice: %v", err)
	}
	legal := l.Play.State().LegalPlacements(nil)
	if _, err := s.CommitTurn(id, -1, models.Actor{UserID: ana.ID}, engine.Move{Placement: legal[0]}); !errors.Is(err, models.ErrForbidden) {
		t.Fatalf("ana moving after she resigned: %v", err)
	}

	// bob plays on, the bot answers for ana's seat, to the end.
	r := engine.NewRand(1)
	for step := 0; ; step++ {
		if step == 200 {
			t.Fatal("the game did not end")
		}
		if l, err = autoplay.Bots(s, id, nil); err != nil {
			t.Fatal(err)
		}
		if l.Game.Status == models.StatusFinished {
			break
		}
		cur := l.Play.State()
		if q := cur.Player(1 - seat).Queue(); len(q) > 0 {
			_, err = s.CommitResolve(id, l.Game.Version, models.Actor{UserID: bob.ID}, nil)
		} else {
			if cur.Current() == seat {
				t.Fatal("the bot left the resigned seat's turn unplayed")
			}
			legal := cur.LegalPlacements(nil)
			_, err = s.CommitTurn(id, l.Game.Version, models.Actor{UserID: bob.ID}, engine.Move{Placement: legal[r.Intn(len(legal))]})
		}
		if err != nil {
			t.Fatal(err)
		}
		clock.Advance(0)
	}
	if _, err := s.Resign(id, bob.ID); !errors.Is(err, models.ErrNotActive) {
		t.Fatalf("resigning a finished game: %v", err)
	}
}

// TestStandIn: the bot that takes a resigned seat is the game's stand-in,
// the one its creator chose (medium unless said), which must be a bot the
// site seats; an abandoned seat is played by it too.
func TestStandIn(t *testing.T) {
	s, _ := openClocked(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	if _, err := s.CreateGame(ana, models.GameSpec{Seats: []string{models.SeatOpen}, StandIn: "clever"}); !errors.Is(err, models.ErrBadStandIn) {
		t.Fatalf("a stand-in the site does not seat: %v", err)
	}
	plain, err := s.CreateGame(ana, models.GameSpec{Seats: []string{models.SeatOpen}})
	if err != nil || plain.StandIn != models.DefaultStandIn {
		t.Fatalf("a game's stand-in unless said: %q, %v", plain.StandIn, err)
	}
	g, err := s.CreateGame(ana, models.GameSpec{Seats: []string{models.SeatOpen}, StandIn: "random"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Join(g.ID, "", bob); err != nil {
		t.Fatal(err)
	}
	l := mustLoad(t, s, g.ID)
	seat := l.SeatOf(ana.ID)
	l.Seats[seat].Abandoned = true
	if got := l.BotOf(seat); got != "random" {
		t.Fatalf("an abandoned seat is played by %q, want the game's stand-in", got)
	}
	if _, err := s.Resign(g.ID, ana.ID); err != nil {
		t.Fatal(err)
	}
	if st := mustLoad(t, s, g.ID).Seats[seat]; st.Bot != "random" {
		t.Fatalf("the resigned seat went to %q, want the game's stand-in", st.Bot)
	}
}

// TestQuietUntil: quiet hours, in the user's zone, past midnight too; the
// same hour twice means none.
func TestQuietUntil(t *testing.T) {
	utc := func(h, m int) time.Time { return time.Date(2026, 12, 1, h, m, 0, 0, time.UTC) }
	for _, c := range []struct {
		zone     string
		from, to int
		at       time.Time
		quiet    bool
		until    time.Time
	}{
		{"", 22, 7, utc(23, 0), true, utc(7, 0).AddDate(0, 0, 1)},
		{"", 22, 7, utc(6, 59), true, utc(7, 0)},
		{"", 22, 7, utc(7, 0), false, time.Time{}},
		{"", 22, 7, utc(21, 59), false, time.Time{}},
		{"", 9, 17, utc(12, 0), true, utc(17, 0)},
		{"", 9, 17, utc(17, 0), false, time.Time{}},
		{"", 8, 8, utc(8, 30), false, time.Time{}},
		{"Asia/Tehran", 12, 14, utc(9, 0), true, utc(10, 30)}, // 12:30 there
		{"America/Los_Angeles", 22, 7, utc(7, 0), true, utc(15, 0)},
	} {
		u := models.User{TimeZone: c.zone, QuietFrom: c.from, QuietTo: c.to}
		until, quiet := u.QuietUntil(c.at)
		if quiet != c.quiet || quiet && !until.Equal(c.until) {
			t.Errorf("%q %d–%d at %s: %v until %s; want %v until %s", c.zone, c.from, c.to, c.at.Format("15:04"), quiet, until.UTC(), c.quiet, c.until)
		}
	}
}

// TestSolo: a game is against bots alone for a player when every other
// seat was seated as a bot; not when another person resigned, nor once
// that person's account is deleted.
func TestSolo(t *testing.T) {
	s, _ := openClocked(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	g, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"greedy", "random"}})
	if err != nil {
		t.Fatal(err)
	}
	l := mustLoad(t, s, g.ID)
	if !l.Solo(l.SeatOf(ana.ID)) {
		t.Fatal("ana against two bots is not solo")
	}
	id := startDuel(t, s, ana, bob, 0)
	if l := mustLoad(t, s, id); l.Solo(l.SeatOf(ana.ID)) {
		t.Fatal("ana against bob is solo")
	}
	if _, err := s.Resign(id, bob.ID); err != nil {
		t.Fatal(err)
	}
	if l := mustLoad(t, s, id); l.Solo(l.SeatOf(ana.ID)) {
		t.Fatal("ana's game is solo once bob resigned")
	}
	if _, err := s.DeleteAccount(bob.ID, "password-bob"); err != nil {
		t.Fatal(err)
	}
	if l := mustLoad(t, s, id); l.Solo(l.SeatOf(ana.ID)) {
		t.Fatal("ana's game is solo once bob's account is gone")
	}
}
