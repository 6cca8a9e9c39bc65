package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"cacao/engine"
	"cacao/handlers"
	"cacao/models"
	"cacao/models/autoplay"
	"cacao/models/modeltest"
)

// The client plays a whole game through the API of a real site, against
// the site's easy bot: every turn of its account's seat is its own, and
// the game ends finished.
func TestPlaysAWholeGame(t *testing.T) {
	store, err := models.Open(modeltest.DB(t), models.WithPasswordCost(bcrypt.MinCost), models.WithBots(autoplay.Kinds()...))
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	runner := autoplay.NewRunner(store, logger)
	h, err := handlers.New(store, handlers.Config{Logger: logger, Bots: runner})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); runner.Close(); store.Close() })

	ana, err := store.CreateUser("ana", "password-ana")
	if err != nil {
		t.Fatal(err)
	}
	token, err := store.CreateToken(ana.ID, "cacaobot", []string{"read", "play"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := store.CreateGame(ana, models.GameSpec{Seats: []string{"easy"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Bots(g.ID, nil); err != nil { // the bot may play first
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var out bytes.Buffer
	if err := run(ctx, config{site: srv.URL, token: token, bot: "greedy", game: g.ID, poll: 20 * time.Millisecond, seed: 1}, &out); err != nil {
		t.Fatalf("the client stopped with %v after:\n%s", err, out.String())
	}

	l, err := store.LoadGame(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if l.Game.Status != models.StatusFinished {
		t.Fatalf("the client exited with the game %s", l.Game.Status)
	}
	seat := -1
	for _, s := range l.Seats {
		if s.UserID != nil && *s.UserID == ana.ID {
			seat = s.Index
		}
	}
	turns := 0
	for _, e := range l.Log {
		if e.Kind != models.LogTurn || e.Seat != seat {
			continue
		}
		if e.UserID == nil || *e.UserID != ana.ID || e.Timeout || e.Stand {
			t.Fatalf("turn %d of ana's seat was not played by her token: %+v", e.Turn, e)
		}
		turns++
	}
	if want := len(engine.WorkerSet(2)); turns != want {
		t.Fatalf("ana's seat played %d turns, want %d", turns, want)
	}
	if played := strings.Count(out.String(), ": played turn "); played != turns {
		t.Fatalf("the client says it played %d turns, the log has %d:\n%s", played, turns, out.String())
	}
}
