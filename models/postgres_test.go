package models_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

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
