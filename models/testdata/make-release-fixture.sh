#!/bin/sh
# Makes release-2026-12-05.db beside this script: a site's SQLite database
# as the last release before versioned migrations (commit b44beb6) left
# it: accounts ana, bob and carol (passwords "password-" + name), a game of
# ana and bob two turns in, with a chat message. TestUpgradeFromRelease
# opens a copy. Run from anywhere in the repository: sh models/testdata/make-release-fixture.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/release-2026-12-05.db"
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
rm -f "$out" "$out-wal" "$out-shm"
(cd "$tmp" && go run ./cmd/fixture "$out")
