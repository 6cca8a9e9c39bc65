// Package models stores users, games, seats, the append-only turn log,
// notifications, the outbox and sessions with GORM, on SQLite or
// PostgreSQL. A game's position is never stored as such: it is replayed
// from the game's setup and its log through the engine, so the log is the
// single source of truth.
//
// On SQLite, reads use a pool of connections and writes go through one
// connection of their own in WAL mode, so that writers queue in Go and
// never meet in SQLite's busy handler; on PostgreSQL one pool does both
// (postgres.go). A game's Version is the optimistic lock: a change names
// the version it was prepared on and commits only if the game is still
// there. The schema is a numbered list of steps (schema.go).
//
// # What follows a move
//
// A player's move (CommitTurn), a choice (Resolve), a bot's move or a
// timeout all go through commit (commit.go), in this order:
//
//  1. The game is loaded (its replay cached: only new entries are played;
//     CommitOn takes the load its caller just made, on a copy) and the
//     actor checked: their seat, a bot's seat, or a seat whose deadline
//     has passed; and the version the change was prepared on.
//  2. The change appends log entries, each played through the engine as
//     it is added; a refused move is an *engine.IllegalError and nothing
//     is written.
//  3. Players who chose "always decide for me" have the choices that now
//     wait for them made at once, each its own entry (decideForPolicies).
//  4. One transaction: the game's version moves on from the one read
//     (bumpVersion; if someone committed first, nothing is written:
//     ErrConflict to the player); a timeout checks its deadline again (a
//     vacation may have moved it); the entries are written.
//  5. In it, each seat's clock follows the rule of seatClock (clocks.go):
//     who is waited on now starts a clock, with its deadline and reminder
//     time (a player on vacation gets the whole limit after it), and is
//     told; who is waited on no more stops it (afterChange).
//  6. In it, a game over with every choice made is finished: its places,
//     scores and ratings are kept (keepResults) and each player told.
//  7. Each news is written (notify): a notice in the site, and a message
//     in the outbox for each channel the player chose for that kind of
//     news (kinds.go), which the worker sends later: mail about a game
//     waiting is held back a while (WithMailDelay) and skipped if the
//     player opened the game meanwhile; all of it waits out the player's
//     quiet hours.
//  8. After the commit, the game as committed is kept for the next load,
//     and the change is told (changed): at once to the change listener on
//     SQLite, through NOTIFY to every instance's on PostgreSQL; the pages
//     of the game and of its players' lists follow it live.
//
// # Tournaments
//
// Tournaments (tournaments.go) are run by the worker's pass
// (RunTournaments, tourrounds.go): sign-up closes, the players are seeded
// by rating and the first round is paired (package pairing) and its games
// started, as any game, rated, with the tournament's time per turn, their
// seats' order the play order; when the last game of a round is over the
// next is paired, and after the last the final places are kept. A round
// has a deadline: then the stand-in bot finishes what is left, for good.
// A no-show times out as anywhere (AbandonAfter), and is withdrawn from
// the rounds after. Points per place and the tie-breaks are on Standing;
// the standings are computed from the games whenever read (standings.go),
// never stored but as the final places.
//
// The web layer then lets the bots of the game move (models/autoplay):
// quick ones before it answers, a slow one in the background, each move
// through commit again. The worker plays the seats whose time ran out,
// sends reminders, digests and the outbox.
package models
