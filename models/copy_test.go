package models_test

import (
	"errors"
	"path/filepath"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"cacao/models"
)

// A SQLite site copied into an empty PostgreSQL database is the same site
// there: the same rows in every table, games that load to the same
// position, users' choices as they were (a zero is not a column's
// default), and new rows after the copied ones. A database that is not
// empty is refused.
func TestCopyIntoPostgres(t *testing.T) {
	dsn := postgres(t)
	from, err := models.Open(filepath.Join(t.TempDir(), "site.db"), models.WithPasswordCost(bcrypt.MinCost))
	if err != nil {
		t.Fatal(err)
	}
	defer from.Close()
	ana, bob := models.MustUser(t, from, "ana"), models.MustUser(t, from, "bob")
	id := startDuel(t, from, ana, bob, 24)
	if _, err := from.Say(ana, id, "good luck"); err != nil {
		t.Fatal(err)
	}
	if err := from.SetChoices(bob.ID, models.Choices{models.ChanApp: 0, models.ChanPush: models.NewsTurn}); err != nil {
		t.Fatal(err)
	}
	if u, _ := from.UserByID(bob.ID); u.AppNews != 0 {
		t.Fatalf("bob's choices before the copy: %+v", u.Choices())
	}
	mustEmail(t, from, ana, "ana@example.test", models.MailEach, false)
	to, err := models.Open(dsn, models.WithPasswordCost(bcrypt.MinCost))
	if err != nil {
		t.Fatal(err)
	}
	defer to.Close()
	copied := map[string]int64{}
	if err := models.Copy(from, to, func(table string, n int64) { copied[table] = n }); err != nil {
		t.Fatal(err)
	}
	if copied["users"] != 2 || copied["games"] != 1 || copied["seats"] != 2 || copied["chat_messages"] != 1 || copied["mails"] == 0 {
		t.Fatalf("copied %v", copied)
	}
	a, err := from.LoadGame(id)
	if err != nil {
		t.Fatal(err)
	}
	b, err := to.LoadGame(id)
	if err != nil {
		t.Fatal(err)
	}
	if a.Game.Version != b.Game.Version || len(a.Log) != len(b.Log) || a.Play.State().Current() != b.Play.State().Current() {
		t.Fatalf("the game copied is at version %d with %d entries; it was %d with %d", b.Game.Version, len(b.Log), a.Game.Version, len(a.Log))
	}
	if u, _ := to.UserByID(bob.ID); u.AppNews != 0 || u.PushNews != models.NewsTurn {
		t.Fatalf("bob's choices in the copy: %+v", u.Choices())
	}
	if _, err := to.Authenticate("ana", "password-ana"); err != nil {
		t.Fatalf("ana cannot log in to the copy: %v", err)
	}
	carl, err := to.CreateUser("carl", "password-carl")
	if err != nil || carl.ID <= bob.ID {
		t.Fatalf("a new user in the copy: %+v, %v", carl, err)
	}
	if err := models.Copy(from, to, nil); !errors.Is(err, models.ErrNotEmpty) {
		t.Fatalf("a copy into a site: %v", err)
	}
}
