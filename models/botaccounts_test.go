package models_test

import (
	"errors"
	"fmt"
	"testing"

	"cacao/models"
	"cacao/models/rating"
)

// TestMarkBot: an account becomes a bot account only before it played a
// rated game and while it has no game or tournament under way; a guest
// never; marking twice changes nothing; only a bot account opens itself to
// others' tables.
func TestMarkBot(t *testing.T) {
	s, clock := openClocked(t)
	guest, err := s.CreateGuest("visitor")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.MarkBot(guest.ID); !errors.Is(err, models.ErrBotGuest) {
		t.Fatalf("a guest became a bot account: %v", err)
	}
	rob := models.MustUser(t, s, "rob")
	if err := s.SetBotOpen(rob.ID, true); !errors.Is(err, models.ErrNotBot) {
		t.Fatalf("a person opened themselves as a bot: %v", err)
	}
	g, err := s.CreateGame(rob, models.GameSpec{Seats: []string{models.SeatOpen}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.MarkBot(rob.ID); !errors.Is(err, models.ErrBotPlaying) {
		t.Fatalf("an account with an open table became a bot account: %v", err)
	}
	if err := s.CancelTable(g.ID, rob); err != nil {
		t.Fatal(err)
	}
	g, err = s.CreateGame(rob, models.GameSpec{Seats: []string{"random"}})
	if err != nil {
		t.Fatal(err)
	}
	againstBots(t, s, g.ID, rob) // unrated: against a bot
	for range 2 {
		if err := s.MarkBot(rob.ID); err != nil {
			t.Fatal(err)
		}
	}
	if u := mustUserByID(t, s, rob.ID); !u.BotAccount || u.BotOpen {
		t.Fatalf("marked: %+v", u)
	}
	if l := mustLoad(t, s, g.ID); !l.Seats[l.SeatOf(rob.ID)].Robot {
		t.Fatal("rob's game before he became a bot account does not mark him")
	}
	if err := s.JoinTournament(1, mustUserByID(t, s, rob.ID)); !errors.Is(err, models.ErrTourBot) {
		t.Fatalf("a bot account joined a tournament: %v", err)
	}

	// Two people rated against each other: neither may become a bot now.
	ana, bea := veteran(t, s, "ana"), veteran(t, s, "bea")
	clock.Advance(models.RatedAge)
	g, err = s.CreateGame(ana, models.GameSpec{Seats: []string{"@bea"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Join(g.ID, "", bea); err != nil {
		t.Fatal(err)
	}
	playOut(t, s, g.ID, ana, bea)
	if u := mustUserByID(t, s, ana.ID); u.RatedGames != 1 {
		t.Fatalf("ana's game was not rated: %+v", u)
	}
	if err := s.MarkBot(ana.ID); !errors.Is(err, models.ErrBotRated) {
		t.Fatalf("a rated player became a bot account: %v", err)
	}
}

// TestOpenBots: a bot account its owner opens is seated at another's
// table by "~name", marked a bot; a closed one, a person, an unknown name
// or one who blocked the creator is refused, and the same bot twice. The
// new-table form offers the open ones, but not to themselves nor to
// those they blocked.
func TestOpenBots(t *testing.T) {
	s := models.MustOpen(t)
	ana := models.MustUser(t, s, "ana")
	rob, cora := models.MustUser(t, s, "rob"), models.MustUser(t, s, "cora")
	for _, u := range []*models.User{rob, cora} {
		if err := s.MarkBot(u.ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"~rob"}}); !errors.Is(err, models.ErrInvalid) {
		t.Fatalf("a closed bot was seated: %v", err)
	}
	if err := s.SetBotOpen(rob.ID, true); err != nil {
		t.Fatal(err)
	}
	if names, err := s.OpenBots(ana.ID); err != nil || len(names) != 1 || names[0] != "rob" {
		t.Fatalf("open bots: %v (%v)", names, err)
	}
	if names, err := s.OpenBots(rob.ID); err != nil || len(names) != 0 {
		t.Fatalf("open bots offered to rob: %v (%v)", names, err)
	}
	for _, seats := range [][]string{{"~ana"}, {"~nobody"}, {"~rob", "~rob"}} {
		if _, err := s.CreateGame(ana, models.GameSpec{Seats: seats}); !errors.Is(err, models.ErrInvalid) {
			t.Fatalf("%v: %v", seats, err)
		}
	}
	g, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"~ROB", "greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	l := mustLoad(t, s, g.ID)
	if l.Game.Status != models.StatusActive {
		t.Fatalf("a table of ana, rob and a bot did not start: %s", l.Game.Status)
	}
	seat := l.Seats[l.SeatOf(rob.ID)]
	if !seat.Robot || seat.Name != "rob" || l.Seats[l.SeatOf(ana.ID)].Robot {
		t.Fatalf("the seats: %+v", l.Seats)
	}
	// cora, a bot account, opens a table: her own seat is marked.
	g, err = s.CreateGame(mustUserByID(t, s, cora.ID), models.GameSpec{Seats: []string{models.SeatOpen}})
	if err != nil {
		t.Fatal(err)
	}
	if l := mustLoad(t, s, g.ID); !l.Seats[0].Robot {
		t.Fatalf("a bot account's own seat is not marked: %+v", l.Seats[0])
	}
	if err := s.Block(rob, "ana"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"~rob"}}); !errors.Is(err, models.ErrBlocked) {
		t.Fatalf("a bot that blocked ana was seated by her: %v", err)
	}
	if names, err := s.OpenBots(ana.ID); err != nil || len(names) != 0 {
		t.Fatalf("a bot that blocked ana is offered to her: %v (%v)", names, err)
	}
	if names, err := s.OpenBots(cora.ID); err != nil || len(names) != 1 || names[0] != "rob" {
		t.Fatalf("open bots offered to cora: %v (%v)", names, err)
	}
}

// TestBotAccountRatedApart: a game between two people and a bot account
// rates the people among themselves alone and the bot account from its
// results against them; the bot account is on no leaderboard of people
// but among the rated bots.
func TestBotAccountRatedApart(t *testing.T) {
	s, clock := openClocked(t)
	ana, bea := veteran(t, s, "ana"), veteran(t, s, "bea")
	rob := models.MustUser(t, s, "rob")
	if err := s.MarkBot(rob.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.SetBotOpen(rob.ID, true); err != nil {
		t.Fatal(err)
	}
	clock.Advance(models.RatedAge)
	g, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"@bea", "~rob"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Join(g.ID, "", bea); err != nil {
		t.Fatal(err)
	}
	rb := mustUserByID(t, s, rob.ID)
	robBefore, _, _ := rb.RatingIn(models.MorePlayers)
	anaBefore, _, _ := mustUserByID(t, s, ana.ID).RatingIn(models.MorePlayers)
	beaBefore, _, _ := mustUserByID(t, s, bea.ID).RatingIn(models.MorePlayers)
	l := playOut(t, s, g.ID, ana, bea, rb)
	a, b, r := l.Seats[l.SeatOf(ana.ID)], l.Seats[l.SeatOf(bea.ID)], l.Seats[l.SeatOf(rob.ID)]
	// rob meets the people as they were before the game, not as it left them.
	against := func(p models.Seat, before rating.Rating) rating.Result {
		score := 0.5
		if r.Place < p.Place {
			score = 1
		} else if r.Place > p.Place {
			score = 0
		}
		return rating.Result{Opponent: before, Score: score}
	}
	if want := rating.Update(robBefore, []rating.Result{against(a, anaBefore), against(b, beaBefore)}); r.RatedTo != want.R {
		t.Fatalf("rob rated %.3f → %.3f; against ana's and bea's ratings before the game %.3f", r.RatedFrom, r.RatedTo, want.R)
	}
	if a.RatedTo == 0 || b.RatedTo == 0 || r.RatedTo == 0 {
		t.Fatalf("not everyone was rated: %+v %+v %+v", a, b, r)
	}
	// Between two new ratings, the one placed ahead gains exactly what
	// the other loses: a bot account counted among them would break it.
	if d := (a.RatedTo - a.RatedFrom) + (b.RatedTo - b.RatedFrom); a.Place != b.Place && (d > 1e-6 || d < -1e-6) {
		t.Fatalf("the people's ratings moved by %+.3f in all: the bot account counted among them", d)
	}
	switch {
	case r.Place < min(a.Place, b.Place) && r.RatedTo <= r.RatedFrom,
		r.Place > max(a.Place, b.Place) && r.RatedTo >= r.RatedFrom:
		t.Fatalf("rob placed %d against %d and %d, rated %.1f → %.1f", r.Place, a.Place, b.Place, r.RatedFrom, r.RatedTo)
	}
	if u := mustUserByID(t, s, rob.ID); u.MultiRatedGames != 1 || u.MultiRating != r.RatedTo {
		t.Fatalf("rob's rating: %+v", u)
	}
	board, _, err := s.Leaderboard(models.MorePlayers, true, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range board {
		if p.Name == "rob" {
			t.Fatal("a bot account is on the leaderboard of people")
		}
	}
	if len(board) != 2 {
		t.Fatalf("the provisional board: %+v", board)
	}
	bots, err := s.RatedBots(models.MorePlayers)
	if err != nil || len(bots) != 1 || bots[0].Name != "rob" || bots[0].Rating != r.RatedTo {
		t.Fatalf("rated bots: %+v (%v)", bots, err)
	}
}

// TestRematchSeatsBotAccount: a rematch seats a bot account again at once
// while its owner lets others seat it, and invites it, as a person, once
// they do not.
func TestRematchSeatsBotAccount(t *testing.T) {
	s := models.MustOpen(t)
	ana, rob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "rob")
	if err := s.MarkBot(rob.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.SetBotOpen(rob.ID, true); err != nil {
		t.Fatal(err)
	}
	var finished []uint
	for range 2 {
		g, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"~rob"}})
		if err != nil {
			t.Fatal(err)
		}
		playOut(t, s, g.ID, ana, mustUserByID(t, s, rob.ID))
		finished = append(finished, g.ID)
	}
	re, err := s.Rematch(ana, finished[0])
	if err != nil {
		t.Fatal(err)
	}
	l := mustLoad(t, s, re.ID)
	if seat := l.Seats[l.SeatOf(rob.ID)]; l.Game.Status != models.StatusActive || !seat.Robot || seat.InvitedID != nil {
		t.Fatalf("the rematch: %s, rob's seat %+v", l.Game.Status, seat)
	}
	if err := s.SetBotOpen(rob.ID, false); err != nil {
		t.Fatal(err)
	}
	if re, err = s.Rematch(ana, finished[1]); err != nil {
		t.Fatal(err)
	}
	l = mustLoad(t, s, re.ID)
	kept := false
	for _, seat := range l.Seats {
		kept = kept || seat.InvitedID != nil && *seat.InvitedID == rob.ID && seat.UserID == nil
	}
	if l.Game.Status != models.StatusOpen || !kept {
		t.Fatalf("the rematch with a closed bot: %s, seats %+v", l.Game.Status, l.Seats)
	}
}

// TestBotGamesBounded: others seat a bot account at MaxBotGames games not
// over at most; the next is refused, and a game invites and seats it not
// both.
func TestBotGamesBounded(t *testing.T) {
	s := models.MustOpen(t)
	rob := models.MustUser(t, s, "rob")
	if err := s.MarkBot(rob.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.SetBotOpen(rob.ID, true); err != nil {
		t.Fatal(err)
	}
	both := models.MustUser(t, s, "both")
	if _, err := s.CreateGame(both, models.GameSpec{Seats: []string{"@rob", "~rob"}}); !errors.Is(err, models.ErrInvalid) {
		t.Fatalf("rob invited and seated at one table: %v", err)
	}
	for i := range models.MaxBotGames {
		u := models.MustUser(t, s, fmt.Sprintf("player%d", i))
		if _, err := s.CreateGame(u, models.GameSpec{Seats: []string{"~rob"}}); err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
	}
	late := models.MustUser(t, s, "late")
	if _, err := s.CreateGame(late, models.GameSpec{Seats: []string{"~rob"}}); !errors.Is(err, models.ErrInvalid) {
		t.Fatalf("game %d with rob: %v", models.MaxBotGames+1, err)
	}
}
