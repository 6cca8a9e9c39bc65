package models_test

import (
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
