package models_test

import (
	"testing"

	"cacao/models"
	"cacao/models/autoplay"
)

// againstBots has u play game id against its bots to the end.
func againstBots(t *testing.T, s *models.Store, id uint, u *models.User) *models.Loaded {
	t.Helper()
	for i := 0; ; i++ {
		l := mustLoad(t, s, id)
		if l.Game.Status == models.StatusFinished {
			return l
		}
		if i == 200 {
			t.Fatal("the game did not finish")
		}
		if _, err := autoplay.Bots(s, id, nil); err != nil {
			t.Fatal(err)
		}
		actAll(t, s, id, u)
	}
}

// TestBotRatings: a bot level is rated from its results against the
// established people at its table, in the game's format, each of its seats
// against each person; the people's ratings do not move. Games against
// new accounts, guests, or a player who left at once rate no bot.
func TestBotRatings(t *testing.T) {
	s, clock := openClocked(t)
	ana := veteran(t, s, "ana") // her first game (against the medium bot) was too early to count
	newcomer := models.MustUser(t, s, "newcomer")
	clock.Advance(models.RatedAge)
	if rs, err := s.BotRatings(models.TwoPlayers); err != nil || len(rs) != 0 {
		t.Fatalf("before any game against an established player, the bots are rated %v (%v)", rs, err)
	}

	g, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"greedy", "random"}})
	if err != nil {
		t.Fatal(err)
	}
	l := againstBots(t, s, g.ID, ana)
	mine := l.Seats[l.SeatOf(ana.ID)].Place
	rs, err := s.BotRatings(models.MorePlayers)
	if _, ok := rs["medium"]; err != nil || len(rs) != 1 || !ok {
		t.Fatalf("after a game of three, the bots' ratings of three or four: %v (%v); want the medium bot's alone (greedy is its old name; random is no level)", rs, err)
	}
	for _, seat := range l.Seats {
		if seat.Bot != "greedy" {
			continue
		}
		level := "medium"
		r := rs[level]
		if r.Games != 1 || r.RatedAt == nil {
			t.Fatalf("%s after one game: %+v", level, r)
		}
		switch {
		case seat.Place < mine && r.Rating <= 1500, seat.Place > mine && r.Rating >= 1500, seat.Place == mine && r.Rating != 1500:
			t.Fatalf("%s placed %d against ana's %d and is rated %.1f", level, seat.Place, mine, r.Rating)
		}
	}
	if two, _ := s.BotRatings(models.TwoPlayers); len(two) != 0 {
		t.Fatalf("a game of three rated bots in games of two: %v", two)
	}
	a, _ := s.UserByID(ana.ID)
	if a.Rating != 1500 || a.RatedGames != 0 || a.MultiRatedGames != 0 || l.Seats[l.SeatOf(ana.ID)].RatedTo != 0 {
		t.Fatalf("a game against bots moved ana's rating: %+v", a)
	}

	// Against a new account, a guest, or ana leaving at once: the
	// two-player ratings stay empty.
	guest, err := s.CreateGuest("visitor")
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []*models.User{newcomer, guest} {
		g, err := s.CreateGame(u, models.GameSpec{Seats: []string{"greedy"}})
		if err != nil {
			t.Fatal(err)
		}
		againstBots(t, s, g.ID, u)
	}
	g, err = s.CreateGame(ana, models.GameSpec{Seats: []string{"greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Resign(g.ID, ana.ID); err != nil {
		t.Fatal(err)
	}
	if l, err := autoplay.Bots(s, g.ID, nil); err != nil || l.Game.Status != models.StatusFinished {
		t.Fatalf("the stand-in did not finish the game: %v", err)
	}
	if two, err := s.BotRatings(models.TwoPlayers); err != nil || len(two) != 0 {
		t.Fatalf("games against a new account, a guest and a player who resigned at once rated %v (%v)", two, err)
	}

	// A game of two against an established player rates the level again.
	g, err = s.CreateGame(ana, models.GameSpec{Seats: []string{"greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	againstBots(t, s, g.ID, ana)
	if two, _ := s.BotRatings(models.TwoPlayers); two["medium"].Games != 1 || two["medium"].Rating == 1500 {
		t.Fatalf("after a game of two against ana, the medium bot's rating: %+v", two["medium"])
	}
}
