//go:build long

package models_test

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"cacao/engine"
	"cacao/models"
)

// TestLongPostgresRestart: the tests' PostgreSQL server restarts in the
// middle of a game (CACAO_TEST_PG_RESTART, a shell command that restarts
// the cluster, which .ci/run sets; no other test of make test-long uses
// PostgreSQL). Both instances' pools come back by themselves, a move
// refused while the database is away is played when tried again, and the
// listening instance, whose change listener says in the log that it lost
// its connection and has it again, tells of the first move made after the
// restart within 5 seconds of it.
func TestLongPostgresRestart(t *testing.T) {
	restart := os.Getenv("CACAO_TEST_PG_RESTART")
	if restart == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI restarts its PostgreSQL cluster in this test: set CACAO_TEST_PG_RESTART")
		}
		t.Skip("set CACAO_TEST_PG_RESTART to a command that restarts the CACAO_TEST_PG cluster")
	}
	a, b, heard, logged := listening(t, postgres(t))
	ana, bob := models.MustUser(t, b, "ana"), models.MustUser(t, b, "bob")
	id := startDuel(t, b, ana, bob, 0)
	mustLoad(t, a, id) // a's pool has a connection to lose

	if out, err := exec.Command("sh", "-c", restart).CombinedOutput(); err != nil {
		t.Fatalf("restarting PostgreSQL: %v\n%s", err, out)
	}
	var want int
	for giveUp := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		err := tryMove(b, id, ana, bob, &want)
		if err == nil {
			break
		}
		if !models.Unavailable(err) || time.Now().After(giveUp) {
			t.Fatalf("a move after the restart: %v", err)
		}
	}
	toldAfterReconnecting(t, heard, logged, id, want, "the move made after the restart")
	if _, err := a.LoadGame(id); err != nil {
		t.Errorf("the listening instance's pool after the restart: %v", err)
	}
}

// tryMove plays the first legal placement of whichever of a and b is to
// play game id, *version set to the game's version after it.
func tryMove(s *models.Store, id uint, a, b *models.User, version *int) error {
	l, err := s.LoadGame(id)
	if err != nil {
		return err
	}
	st := l.Play.State()
	mover := a
	if l.SeatOf(b.ID) == st.Current() {
		mover = b
	}
	g, err := s.CommitTurn(id, l.Game.Version, models.Actor{UserID: mover.ID}, engine.Move{Placement: st.LegalPlacements(nil)[0]})
	if err != nil {
		return err
	}
	*version = g.Game.Version
	return nil
}
