package models_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/crypto/bcrypt"

	"cacao/models"
	"cacao/models/modeltest"
)

// postgres is a new schema of the tests' PostgreSQL database (see
// modeltest.Postgres).
func postgres(t *testing.T) string {
	t.Helper()
	return modeltest.Schema(t, modeltest.Postgres(t))
}

// twoInstances is two stores on one new schema of the tests' PostgreSQL
// database: two instances of the site.
func twoInstances(t *testing.T) [2]*models.Store {
	t.Helper()
	dsn := postgres(t)
	var stores [2]*models.Store
	for i := range stores {
		s, err := models.Open(dsn, models.WithPasswordCost(bcrypt.MinCost))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		stores[i] = s
	}
	return stores
}

// Two stores on one PostgreSQL database are two instances of the site: a
// change committed through one reaches the change listener of the other
// (and its own) within a second.
func TestPostgresTellsEveryInstance(t *testing.T) {
	dsn := postgres(t)
	heard := [2]chan models.Change{make(chan models.Change, 16), make(chan models.Change, 16)}
	var stores [2]*models.Store
	for i := range stores {
		s, err := models.Open(dsn, models.WithPasswordCost(bcrypt.MinCost), models.WithChangeListener(func(c models.Change) { heard[i] <- c }))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		stores[i] = s
	}
	ana, bob := models.MustUser(t, stores[0], "ana"), models.MustUser(t, stores[0], "bob")
	id := startDuel(t, stores[1], ana, bob, 0)
	for i := range heard {
		deadline := time.After(time.Second)
		for got := false; !got; {
			select {
			case c := <-heard[i]:
				got = c.Game == id && c.Version > 0
			case <-deadline:
				t.Fatalf("instance %d did not hear of game %d within a second", i, id)
			}
		}
	}
}

// On PostgreSQL, changes that read and then write do not both pass at
// once: of two sign-ups of one name in other capitals one is refused, and
// two vacations started together charge what they give.
func TestPostgresWritesOneAfterTheOther(t *testing.T) {
	stores := twoInstances(t)
	for round := range 10 {
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, name := range []string{"user", "USER"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = stores[i].CreateUser(fmt.Sprintf("%s%d", name, round), "password-x")
			}()
		}
		wg.Wait()
		if (errs[0] == nil) == (errs[1] == nil) {
			t.Fatalf("round %d: two sign-ups of one name: %v, %v; want one refused", round, errs[0], errs[1])
		}
	}
	ana := models.MustUser(t, stores[0], "ana")
	var wg sync.WaitGroup
	for i := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stores[i].StartVacation(ana.ID, 7)
		}()
	}
	wg.Wait()
	u, err := stores[0].UserByID(ana.ID)
	if err != nil {
		t.Fatal(err)
	}
	if given := u.VacationUntil.Sub(time.Now()); given > time.Duration(u.VacationDays)*24*time.Hour+time.Hour {
		t.Fatalf("two vacations together gave %v and charged %d days", given.Round(time.Hour), u.VacationDays)
	}
}

// When the change listener's connection is cut mid-game, the listener
// says so in the log, connects again, and tells of the move made while it
// was away (from the database: its notice went out to nobody), within 5
// seconds.
func TestPostgresListenerCatchesUp(t *testing.T) {
	dsn := postgres(t)
	_, b, heard, logged := listening(t, dsn)
	ana, bob := models.MustUser(t, b, "ana"), models.MustUser(t, b, "bob")
	id := startDuel(t, b, ana, bob, 0)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var cut int
	if err := conn.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE query LIKE 'LISTEN %' AND query LIKE '%' || current_schema() || '%' AND pid <> pg_backend_pid()`).Scan(&cut); err != nil || cut != 1 {
		t.Fatalf("cut %d listeners (%v); want a's one", cut, err)
	}
	l := mustLoad(t, b, id)
	mover := ana
	if l.SeatOf(bob.ID) == l.Play.State().Current() {
		mover = bob
	}
	mustMove(t, b, id, mover)
	toldAfterReconnecting(t, heard, logged, id, mustLoad(t, b, id).Game.Version, "the move made while the listener was cut")
}

// listening is two instances on dsn: a, whose change listener passes what
// it hears to heard and whose log is logged, and b, which moves.
func listening(t *testing.T, dsn string) (a, b *models.Store, heard chan models.Change, logged *modeltest.SyncBuffer) {
	t.Helper()
	heard, logged = make(chan models.Change, 64), &modeltest.SyncBuffer{}
	a, err := models.Open(dsn, models.WithPasswordCost(bcrypt.MinCost), models.WithChangeListener(func(c models.Change) { heard <- c }),
		models.WithLogger(slog.New(slog.NewTextHandler(logged, nil))))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	b, err = models.Open(dsn, models.WithPasswordCost(bcrypt.MinCost))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return a, b, heard, logged
}

// toldAfterReconnecting fails t unless the change listener hears game id
// at version want (or later) within 5 seconds, and the log says that the
// listener lost its connection and has it again. what names the move.
func toldAfterReconnecting(t *testing.T, heard <-chan models.Change, logged *modeltest.SyncBuffer, id uint, want int, what string) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for got := false; !got; {
		select {
		case c := <-heard:
			got = c.Game == id && c.Version >= want
		case <-deadline:
			t.Fatalf("%s (game %d, version %d) was not told within 5 s; log:\n%s", what, id, want, logged.String())
		}
	}
	for _, line := range []string{"change listener: connection lost", "change listener: connected again"} {
		if !strings.Contains(logged.String(), line) {
			t.Errorf("the log does not say %q:\n%s", line, logged.String())
		}
	}
}

// A store whose every PostgreSQL connection stays busy (here its one,
// held by a transaction) refuses the next read once it has waited its
// pool wait, as Unavailable (a page answers 503), instead of waiting
// without bound; once the connection is back, reads go through.
func TestPostgresPoolFull(t *testing.T) {
	s, err := models.Open(postgres(t), models.WithPasswordCost(bcrypt.MinCost), models.WithPool(1, 0), models.WithPoolWait(300*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ana := models.MustUser(t, s, "ana")
	tx := models.DB(s).Begin()
	if tx.Error != nil {
		t.Fatal(tx.Error)
	}
	start := time.Now()
	_, err = s.UserByID(ana.ID)
	if waited := time.Since(start); !errors.Is(err, models.ErrPoolFull) || !models.Unavailable(err) || waited > 2*time.Second {
		t.Fatalf("a read with the pool held: %v after %v; want ErrPoolFull after 300ms", err, waited)
	}
	if err := tx.Rollback().Error; err != nil {
		t.Fatal(err)
	}
	if _, err := s.UserByID(ana.ID); err != nil {
		t.Fatalf("a read once the connection is back: %v", err)
	}
}
