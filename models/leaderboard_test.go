package models_test

import (
	"strings"
	"testing"
	"time"

	"cacao/models"
)

// TestLeaderboard: a format's leaderboard lists the players active in the
// last 90 days, not banned, the highest rating first, the provisional ones
// apart; a player's place counts those above them; the other format's
// ratings are another board.
func TestLeaderboard(t *testing.T) {
	s, clock := openClocked(t)
	now := clock.Now()
	set := func(name string, f models.Format, r float64, games int, at time.Time) *models.User {
		u := models.MustUser(t, s, name)
		col := map[models.Format][3]string{models.TwoPlayers: {"rating", "rated_games", "rated_at"}, models.MorePlayers: {"multi_rating", "multi_rated_games", "multi_rated_at"}}[f]
		execOne(t, s, "UPDATE users SET "+col[0]+" = ?, "+col[1]+" = ?, "+col[2]+" = ? WHERE id = ?", r, games, at.UTC(), u.ID)
		u, err := s.UserByID(u.ID)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	ana := set("ana", models.TwoPlayers, 1700, 12, now)
	bob := set("bob", models.TwoPlayers, 1600, 15, now.Add(-80*24*time.Hour))
	cyd := set("cyd", models.TwoPlayers, 1800, 10, now.Add(-100*24*time.Hour)) // away too long
	set("dan", models.TwoPlayers, 1650, 3, now)                                // provisional
	eve := set("eve", models.TwoPlayers, 1900, 20, now)
	execOne(t, s, "UPDATE users SET banned_at = ? WHERE id = ?", now.UTC(), eve.ID)
	set("fay", models.MorePlayers, 1550, 11, now)
	gus := set("gus", models.TwoPlayers, 1600, 20, now) // ties with bob
	names := func(f models.Format, provisional bool) []string {
		ls, total, err := s.Leaderboard(f, provisional, 0, 10)
		if err != nil || total != len(ls) {
			t.Fatalf("leaderboard: %d of %d, %v", len(ls), total, err)
		}
		var out []string
		for _, l := range ls {
			out = append(out, l.Name)
		}
		return out
	}
	for _, c := range []struct {
		f           models.Format
		provisional bool
		want        []string
	}{
		{models.TwoPlayers, false, []string{"ana", "bob", "gus"}},
		{models.TwoPlayers, true, []string{"dan"}},
		{models.MorePlayers, false, []string{"fay"}},
		{models.MorePlayers, true, nil},
	} {
		if got := names(c.f, c.provisional); strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("format %d, provisional %v: %v; want %v", c.f, c.provisional, got, c.want)
		}
	}
	if ls, total, err := s.Leaderboard(models.TwoPlayers, false, 1, 1); err != nil || total != 3 || len(ls) != 1 || ls[0].Name != "bob" || ls[0].Rating != 1600 || ls[0].Games != 15 {
		t.Fatalf("the second page of one: %+v of %d (%v)", ls, total, err)
	}
	for _, c := range []struct {
		u    *models.User
		want int
	}{{ana, 1}, {bob, 2}, {gus, 2}, {cyd, 0}, {eve, 0}} {
		u, err := s.UserByID(c.u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := s.BoardPlace(u, models.TwoPlayers); err != nil || got != c.want {
			t.Errorf("%s's place: %d (%v); want %d", u.Username, got, err, c.want)
		}
	}
}

// execOne runs a statement of the test's own on s's database, which must
// change exactly one row.
func execOne(t *testing.T, s *models.Store, statement string, args ...any) {
	t.Helper()
	res := models.DB(s).Exec(statement, args...)
	if res.Error != nil || res.RowsAffected != 1 {
		t.Fatalf("%s: %d rows (%v)", statement, res.RowsAffected, res.Error)
	}
}

// TestFormatsRatedApart: a game of three moves its players' ratings of
// games of three or four, not those of two.
func TestFormatsRatedApart(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob, cyd := veteran(t, s, "ana"), veteran(t, s, "bob"), veteran(t, s, "cyd")
	clock.Advance(models.RatedAge)
	g, err := s.CreateGame(ana, models.GameSpec{Seats: []string{models.SeatOpen, models.SeatOpen}})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []*models.User{bob, cyd} {
		if _, err := s.Join(g.ID, "", u); err != nil {
			t.Fatal(err)
		}
	}
	playOut(t, s, g.ID, ana, bob, cyd)
	for _, u := range []*models.User{ana, bob, cyd} {
		v, _ := s.UserByID(u.ID)
		if v.MultiRatedGames != 1 || v.MultiRatedAt == nil || v.RatedGames != 0 || v.Rating != 1500 || v.MultiRating == 1500 && v.MultiRatingDev == 350 {
			t.Fatalf("%s after a game of three: two-player %.0f from %d, more %.0f from %d", u.Username, v.Rating, v.RatedGames, v.MultiRating, v.MultiRatedGames)
		}
	}
}
