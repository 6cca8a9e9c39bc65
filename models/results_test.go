package models_test

import (
	"slices"
	"testing"

	"cacao/models"
	"cacao/models/autoplay"
)

// TestResultsAndRatings: a finished game between two players keeps each
// seat's place and total and rates both (the winner up, the other down,
// from 1500); a game against bots alone is not rated.
func TestResultsAndRatings(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob := veteran(t, s, "ana"), veteran(t, s, "bob")
	clock.Advance(models.RatedAge)
	l := playOut(t, s, startDuel(t, s, ana, bob, 0), ana, bob)
	if !l.Game.Scored {
		t.Fatal("the game is not marked scored")
	}
	for _, seat := range l.Seats {
		u, _ := s.UserByID(*seat.UserID)
		if seat.Place < 1 || seat.Score <= 0 || seat.RatedFrom != 1500 || seat.RatedTo != u.Rating || u.RatedGames != 1 {
			t.Fatalf("%s: place %d, score %d, rated %.1f→%.1f, user %.1f after %d games", seat.Name, seat.Place, seat.Score, seat.RatedFrom, seat.RatedTo, u.Rating, u.RatedGames)
		}
		if (seat.Place == 1) != (u.Rating > 1500) && l.Seats[0].Place != l.Seats[1].Place {
			t.Fatalf("%s, place %d, is rated %.1f", seat.Name, seat.Place, u.Rating)
		}
	}
	bots, _ := openClocked(t)
	tpl := mustLoad(t, bots, finishedTemplate(t, bots)) // ana resigned at once: the bots played
	for _, seat := range tpl.Seats {
		if seat.RatedTo != 0 {
			t.Fatalf("a game without two players was rated: %+v", seat)
		}
	}
}

// TestResignedRanksLast: who resigned (after MinRatedTurns turns) is
// rated behind the player who finished, whatever score the bot reached
// for them.
func TestResignedRanksLast(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob := veteran(t, s, "ana"), veteran(t, s, "bob")
	clock.Advance(models.RatedAge)
	id := startDuel(t, s, ana, bob, 0)
	resignAfter(t, s, id, ana, bob, models.MinRatedTurns)
	a, _ := s.UserByID(ana.ID)
	b, _ := s.UserByID(bob.ID)
	if !(a.Rating < 1500 && b.Rating > 1500) || a.RatedGames != 1 {
		t.Fatalf("ana resigned and is rated %.1f; bob %.1f", a.Rating, b.Rating)
	}
	if st, err := s.Stats(ana.ID); err != nil || st.Resignations != 1 || st.Finished != 2 { // her game against a bot, and this one
		t.Fatalf("ana's stats after resigning: %+v, %v", st, err)
	}
	// Say the stand-in bot won her seat: her profile and her list still
	// count it lost, as her rating does.
	models.DB(s).Exec("UPDATE seats SET place = CASE WHEN resigned_id = ? THEN 1 ELSE 2 END WHERE game_id = ?", ana.ID, id)
	if st, err := s.Stats(ana.ID); err != nil || st.Wins != 0 || st.Places[0] != 0 || st.Resignations != 1 {
		t.Fatalf("the stand-in won ana's resigned seat, and her stats say %+v, %v", st, err)
	}
	for result, want := range map[string]bool{"won": false, "lost": true} {
		games, _, err := s.MyFinished(ana.ID, models.HistoryFilter{Result: result}, 0, 10)
		listed := slices.ContainsFunc(games, func(g models.GameSummary) bool { return g.Game.ID == id })
		if err != nil || listed != want {
			t.Fatalf("ana's finished games she %s list the one she resigned: %v (%v); want %v", result, listed, err, want)
		}
	}
}

// TestScoreOld: a game finished before places were kept gets them.
func TestScoreOld(t *testing.T) {
	s, _ := openClocked(t)
	id := finishedTemplate(t, s)
	want := mustLoad(t, s, id).Seats
	models.DB(s).Exec("UPDATE seats SET place = 0, score = 0 WHERE game_id = ?", id)
	models.DB(s).Exec("UPDATE games SET scored = false WHERE id = ?", id)
	if n, err := s.ScoreOld(10); err != nil || n != 1 {
		t.Fatalf("scored %d (%v)", n, err)
	}
	for i, seat := range mustLoad(t, s, id).Seats {
		if seat.Place != want[i].Place || seat.Score != want[i].Score || seat.Place == 0 {
			t.Fatalf("seat %d: place %d score %d; want %d %d", i, seat.Place, seat.Score, want[i].Place, want[i].Score)
		}
	}
	if n, _ := s.ScoreOld(10); n != 0 {
		t.Fatalf("scored %d more", n)
	}
}

// TestStatsAndHistory: the profile's counts, rating history and filtered
// list of finished games follow the games played.
func TestStatsAndHistory(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob, cyd := models.MustUser(t, s, "ana"), veteran(t, s, "bob"), veteran(t, s, "cyd")
	clock.Advance(models.RatedAge)
	first := playOut(t, s, startDuel(t, s, ana, bob, 0), ana, bob)
	second := playOut(t, s, startDuel(t, s, ana, cyd, 0), ana, cyd)
	st, err := s.Stats(ana.ID)
	if err != nil || st.Finished != 2 || st.Resignations != 0 || st.Timeouts != 0 {
		t.Fatalf("ana's stats: %+v, %v", st, err)
	}
	wins, total := 0, 0
	for _, l := range []*models.Loaded{first, second} {
		seat := l.Seats[l.SeatOf(ana.ID)]
		total += seat.Score
		if seat.Place == 1 {
			wins++
		}
	}
	if st.Wins != wins || st.AverageScore != float64(total)/2 || st.Places[0]+st.Places[1] != 2 {
		t.Fatalf("ana's stats: %+v; want %d wins, average %v", st, wins, float64(total)/2)
	}
	hist, err := s.RatingHistory(ana.ID, models.TwoPlayers, 10)
	if err != nil || len(hist) != 2 || hist[0].GameID != first.Game.ID || hist[1].From != hist[0].To {
		t.Fatalf("ana's rating history: %+v, %v", hist, err)
	}
	for _, tc := range []struct {
		f    models.HistoryFilter
		want int
	}{
		{models.HistoryFilter{}, 2},
		{models.HistoryFilter{Opponent: cyd.ID}, 1},
		{models.HistoryFilter{Players: 3}, 0},
		{models.HistoryFilter{Result: "won"}, wins},
		{models.HistoryFilter{Result: "lost"}, 2 - wins},
	} {
		if games, n, err := s.MyFinished(ana.ID, tc.f, 0, 10); err != nil || n != tc.want || len(games) != tc.want {
			t.Errorf("filter %+v: %d games (%d listed), %v; want %d", tc.f, n, len(games), err, tc.want)
		}
	}
}

// veteran signs name up and has them finish a game against a bot; the
// caller lets a day pass before they count for others' ratings.
func veteran(t *testing.T, s *models.Store, name string) *models.User {
	t.Helper()
	u := models.MustUser(t, s, name)
	g, err := s.CreateGame(u, models.GameSpec{Seats: []string{"greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; mustLoad(t, s, g.ID).Game.Status != models.StatusFinished; i++ {
		if i == 100 {
			t.Fatal("the game did not finish")
		}
		if _, err := autoplay.Bots(s, g.ID, nil); err != nil {
			t.Fatal(err)
		}
		actAll(t, s, g.ID, u)
	}
	return u
}

// resignAfter has first resign game id after making turns turns of their
// own (second playing along), and the bot finish it against second.
func resignAfter(t *testing.T, s *models.Store, id uint, first, second *models.User, turns int) {
	t.Helper()
	for made := 0; made < turns; {
		l := mustLoad(t, s, id)
		if l.Play.State().Current() == l.SeatOf(first.ID) {
			made++
		}
		actAll(t, s, id, first)
		actAll(t, s, id, second)
	}
	if _, err := s.Resign(id, first.ID); err != nil {
		t.Fatal(err)
	}
	for i := 0; mustLoad(t, s, id).Game.Status != models.StatusFinished; i++ {
		if i == 100 {
			t.Fatal("the game did not finish")
		}
		if _, err := autoplay.Bots(s, id, nil); err != nil {
			t.Fatal(err)
		}
		actAll(t, s, id, second)
	}
}

// TestRatingFarming: a player who resigns before MinRatedTurns turns of
// their own leaves the game unrated; an opponent younger than a day, or
// without a finished game of their own before, moves nobody's rating
// (theirs moves), nor does one whose only finished game the stand-in bot played for them.
// (TestResultsAndRatings and TestResignedRanksLast rate
// games between established players.)
func TestRatingFarming(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob, cyd := veteran(t, s, "ana"), veteran(t, s, "bob"), veteran(t, s, "cyd")
	idle := models.MustUser(t, s, "idle")
	// quitter's one finished game was played to the end by the stand-in
	// bot, their seat handed over while they kept ana waiting.
	quitter := models.MustUser(t, s, "quitter")
	q := startDuel(t, s, quitter, ana, 0)
	actAll(t, s, q, ana)
	clock.Advance(models.IdleHandOver)
	if _, err := s.HandOver(q, ana.ID, mustLoad(t, s, q).SeatOf(quitter.ID)); err != nil {
		t.Fatal(err)
	}
	for i := 0; mustLoad(t, s, q).Game.Status != models.StatusFinished; i++ {
		if i == 100 {
			t.Fatal("the game did not finish")
		}
		if _, err := autoplay.Bots(s, q, nil); err != nil {
			t.Fatal(err)
		}
		actAll(t, s, q, ana)
	}
	clock.Advance(models.RatedAge)
	young := veteran(t, s, "young")
	fresh := models.MustUser(t, s, "fresh")
	rated := func(u *models.User) float64 {
		t.Helper()
		got, err := s.UserByID(u.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.Rating
	}

	resignAfter(t, s, startDuel(t, s, ana, bob, 0), ana, bob, models.MinRatedTurns-1)
	if rated(ana) != 1500 || rated(bob) != 1500 {
		t.Fatalf("ana resigned after %d turns: rated %.1f, bob %.1f", models.MinRatedTurns-1, rated(ana), rated(bob))
	}
	for _, other := range []*models.User{idle, quitter, young, fresh} {
		l := playOut(t, s, startDuel(t, s, other, cyd, 0), other, cyd)
		if rated(cyd) != 1500 || l.Seats[l.SeatOf(cyd.ID)].RatedTo != 0 {
			t.Fatalf("a game against %s rated cyd %.1f", other.Username, rated(cyd))
		}
		if rated(other) == 1500 {
			t.Fatalf("%s, against cyd, was not rated", other.Username)
		}
	}
}
