package models_test

import (
	"fmt"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"cacao/models"
	"cacao/models/modeltest"
)

// TestPublicGamesCountsSoFar: the public list counts the games being
// played up to PublicCounted beyond its page, and says when there are more
// (a private or finished game is not counted).
func TestPublicGamesCountsSoFar(t *testing.T) {
	s, err := models.Open(modeltest.DB(t), models.WithPasswordCost(bcrypt.MinCost))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ana := models.MustUser(t, s, "ana")
	made := 0
	add := func(n int, status string, private bool) {
		games := make([]models.Game, n)
		for i := range games {
			made++
			games[i] = models.Game{Status: status, Private: private, NumPlayers: 2, CreatorID: ana.ID, InviteToken: fmt.Sprintf("t%d", made)}
		}
		if err := models.DB(s).CreateInBatches(games, 200).Error; err != nil {
			t.Fatal(err)
		}
	}
	add(30, models.StatusActive, false)
	add(5, models.StatusActive, true)
	add(5, models.StatusFinished, false)
	if games, total, more, err := s.PublicGames(0, 20); err != nil || len(games) != 20 || total != 30 || more {
		t.Fatalf("30 public games: %d listed, total %d, more %v (%v)", len(games), total, more, err)
	}
	add(models.PublicCounted, models.StatusActive, false)
	if games, total, more, err := s.PublicGames(0, 20); err != nil || len(games) != 20 || total != 20+models.PublicCounted || !more {
		t.Fatalf("%d public games: %d listed, total %d, more %v (%v); want more than %d", 30+models.PublicCounted, len(games), total, more, err, 20+models.PublicCounted)
	}
	if games, total, more, err := s.PublicGames(20, 20); err != nil || len(games) != 20 || total != 30+models.PublicCounted || more {
		t.Fatalf("%d public games, the second page: %d listed, total %d, more %v (%v); want all counted", 30+models.PublicCounted, len(games), total, more, err)
	}
}
