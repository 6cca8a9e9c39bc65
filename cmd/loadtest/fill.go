package main

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"time"

	"golang.org/x/crypto/bcrypt"

	"cacao/models"
)

// fillSize is what fillScale adds to a database.
type fillSize struct {
	Users    int // accounts named scale0, scale1, ...
	Finished int // finished games, each a copy of the template
	Running  int // running games, each a copy of the template's first turns
}

// fillScale fills the site's SQLite database db (its store open as store)
// for a scale check (-fill): sc.Users accounts with password, then
// sc.Finished finished and sc.Running running two-player games between
// random pairs of them, copies of the finished game template (its setup
// and log; a running one stops at its first point after the fourth turn
// where nobody has a choice to make, and waits on the seat to play). It
// writes in large transactions straight into the tables, a thousand times
// faster than playing; progress is told its steps. The site's schema is
// written out here as the tables stand: a change to them is a change here.
func fillScale(store *models.Store, db *sql.DB, template uint, sc fillSize, password string, progress func(string)) error {
	t, err := store.LoadGame(template)
	if err != nil {
		return err
	}
	if t.Game.Status != models.StatusFinished || len(t.Seats) != 2 {
		return fmt.Errorf("the template must be a finished two-player game")
	}
	cut, waiting, err := runningCut(t)
	if err != nil {
		return err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	if err != nil {
		return err
	}
	var firstUser uint
	if err := db.QueryRow(`SELECT COALESCE(MAX(id), 0) + 1 FROM users`).Scan(&firstUser); err != nil {
		return err
	}
	now := time.Now().UTC()
	err = batches(db, sc.Users, 10000, []string{
		`INSERT INTO users (id, username, name_key, password_hash, created_at, lang, mail_news) VALUES (?, ?, ?, ?, ?, '', 0)`,
	}, func(i int, st []*sql.Stmt) error {
		name := fmt.Sprintf("scale%d", i)
		_, err := st[0].Exec(firstUser+uint(i), name, models.NameKey(name), hash, now)
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
		status, version := models.StatusFinished, t.Game.Version
		if running {
			entries, status, version = t.Log[:cut], models.StatusActive, t.Log[cut-1].Version
		}
		return batches(db, n, 2000, []string{
			`INSERT INTO games (id, status, num_players, creator_id, invite_token, setup, first, version, turn_hours, private, invites, created_at, updated_at, started_at, finished_at, end_reason, scored)
			 VALUES (?, ?, 2, ?, ?, ?, ?, ?, 0, false, 0, ?, ?, ?, ?, '', ?)`,
			`INSERT INTO seats (game_id, slot, "index", user_id, bot, name, abandoned, timeouts, waiting_since, reminded, seen_seq, place, score) VALUES (?, ?, ?, ?, '', ?, false, 0, ?, false, 0, ?, ?)`,
			`INSERT INTO log_entries (game_id, seq, kind, seat, turn, version, timeout, auto, stand, data, created_at) VALUES (?, ?, ?, ?, ?, ?, false, false, false, ?, ?)`,
		}, func(i int, st []*sql.Stmt) error {
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
	return nil
}

// runningCut is where a running copy of the finished game t stops: after
// the first entry, past the fourth turn, after which nobody has a choice
// to make; and the seat that plays next.
func runningCut(t *models.Loaded) (int, int, error) {
	for n := 1; n <= len(t.Log); n++ {
		at, err := t.At(n)
		if err != nil {
			return 0, 0, err
		}
		st := at.Play.State()
		if st.Turns() >= 4 && !st.Over() && !st.Pending() {
			return n, st.Current(), nil
		}
	}
	return 0, 0, fmt.Errorf("the template has no point to stop a running copy at")
}

// batches calls row for 0 to n-1, size rows a transaction, with queries
// prepared in it.
func batches(db *sql.DB, n, size int, queries []string, row func(i int, st []*sql.Stmt) error) error {
	for from := 0; from < n; from += size {
		tx, err := db.Begin()
		if err != nil {
			return err
		}
		err = func() error {
			st := make([]*sql.Stmt, len(queries))
			for i, q := range queries {
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
