package models_test

import (
	"errors"
	"testing"
	"time"

	"cacao/engine"
	"cacao/models"
	"cacao/models/autoplay"
)

// actAll makes every choice u has in game id (the defaults), then u's turn
// if it is theirs: what a player does on opening the game.
func actAll(t *testing.T, s *models.Store, id uint, u *models.User) {
	t.Helper()
	for step := 0; step < 10; step++ {
		l := mustLoad(t, s, id)
		seat := l.SeatOf(u.ID)
		st := l.Play.State()
		switch {
		case len(st.Player(seat).Queue()) > 0:
			if _, err := s.CommitResolve(id, l.Game.Version, models.Actor{UserID: u.ID}, nil); err != nil {
				t.Fatal(err)
			}
		case !st.Over() && st.Current() == seat:
			mustMove(t, s, id, u)
		default:
			return
		}
	}
	t.Fatalf("%s still has something to play in game %d", u.Username, id)
}

// lastKind is the kind of the last entry of game id's log.
func lastKind(t *testing.T, s *models.Store, id uint, kind string) models.Event {
	t.Helper()
	l := mustLoad(t, s, id)
	for i := len(l.Events) - 1; i >= 0; i-- {
		if l.Events[i].Kind == kind {
			return l.Events[i]
		}
	}
	t.Fatalf("no %s entry in game %d's log", kind, id)
	return models.Event{}
}

// TestAbandonedAfterTwoTimeoutsInARow: a timeout, then a move of the
// player's own, then a timeout do not abandon the seat; two timeouts in a
// row do. The greedy bot then plays it without a clock or notices, the
// player is refused until they take the seat back, and once back they are
// waited on with a clock again. Everyone is told each step.
func TestAbandonedAfterTwoTimeoutsInARow(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	id := startDuel(t, s, ana, bob, 24)
	timeOutAna := func() {
		t.Helper()
		clock.Advance(25 * time.Hour)
		if n := mustTimeouts(t, s); n != 1 {
			t.Fatalf("%d timeouts; want ana's", n)
		}
		actAll(t, s, id, bob)
	}

	timeOutAna()
	actAll(t, s, id, ana) // her own move ends the run
	if seat := seatOf(t, s, id, ana); seat.Timeouts != 0 || seat.Abandoned {
		t.Fatalf("ana moved after a timeout: %+v", seat)
	}
	actAll(t, s, id, bob)
	timeOutAna()
	if seat := seatOf(t, s, id, ana); seat.Timeouts != 1 || seat.Abandoned {
		t.Fatalf("after one timeout: %+v", seat)
	}
	turnsBefore := len(notesOf(t, s, ana.ID, "turn"))
	clock.Advance(25 * time.Hour)
	if n := mustTimeouts(t, s); n != 1 {
		t.Fatalf("%d timeouts; want ana's second", n)
	}
	seat := seatOf(t, s, id, ana)
	if !seat.Abandoned || seat.UserID == nil || *seat.UserID != ana.ID || seat.Deadline != nil {
		t.Fatalf("after two timeouts in a row ana's seat is %+v; want abandoned, still hers, without a clock", seat)
	}
	if ev := lastKind(t, s, id, models.LogAbandon); ev.Seat != seat.Index || ev.By != -1 {
		t.Fatalf("the log's abandon entry: %+v", ev)
	}
	if ns := notesOf(t, s, ana.ID, "abandoned"); len(ns) != 1 {
		t.Fatalf("ana was told %d times that the bot keeps her seat", len(ns))
	}
	if ns := notesOf(t, s, bob.ID, "abandoned"); len(ns) != 1 {
		t.Fatalf("bob was told %d times that the bot keeps ana's seat", len(ns))
	}

	// The bot plays ana's seat at once, with no clock and no notice.
	for round := 0; round < 3; round++ {
		actAll(t, s, id, bob)
		l, err := autoplay.Bots(s, id, nil)
		if err != nil {
			t.Fatal(err)
		}
		if st := l.Play.State(); st.Current() == seat.Index || len(st.Player(seat.Index).Queue()) > 0 {
			t.Fatal("the bot left the abandoned seat's move waiting")
		}
		if st := l.Seats[seat.Index]; st.Deadline != nil {
			t.Fatalf("the abandoned seat has a clock: %+v", st)
		}
	}
	if n := len(notesOf(t, s, ana.ID, "turn")); n != turnsBefore {
		t.Fatalf("ana got %d turn notices while the bot played her seat", n-turnsBefore)
	}
	legal := mustLoad(t, s, id).Play.State().LegalPlacements(nil)
	if _, err := s.CommitTurn(id, -1, models.Actor{UserID: ana.ID}, engine.Move{Placement: legal[0]}); !errors.Is(err, models.ErrAbandoned) {
		t.Fatalf("ana moving on her abandoned seat: %v", err)
	}

	if _, err := s.TakeBack(id, bob.ID); !errors.Is(err, models.ErrNotAbandoned) {
		t.Fatalf("bob taking back a seat he kept: %v", err)
	}
	if _, err := s.TakeBack(id, ana.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TakeBack(id, ana.ID); !errors.Is(err, models.ErrNotAbandoned) {
		t.Fatalf("taking the seat back twice: %v", err)
	}
	if ev := lastKind(t, s, id, models.LogBack); ev.Seat != seat.Index {
		t.Fatalf("the log's take-back entry: %+v", ev)
	}
	if ns := notesOf(t, s, bob.ID, "back"); len(ns) != 1 {
		t.Fatalf("bob was told %d times that ana is back", len(ns))
	}
	actAll(t, s, id, bob)
	seat = seatOf(t, s, id, ana)
	if seat.Abandoned || seat.Timeouts != 0 || seat.Deadline == nil {
		t.Fatalf("ana's seat once back, on her turn: %+v; want hers, with a clock", seat)
	}
	if n := len(notesOf(t, s, ana.ID, "turn")); n != turnsBefore+1 {
		t.Fatalf("ana, back, got %d new turn notices; want 1", n-turnsBefore)
	}
}

// TestHandOverAfterSevenDays: in a game without a turn limit, the other
// player may hand the seat of a player who kept the table waiting 7 days
// (days of a vacation not counted) to the greedy bot, and no sooner; the
// player is told and may take it back.
func TestHandOverAfterSevenDays(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	id := startDuel(t, s, ana, bob, 0)
	l := mustLoad(t, s, id)
	anaSeat, bobSeat := l.SeatOf(ana.ID), l.SeatOf(bob.ID)
	if _, err := s.StartVacation(ana.ID, 2); err != nil {
		t.Fatal(err)
	}
	clock.Advance(8*24*time.Hour + 23*time.Hour)
	if _, err := s.HandOver(id, bob.ID, anaSeat); !errors.Is(err, models.ErrNotIdle) {
		t.Fatalf("handing over 6 days 23 hours after ana's vacation ended: %v", err)
	}
	clock.Advance(time.Hour)
	for _, c := range []struct {
		who  *models.User
		seat int
	}{{ana, anaSeat}, {bob, bobSeat}, {ana, bobSeat}} {
		if _, err := s.HandOver(id, c.who.ID, c.seat); err == nil {
			t.Fatalf("%s handed seat %d over", c.who.Username, c.seat)
		}
	}
	if _, err := s.HandOver(id, 999, anaSeat); !errors.Is(err, models.ErrForbidden) {
		t.Fatalf("a stranger handing a seat over: %v", err)
	}
	if _, err := s.HandOver(id, bob.ID, anaSeat); err != nil {
		t.Fatal(err)
	}
	if _, err := s.HandOver(id, bob.ID, anaSeat); !errors.Is(err, models.ErrForbidden) {
		t.Fatalf("handing an abandoned seat over again: %v", err)
	}
	if ev := lastKind(t, s, id, models.LogAbandon); ev.Seat != anaSeat || ev.By != bobSeat {
		t.Fatalf("the log's abandon entry: %+v", ev)
	}
	if ns := notesOf(t, s, ana.ID, "abandoned"); len(ns) != 1 {
		t.Fatalf("ana was told %d times", len(ns))
	}
	// Nobody let the bots play after the hand-over: the worker finds the
	// stalled seat once it has waited a minute.
	if n, err := autoplay.Stalled(s); err != nil || n != 0 {
		t.Fatalf("stalled games at once: %d, %v", n, err)
	}
	clock.Advance(2 * time.Minute)
	if n, err := autoplay.Stalled(s); err != nil || n != 1 {
		t.Fatalf("stalled games after two minutes: %d, %v", n, err)
	}
	l = mustLoad(t, s, id)
	if l.Play.State().Current() == anaSeat {
		t.Fatal("the bot did not play ana's handed-over turn")
	}
	if ev := l.Events[len(l.Events)-1]; ev.Seat != anaSeat || !ev.Stand {
		t.Fatalf("the bot's move for ana is not marked as played for her while away: %+v", ev)
	}
	if n, err := autoplay.Stalled(s); err != nil || n != 0 {
		t.Fatalf("stalled games once played: %d, %v", n, err)
	}
	if _, err := s.TakeBack(id, ana.ID); err != nil {
		t.Fatal(err)
	}
	if seat := seatOf(t, s, id, ana); seat.Abandoned {
		t.Fatalf("ana's seat once taken back: %+v", seat)
	}
}

// TestNoHandOverWithATurnLimit: with a turn limit the clock handles a
// player who does not move; nobody hands their seat over.
func TestNoHandOverWithATurnLimit(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	id := startDuel(t, s, ana, bob, 168)
	clock.Advance(7*24*time.Hour + time.Hour) // due, though the worker has not played it yet
	if _, err := s.HandOver(id, bob.ID, mustLoad(t, s, id).SeatOf(ana.ID)); !errors.Is(err, models.ErrNotIdle) {
		t.Fatalf("handing over in a game with a limit: %v", err)
	}
}

// StalledBots lists the games whose bots have waited longest first, so
// that games left waiting in numbers (the Runner keeps few of a person's)
// cannot keep another's lost move from being offered again.
func TestStalledBotsOldestFirst(t *testing.T) {
	s, clock := openClocked(t)
	ana, _ := s.CreateUser("ana", "password-ana")
	var ids []uint
	for range 3 {
		g, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"greedy"}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
	}
	for i := len(ids) - 1; i >= 0; i-- { // the last game's bot waits first
		clock.Advance(time.Minute)
		mustMove(t, s, ids[i], ana)
	}
	clock.Advance(5 * time.Minute)
	got, err := s.StalledBots(time.Minute, 2)
	if err != nil || len(got) != 2 || got[0] != ids[2] || got[1] != ids[1] {
		t.Fatalf("the two longest stalled of games %v: %v, %v; want the last two, last first", ids, got, err)
	}
}
