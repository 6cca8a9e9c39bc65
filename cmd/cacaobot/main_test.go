package main

import (
	"bytes"
	"context"
	"fmt"
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

// The client plays whole games through the API of a real site, against
// the site's bots, and exits by itself once its game is finished: every
// turn and every choice of its account's seat is its own. A choice waits
// for the client in one game of four or five: games are played until it
// has made one (80 without one: a chance below 1 in 10^7).
func TestPlaysWholeGames(t *testing.T) {
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

	for i := range 80 {
		if playGame(t, store, runner, srv.URL, fmt.Sprintf("ana%d", i)) > 0 {
			return
		}
	}
	t.Fatal("in 80 games no choice waited for the client: its choices went untested")
}

// playGame has the client play a game of four for a new account named
// name (a token of its own: the API's limits are a token's) against
// random and easy bots, checks it, and returns the choices it made.
func playGame(t *testing.T, store *models.Store, runner *autoplay.Runner, site, name string) (choices int) {
	t.Helper()
	u, err := store.CreateUser(name, "password-"+name)
	if err != nil {
		t.Fatal(err)
	}
	token, err := store.CreateToken(u.ID, "cacaobot", []string{"read", "play"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := store.CreateGame(u, models.GameSpec{Seats: []string{"random", "easy", "random"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Bots(g.ID, nil); err != nil { // the bots may play first
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	if err := run(ctx, config{site: site, token: token, bot: "greedy", game: g.ID, poll: 20 * time.Millisecond, seed: 1}, &out); err != nil {
		t.Fatalf("game %d: the client stopped with %v after:\n%s", g.ID, err, out.String())
	}

	l, err := store.LoadGame(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if l.Game.Status != models.StatusFinished {
		t.Fatalf("game %d: the client exited with the game %s", g.ID, l.Game.Status)
	}
	seat := l.SeatOf(u.ID)
	turns := 0
	for _, e := range l.Log {
		if e.Seat != seat || e.Kind != models.LogTurn && e.Kind != models.LogResolve {
			continue
		}
		if e.UserID == nil || *e.UserID != u.ID || e.Timeout || e.Stand || e.Auto {
			t.Fatalf("game %d: a %s of %s's seat was not made by the client: %+v", g.ID, e.Kind, name, e)
		}
		if e.Kind == models.LogTurn {
			turns++
		} else {
			choices++
		}
	}
	if want := len(engine.WorkerSet(4)); turns != want {
		t.Fatalf("game %d: %s's seat played %d turns, want %d", g.ID, name, turns, want)
	}
	said := out.String()
	if played, chose := strings.Count(said, ": played turn "), strings.Count(said, ": chose for turn "); played != turns || chose != choices {
		t.Fatalf("game %d: the client says it played %d turns and made %d choices, the log has %d and %d:\n%s", g.ID, played, chose, turns, choices, said)
	}
	return choices
}
