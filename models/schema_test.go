package models_test

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"golang.org/x/crypto/bcrypt"

	"cacao/models"
	"cacao/models/modeltest"
)

// reopenable is a database a test may close and open again: a file for
// SQLite, a schema of its own on PostgreSQL (CACAO_TEST_BACKEND).
func reopenable(t *testing.T) string {
	if db := modeltest.DB(t); db != ":memory:" {
		return db
	}
	return filepath.Join(t.TempDir(), "site.db")
}

// TestSchemaSteps: a new database is at this release's schema, each step
// recorded once; a schema a newer release made is refused, as is, by a
// store that may not migrate (a role without ownership), one behind; the
// owner's store runs the steps it lacks, and the games play on.
func TestSchemaSteps(t *testing.T) {
	db := reopenable(t)
	s, err := models.Open(db, models.WithPasswordCost(bcrypt.MinCost))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := s.Schema(); err != nil || v != models.SchemaVersion {
		t.Fatalf("a new database at schema %d (%v); want %d", v, err, models.SchemaVersion)
	}
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	id := startDuel(t, s, ana, bob, 0)
	if err := models.DB(s).Exec("INSERT INTO schema_steps (version, ran_at) VALUES (?, CURRENT_TIMESTAMP)", models.SchemaVersion+1).Error; err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := models.Open(db); !errors.Is(err, models.ErrSchemaAhead) {
		t.Fatalf("a schema ahead of this release: %v", err)
	}
	// Back to before any step: a database of a release before versions.
	edit(t, db, "DROP TABLE schema_steps")
	if _, err := models.Open(db, models.WithoutMigrating()); !errors.Is(err, models.ErrSchemaBehind) {
		t.Fatalf("a schema behind, opened without migrating: %v", err)
	}
	if s, err = models.Open(db, models.WithPasswordCost(bcrypt.MinCost)); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := s.Schema(); err != nil || v != models.SchemaVersion {
		t.Fatalf("upgraded to schema %d (%v); want %d", v, err, models.SchemaVersion)
	}
	actAll(t, s, id, whoseTurn(t, s, id, ana, bob))
	if ro, err := models.Open(db, models.WithoutMigrating()); err != nil {
		t.Fatalf("an up-to-date schema, opened without migrating: %v", err)
	} else {
		ro.Close()
	}
}

// TestUpgradeFromRelease: the database the last release before versioned
// steps left (testdata/make-release-fixture.sh), on either backend, is
// brought to this release's schema; its accounts log in and its game
// plays on.
func TestUpgradeFromRelease(t *testing.T) {
	db := releaseDB(t)
	s, err := models.Open(db, models.WithoutMigrating())
	if !errors.Is(err, models.ErrSchemaBehind) {
		t.Fatalf("the release's database opened without migrating: %v", err)
	}
	if s, err = models.Open(db, models.WithPasswordCost(bcrypt.MinCost)); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := s.Schema(); err != nil || v != models.SchemaVersion {
		t.Fatalf("upgraded to schema %d (%v); want %d", v, err, models.SchemaVersion)
	}
	ana, err := s.Authenticate("ana", "password-ana")
	if err != nil {
		t.Fatal(err)
	}
	bob, err := s.UserNamed("bob")
	if err != nil {
		t.Fatal(err)
	}
	games, err := s.AccountGames(ana.ID)
	if err != nil || len(games) != 1 {
		t.Fatalf("ana's games: %d (%v); want the one", len(games), err)
	}
	id := games[0].Game.ID
	before := mustLoad(t, s, id).Game.Version
	actAll(t, s, id, ana)
	actAll(t, s, id, bob)
	if after := mustLoad(t, s, id).Game.Version; after <= before {
		t.Fatalf("the game's version went from %d to %d", before, after)
	}
}

// releaseDB is a copy of the release's database: its SQLite file, or on
// PostgreSQL (CACAO_TEST_BACKEND) its dump loaded into a schema of the
// test's own.
func releaseDB(t *testing.T) string {
	t.Helper()
	if db := modeltest.DB(t); db != ":memory:" {
		dump, err := os.ReadFile(filepath.Join("testdata", "release-2026-12-05.pg.sql"))
		if err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(db)
		if err != nil {
			t.Fatal(err)
		}
		schema := u.Query().Get("search_path")
		sql := strings.ReplaceAll(strings.Replace(string(dump), "CREATE SCHEMA release_fixture;", "", 1), "release_fixture.", schema+".")
		conn, err := pgx.Connect(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		if _, err := conn.PgConn().Exec(context.Background(), sql).ReadAll(); err != nil {
			t.Fatalf("loading the release's dump: %v", err)
		}
		return db
	}
	data, err := os.ReadFile(filepath.Join("testdata", "release-2026-12-05.db"))
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "site.db")
	if err := os.WriteFile(db, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return db
}

// whoseTurn is which of a and b is to play game id.
func whoseTurn(t *testing.T, s *models.Store, id uint, a, b *models.User) *models.User {
	t.Helper()
	l := mustLoad(t, s, id)
	if l.SeatOf(b.ID) == l.Play.State().Current() {
		return b
	}
	return a
}

// edit runs statement on the database db directly, as a release before
// versions, or a newer one, would have left it.
func edit(t *testing.T, db, statement string) {
	t.Helper()
	if models.IsPostgres(db) {
		conn, err := pgx.Connect(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(context.Background(), statement); err != nil {
			t.Fatal(err)
		}
		return
	}
	conn, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Exec(statement); err != nil {
		t.Fatal(err)
	}
}

// TestPostgresRoleWithoutOwnership: a role that may read and write the
// tables but owns none starts the site without migrating (it could not:
// "must be owner of table users") and plays; with migrating it would try.
func TestPostgresRoleWithoutOwnership(t *testing.T) {
	dsn := postgres(t)
	owner, err := models.Open(dsn, models.WithPasswordCost(bcrypt.MinCost))
	if err != nil {
		t.Fatal(err)
	}
	owner.Close()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var schema string
	if err := conn.QueryRow(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
		t.Fatal(err)
	}
	role := schema + "_rw"
	if _, err := conn.Exec(ctx, "CREATE ROLE "+role+" LOGIN"); err != nil {
		t.Skipf("the tests' role may not make roles: %v", err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, dsn)
		if err == nil {
			defer conn.Close(ctx)
			_, _ = conn.Exec(ctx, "DROP OWNED BY "+role)
			_, _ = conn.Exec(ctx, "DROP ROLE "+role)
		}
	})
	for _, q := range []string{"GRANT USAGE ON SCHEMA " + schema + " TO " + role,
		"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + schema + " TO " + role,
		"GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA " + schema + " TO " + role} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.User(role)
	s, err := models.Open(u.String(), models.WithPasswordCost(bcrypt.MinCost), models.WithoutMigrating())
	if err != nil {
		t.Fatalf("the role without ownership, without migrating: %v", err)
	}
	defer s.Close()
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	id := startDuel(t, s, ana, bob, 0)
	actAll(t, s, id, whoseTurn(t, s, id, ana, bob))
}

// TestUpgradeToGuests: a database of the release before guests (schema 2,
// without their columns) gets them by step 3, its accounts are no guests
// and its game plays on; guests can then be made and seated.
func TestUpgradeToGuests(t *testing.T) {
	db := reopenable(t)
	s, err := models.Open(db, models.WithPasswordCost(bcrypt.MinCost))
	if err != nil {
		t.Fatal(err)
	}
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	id := startDuel(t, s, ana, bob, 0)
	s.Close()
	edit(t, db, "ALTER TABLE users DROP COLUMN guest")
	edit(t, db, "ALTER TABLE seats DROP COLUMN guest")
	edit(t, db, "DELETE FROM schema_steps WHERE version >= 3")
	if s, err = models.Open(db, models.WithPasswordCost(bcrypt.MinCost), models.WithBots("greedy")); err != nil {
		t.Fatalf("upgrading a database of schema 2: %v", err)
	}
	defer s.Close()
	if v, err := s.Schema(); err != nil || v != models.SchemaVersion {
		t.Fatalf("upgraded to schema %d (%v); want %d", v, err, models.SchemaVersion)
	}
	if u, err := s.Authenticate("ana", "password-ana"); err != nil || u.Guest {
		t.Fatalf("ana after the upgrade: %+v, %v", u, err)
	}
	actAll(t, s, id, whoseTurn(t, s, id, ana, bob))
	gus, err := s.CreateGuest("gus")
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.CreateGame(gus, models.GameSpec{Seats: []string{"greedy"}})
	if err != nil || !g.Seats[0].Guest {
		t.Fatalf("a guest's game after the upgrade: %v", err)
	}
}

// TestUpgradeToTournaments: a database of the release before bot
// ratings, reviews and tournaments (schema 7, without their tables and the
// games' link to tournaments) gets them by steps 8 to 10, and its game
// plays on; the bots' ratings and reviews are then read, and a tournament
// can be opened and started.
func TestUpgradeToTournaments(t *testing.T) {
	db := reopenable(t)
	s, err := models.Open(db, models.WithPasswordCost(bcrypt.MinCost))
	if err != nil {
		t.Fatal(err)
	}
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	id := startDuel(t, s, ana, bob, 0)
	s.Close()
	for _, q := range []string{"DROP TABLE bot_ratings", "DROP TABLE reviews", "DROP TABLE reviewed_turns",
		"DROP TABLE tournaments", "DROP TABLE entrants", "DROP TABLE tour_byes", "DROP INDEX idx_games_tournament",
		"ALTER TABLE games DROP COLUMN tournament_id", "ALTER TABLE games DROP COLUMN tour_round", "DELETE FROM schema_steps WHERE version >= 8"} {
		edit(t, db, q)
	}
	if s, err = models.Open(db, models.WithPasswordCost(bcrypt.MinCost)); err != nil {
		t.Fatalf("upgrading a database of schema 7: %v", err)
	}
	defer s.Close()
	if v, err := s.Schema(); err != nil || v != models.SchemaVersion {
		t.Fatalf("upgraded to schema %d (%v); want %d", v, err, models.SchemaVersion)
	}
	actAll(t, s, id, whoseTurn(t, s, id, ana, bob))
	if _, err := s.BotRatings(models.TwoPlayers); err != nil {
		t.Fatalf("the bots' ratings after the upgrade: %v", err)
	}
	if _, _, err := s.ReviewOf(id, 0); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("a review after the upgrade: %v", err)
	}
	cyd := models.MustUser(t, s, "cyd")
	tour, err := s.CreateTournament(ana, models.TourSpec{Name: "After", Format: models.Swiss, Rounds: 1, TurnHours: 24, RoundDays: 7, SignupDays: 1, MaxPlayers: 4, Private: true, Invite: []string{"bob", "cyd"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []*models.User{bob, cyd} {
		if err := s.JoinTournament(tour.ID, u); err != nil {
			t.Fatal(err)
		}
	}
	if p, err := s.TournamentPage(tour.ID, ana); err != nil || len(p.Players) != 3 {
		t.Fatalf("the tournament after the upgrade: %+v (%v)", p, err)
	}
}
