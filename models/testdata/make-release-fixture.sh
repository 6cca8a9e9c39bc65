#!/bin/sh
# Makes release-2026-12-05.db beside this script: a site's SQLite database
# as the last release before versioned migrations (commit b44beb6) left
# it: accounts ana, bob and carol (passwords "password-" + name), a game of
# ana and bob two turns in, with a chat message. TestUpgradeFromRelease
# opens a copy. Given a PostgreSQL database (postgres://…, one the script
# may make a schema in), it makes the same site there, in the schema
# release_fixture, and dumps it as release-2026-12-05.pg.sql (pg_dump,
# plain statements), which TestUpgradeFromRelease loads on PostgreSQL.
# Run from anywhere in the repository:
#   sh models/testdata/make-release-fixture.sh [postgres://…]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/release-2026-12-05.db"
pg=${1:-}
tmp=$(mktemp -d)
trap 'git -C "$here" worktree remove --force "$tmp"' EXIT
git -C "$here" worktree add --detach "$tmp" b44beb6
mkdir -p "$tmp/cmd/fixture"
cat > "$tmp/cmd/fixture/main.go" <<'GO'
package main

import (
	"log"
	"os"

	"golang.org/x/crypto/bcrypt"

	"cacao/engine"
	"cacao/models"
)

func main() {
	s, err := models.Open(os.Args[1], models.WithPasswordCost(bcrypt.MinCost))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	var users []*models.User
	for _, name := range []string{"ana", "bob", "carol"} {
		u, err := s.CreateUser(name, "password-"+name)
		if err != nil {
			log.Fatal(err)
		}
		users = append(users, u)
	}
	g, err := s.CreateGame(users[0], models.GameSpec{Seats: []string{models.SeatOpen}})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := s.Join(g.ID, "", users[1]); err != nil {
		log.Fatal(err)
	}
	for turn := 0; turn < 2; turn++ {
		l, err := s.LoadGame(g.ID)
		if err != nil {
			log.Fatal(err)
		}
		st := l.Play.State()
		mover := users[0]
		if l.SeatOf(users[1].ID) == st.Current() {
			mover = users[1]
		}
		if _, err := s.CommitTurn(g.ID, l.Game.Version, models.Actor{UserID: mover.ID}, engine.Move{Placement: st.LegalPlacements(nil)[0]}); err != nil {
			log.Fatal(err)
		}
	}
	if _, err := s.Say(users[0], g.ID, "good luck"); err != nil {
		log.Fatal(err)
	}
}
GO
if [ -z "$pg" ]; then
	rm -f "$out" "$out-wal" "$out-shm"
	(cd "$tmp" && go run ./cmd/fixture "$out")
	exit 0
fi
psql -q -v ON_ERROR_STOP=1 "$pg" -c 'DROP SCHEMA IF EXISTS release_fixture CASCADE' -c 'CREATE SCHEMA release_fixture'
case "$pg" in *\?*) site="$pg&search_path=release_fixture" ;; *) site="$pg?search_path=release_fixture" ;; esac
(cd "$tmp" && go run ./cmd/fixture "$site")
# Statements only: the test runs them without psql, so psql's own
# commands (\restrict) go.
pg_dump --schema=release_fixture --inserts --no-owner --no-privileges --no-comments "$pg" | sed '/^\\/d' >"$here/release-2026-12-05.pg.sql"
psql -q "$pg" -c 'DROP SCHEMA release_fixture CASCADE'
