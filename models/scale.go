package models

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// Scale is what FillScale adds to a database for a scale benchmark.
type Scale struct {
	Users    int    // accounts named scale0, scale1, ...
	Password string // the password of every one of them
	Finished int    // finished games, each a copy of the template
	Running  int    // running games, each a copy of the template's first turns
}

// FillScale fills the store for a scale benchmark (cmd/loadtest -fill):
// sc.Users accounts, then sc.Finished finished and sc.Running running
// two-player games between random pairs of them, copies of the finished
// game template (its setup and log; a running one stops at its first
// point where nobody has a choice to make, after a few turns, and waits
// on the seat to play). It writes in large transactions straight through
// the database, a thousand times faster than playing; progress is told
// its steps.
func (s *Store) FillScale(template uint, sc Scale, progress func(string)) error {
	t, err := s.LoadGame(template)
	if err != nil {
		return err
	}
	if t.Game.Status != StatusFinished || len(t.Seats) != 2 {
		return fmt.Errorf("models: the template must be a finished two-player game")
	}
	cut, waiting, err := runningCut(t)
	if err != nil {
		return err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(sc.Password), s.opts.passwordCost)
	if err != nil {
		return err
	}
	db, err := s.w.DB()
	if err != nil {
		return err
	}
	var firstUser uint
	if err := db.QueryRow(`SELECT COALESCE(MAX(id), 0) + 1 FROM users`).Scan(&firstUser); err != nil {
		return err
	}
	now := s.now()
	err = batches(db, s.pg, sc.Users, 10000, []string{
		`INSERT INTO users (id, username, name_key, password_hash, created_at, lang, mail_news) VALUES (?, ?, ?, ?, ?, '', 0)`,
	}, func(i int, st []stmt) error {
		name := fmt.Sprintf("scale%d", i)
		_, err := st[0].Exec(firstUser+uint(i), name, nameKey(name), hash, now)
		return err
	})
	if err != nil {
		return err
	}
	progress(fmt.Sprintf("%d users", sc.Users))
	var nextGame uint
	if err := db.QueryRow(`SELECT COALESCE(MAX(id), 0) + 1 FROM games`).Scan(&nextGame); err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(uint64(template), 7))
	copies := func(n int, running bool) error {
		entries := t.Log
		status, version := StatusFinished, t.Game.Version
		if running {
			entries, status, version = t.Log[:cut], StatusActive, t.Log[cut-1].Version
		}
		return batches(db, s.pg, n, 2000, []string{
			`INSERT INTO games (id, status, num_players, creator_id, invite_token, setup, first, version, turn_hours, private, invites, created_at, updated_at, started_at, finished_at, end_reason, scored)
			 VALUES (?, ?, 2, ?, ?, ?, ?, ?, 0, false, 0, ?, ?, ?, ?, '', ?)`,
			`INSERT INTO seats (game_id, slot, "index", user_id, bot, name, abandoned, timeouts, waiting_since, reminded, seen_seq, place, score) VALUES (?, ?, ?, ?, '', ?, false, 0, ?, false, 0, ?, ?)`,
			`INSERT INTO log_entries (game_id, seq, kind, seat, turn, version, timeout, auto, stand, data, created_at) VALUES (?, ?, ?, ?, ?, ?, false, false, false, ?, ?)`,
		}, func(i int, st []stmt) error {
			id := nextGame
			nextGame++
			at := now.Add(-time.Duration(r.IntN(3*365*24)) * time.Hour)
			var done *time.Time
			if !running {
				done = &at
			}
			if _, err := st[0].Exec(id, status, firstUser, fmt.Sprintf("scale-%d", id), t.Game.Setup, t.Game.First, version, at, at, at, done, !running); err != nil {
				return err
			}
			a := firstUser + uint(r.IntN(sc.Users))
			b := firstUser + uint(r.IntN(sc.Users-1))
			if b >= a {
				b++
			}
			for k, seat := range t.Seats {
				u := []uint{a, b}[k]
				var since *time.Time
				if running && seat.Index == waiting {
					since = &at
				}
				place, score := seat.Place, seat.Score
				if running {
					place, score = 0, 0
				}
				if _, err := st[1].Exec(id, seat.Slot, seat.Index, u, fmt.Sprintf("scale%d", u-firstUser), since, place, score); err != nil {
					return err
				}
			}
			for _, e := range entries {
				if _, err := st[2].Exec(id, e.Seq, e.Kind, e.Seat, e.Turn, e.Version, e.Data, at); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err := copies(sc.Finished, false); err != nil {
		return err
	}
	progress(fmt.Sprintf("%d finished games", sc.Finished))
	if err := copies(sc.Running, true); err != nil {
		return err
	}
	progress(fmt.Sprintf("%d running games", sc.Running))
	if s.pg { // the rows came with their ids: the sequences move past them
		for _, table := range []string{"users", "games", "seats", "log_entries"} {
			if err := resetSequence(s.w, table); err != nil {
				return err
			}
		}
	}
	return nil
}

// runningCut is where a running copy of the finished game t stops: the
// first entry, after the fourth turn, after which nobody has a choice to
// make; and the seat that plays next.
func runningCut(t *Loaded) (int, int, error) {
	l := &Loaded{Game: t.Game, Seats: t.Seats}
	if err := l.start(); err != nil {
		return 0, 0, err
	}
	for i, e := range t.Log {
		if err := l.apply(e); err != nil {
			return 0, 0, err
		}
		st := l.Play.State()
		if st.Turns() >= 4 && !st.Over() && !st.Pending() {
			return i + 1, st.Current(), nil
		}
	}
	return 0, 0, fmt.Errorf("models: the template has no point to stop a running copy at")
}

// stmt is a statement prepared in a batch's transaction.
type stmt = *sql.Stmt

// batches calls row for 0 to n-1, size rows a transaction, with queries
// prepared in it (their ? marks numbered for PostgreSQL, pg).
func batches(db *sql.DB, pg bool, n, size int, queries []string, row func(i int, st []stmt) error) error {
	for from := 0; from < n; from += size {
		tx, err := db.Begin()
		if err != nil {
			return err
		}
		err = func() error {
			st := make([]stmt, len(queries))
			for i, q := range queries {
				if pg {
					q = numbered(q)
				}
				if st[i], err = tx.Prepare(q); err != nil {
					return err
				}
				defer st[i].Close()
			}
			for i := from; i < min(n, from+size); i++ {
				if err := row(i, st); err != nil {
					return err
				}
			}
			return nil
		}()
		if err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// numbered writes the ? marks of q as PostgreSQL's $1, $2, ...
func numbered(q string) string {
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
