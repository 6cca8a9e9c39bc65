package models

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"cacao/engine"
)

func TestMain(m *testing.M) {
	bcryptCost = bcrypt.MinCost
	os.Exit(m.Run())
}

// MustOpen returns a fresh in-memory store. When the test ends it checks
// that the store made no write the caches could miss (see writePool.stray):
// every test of the package is a TestWritesOutsideTransactions.
func MustOpen(t testing.TB) *Store {
	t.Helper()
	s, err := Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	checkKeptRows(t, s)
	t.Cleanup(func() {
		if n := s.w.ConnPool.(*writePool).stray.Load(); n > 0 {
			t.Errorf("%d rows of games or users were changed outside Exec or a transaction: the caches missed them", n)
		}
		s.Close()
	})
	t.Cleanup(func() { checkKeptUsers(t, s) }) // before the store closes
	return s
}

// TestWritesOutsideTransactions: a write whose change would be told late
// (a query read after the call) is counted, so MustOpen's check can fail.
func TestWritesOutsideTransactions(t *testing.T) {
	s, err := Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mustUser(t, s, "ana")
	p := s.w.ConnPool.(*writePool)
	if n := p.stray.Load(); n != 0 {
		t.Fatalf("%d stray changes from creating a user", n)
	}
	var lang string
	if err := s.w.Raw("UPDATE users SET lang = 'fa' RETURNING lang").Scan(&lang).Error; err != nil || lang != "fa" {
		t.Fatalf("update returning: %q %v", lang, err)
	}
	if p.stray.Load() == 0 {
		t.Fatal("a write through a query outside a transaction was not counted")
	}
}

// twoPlayerGame is a started game of ana and bob (who joins its open
// seat) with a day per turn, as loaded.
func twoPlayerGame(t testing.TB, s *Store, ana, bob *User) *Loaded {
	t.Helper()
	g, err := s.CreateGame(ana, GameSpec{Seats: []string{SeatOpen}, TurnHours: 24})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Join(g.ID, "", bob); err != nil {
		t.Fatal(err)
	}
	l, err := s.LoadGame(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func mustUser(t testing.TB, s *Store, name string) *User {
	t.Helper()
	u, err := s.CreateUser(name, "password-"+name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestAccounts(t *testing.T) {
	s := MustOpen(t)
	u := mustUser(t, s, "ana")
	if string(u.PasswordHash) == "password-ana" || bcrypt.CompareHashAndPassword(u.PasswordHash, []byte("password-ana")) != nil {
		t.Fatal("password not stored as a bcrypt hash")
	}
	if _, err := s.CreateUser("ana", "another-password"); !errors.Is(err, ErrUsernameTaken) {
		t.Fatalf("duplicate username: %v", err)
	}
	for _, bad := range []string{"", "ab", "<script>", "a b c", "émile-the-very-long-name-indeed"} {
		if _, err := s.CreateUser(bad, "password-x"); !errors.Is(err, ErrInvalid) {
			t.Errorf("username %q accepted: %v", bad, err)
		}
	}
	if _, err := s.CreateUser("bo", "short"); !errors.Is(err, ErrInvalid) {
		t.Errorf("short password accepted: %v", err)
	}
	if got, err := s.Authenticate("ana", "password-ana"); err != nil || got.ID != u.ID {
		t.Fatalf("login: %v", err)
	}
	for _, c := range [][2]string{{"ana", "wrong-password"}, {"nobody", "password-ana"}} {
		if _, err := s.Authenticate(c[0], c[1]); !errors.Is(err, ErrBadLogin) {
			t.Errorf("login %v: %v", c, err)
		}
	}
}

// TestUsernamesIgnoreCase: "Ana" is "ana": nobody can sign up as another's
// name in other capitals (and so pose as them), and a name is found however
// it is typed, at login and in an invitation.
func TestUsernamesIgnoreCase(t *testing.T) {
	s := MustOpen(t)
	ana := mustUser(t, s, "ana")
	bob := mustUser(t, s, "Bob")
	for _, name := range []string{"Ana", "ANA", "bob", "BOB"} {
		if _, err := s.CreateUser(name, "password-x1"); !errors.Is(err, ErrUsernameTaken) {
			t.Errorf("sign-up as %q: %v, want taken", name, err)
		}
	}
	for name, want := range map[string]uint{"ANA": ana.ID, "Ana": ana.ID, "bob": bob.ID, "Bob": bob.ID} {
		pw := "password-ana"
		if want == bob.ID {
			pw = "password-Bob"
		}
		if got, err := s.Authenticate(name, pw); err != nil || got.ID != want {
			t.Errorf("login as %q: %v", name, err)
		}
	}
	g, err := s.CreateGame(ana, GameSpec{Seats: []string{"@BOB"}})
	if err != nil {
		t.Fatalf("inviting BOB: %v", err)
	}
	if g.Seats[1].InvitedID == nil || *g.Seats[1].InvitedID != bob.ID {
		t.Fatal("the invitation of BOB is not bob's")
	}
}

// playHuman makes one legal move for the seat of user (the first legal
// placement, default fills), resolving pending choices first.
func playHuman(t testing.TB, s *Store, l *Loaded, u *User) *Loaded {
	t.Helper()
	seat := l.SeatOf(u.ID)
	st := l.Play.State()
	var err error
	if len(st.Player(seat).Queue()) > 0 {
		l, err = s.CommitResolve(l.Game.ID, l.Game.Version, Actor{UserID: u.ID}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	legal := st.LegalPlacements(nil)
	l, err = s.CommitTurn(l.Game.ID, l.Game.Version, Actor{UserID: u.ID}, engine.Move{Placement: legal[len(legal)/2]})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// playNext plays the next move of a game between people (users by id): a
// pending choice of anyone's first, else the turn.
func playNext(t testing.TB, s *Store, l *Loaded, users map[uint]*User) *Loaded {
	t.Helper()
	st := l.Play.State()
	seat := st.Current()
	for i := range l.Seats {
		if len(st.Player(i).Queue()) > 0 {
			seat = i
		}
	}
	return playHuman(t, s, l, users[*l.Seats[seat].UserID])
}

// TestGameAgainstBotToTheEnd: a person and a greedy bot play a whole game
// through the store; the log replays to the same result as the record.
func TestGameAgainstBotToTheEnd(t *testing.T) {
	s := MustOpen(t)
	ana := mustUser(t, s, "ana")
	g, err := s.CreateGame(ana, GameSpec{Seats: []string{"greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != StatusActive {
		t.Fatalf("a game with only a bot to wait for is %s; want active", g.Status)
	}
	for i := 0; i < 200; i++ {
		if err := s.DriveBots(g.ID); err != nil {
			t.Fatal(err)
		}
		l, err := s.LoadGame(g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if l.Game.Status == StatusFinished {
			st := l.Play.State()
			if !st.Over() || st.Pending() || st.Turns() != 22 {
				t.Fatalf("finished game: over %v pending %v turns %d", st.Over(), st.Pending(), st.Turns())
			}
			// The position from the log equals a replay of the exported record.
			data, _ := l.Play.Record().Encode()
			rec, err := engine.DecodeRecord(data)
			if err != nil {
				t.Fatal(err)
			}
			st2, err := engine.Replay(rec)
			if err != nil || !reflect.DeepEqual(st2.Score(), st.Score()) {
				t.Fatalf("record replays to %v (%v); log gives %v", st2.Score(), err, st.Score())
			}
			ns, unread, _ := s.Notifications(ana.ID, 50)
			if unread == 0 || ns[0].Kind != "finished" {
				t.Fatalf("no game-over notification: %+v", ns)
			}
			return
		}
		playHuman(t, s, l, ana)
	}
	t.Fatal("the game did not end")
}

// TestDoubleSubmitCommitsOnce: the same turn submitted twice on the same
// version, and 20 times concurrently, commits exactly once.
func TestDoubleSubmitCommitsOnce(t *testing.T) {
	t.Run("memory", func(t *testing.T) { doubleSubmit(t, MustOpen(t)) })
	t.Run("file", func(t *testing.T) {
		// The production set-up: a WAL file with several connections.
		s, err := Open(filepath.Join(t.TempDir(), "cacao.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		doubleSubmit(t, s)
	})
}

func doubleSubmit(t *testing.T, s *Store) {
	ana, bo := mustUser(t, s, "ana"), mustUser(t, s, "bob")
	g, _ := s.CreateGame(ana, GameSpec{Seats: []string{SeatOpen}})
	if _, err := s.Join(g.ID, "", bo); err != nil {
		t.Fatal(err)
	}
	l, _ := s.LoadGame(g.ID)
	st := l.Play.State()
	var mover *User
	for _, u := range []*User{ana, bo} {
		if l.SeatOf(u.ID) == st.Current() {
			mover = u
		}
	}
	m := engine.Move{Placement: st.LegalPlacements(nil)[0]}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, conflicts := 0, 0
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.CommitTurn(g.ID, l.Game.Version, Actor{UserID: mover.ID}, m)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errors.Is(err, ErrConflict):
				conflicts++
			default:
				t.Errorf("unexpected error: %v", err)
			}
		}()
	}
	wg.Wait()
	if ok != 1 || conflicts != 19 {
		t.Fatalf("%d commits and %d conflicts; want 1 and 19", ok, conflicts)
	}
	l2, _ := s.LoadGame(g.ID)
	if len(l2.Log) != 1 || l2.Play.State().Turns() != 1 {
		t.Fatalf("log has %d entries; want 1", len(l2.Log))
	}
	// A late resubmit on the old version is refused too.
	if _, err := s.CommitTurn(g.ID, l.Game.Version, Actor{UserID: mover.ID}, m); !errors.Is(err, ErrConflict) {
		t.Fatalf("resubmit: %v", err)
	}
}

// TestOnlySeatedPlayersAct: someone without a seat, or out of turn, cannot
// act, and nothing changes.
func TestOnlySeatedPlayersAct(t *testing.T) {
	s := MustOpen(t)
	ana, bo, eve := mustUser(t, s, "ana"), mustUser(t, s, "bob"), mustUser(t, s, "eve")
	g, _ := s.CreateGame(ana, GameSpec{Seats: []string{SeatOpen}})
	if _, err := s.Join(g.ID, "", ana); !errors.Is(err, ErrAlreadyIn) {
		t.Fatalf("joining twice: %v", err)
	}
	if _, err := s.Join(0, "not-a-token", bo); !errors.Is(err, ErrNotFound) {
		t.Fatalf("bad token: %v", err)
	}
	if _, err := s.Join(0, g.InviteToken, bo); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Join(g.ID, "", eve); !errors.Is(err, ErrNotOpen) {
		t.Fatalf("joining a full game: %v", err)
	}
	l, _ := s.LoadGame(g.ID)
	st := l.Play.State()
	m := engine.Move{Placement: st.LegalPlacements(nil)[0]}
	if _, err := s.CommitTurn(g.ID, l.Game.Version, Actor{UserID: eve.ID}, m); !errors.Is(err, ErrForbidden) {
		t.Fatalf("outsider: %v", err)
	}
	waiting := ana
	if l.SeatOf(ana.ID) == st.Current() {
		waiting = bo
	}
	if _, err := s.CommitTurn(g.ID, l.Game.Version, Actor{UserID: waiting.ID}, m); !errors.Is(err, engine.ErrIllegal) {
		t.Fatalf("out of turn: %v", err)
	}
	if _, err := s.CommitTurn(g.ID, l.Game.Version, Actor{Bot: true, Seat: 0}, m); !errors.Is(err, ErrForbidden) {
		t.Fatalf("a bot acting for a person's seat: %v", err)
	}
	l2, _ := s.LoadGame(g.ID)
	if len(l2.Log) != 0 || l2.Game.Version != l.Game.Version {
		t.Fatal("a refused move changed the game")
	}
	games, _, _ := s.MyGames(ana.ID, -1)
	if len(games) != 1 || games[0].WaitingOnMe != (waiting != ana) {
		t.Fatalf("my games: %+v", games)
	}
}

func TestFileDatabaseUsesWAL(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "cacao.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if mode, err := s.JournalMode(); err != nil || mode != "wal" {
		t.Fatalf("journal mode %q (%v); want wal", mode, err)
	}
	var fk int
	s.db.Raw("PRAGMA foreign_keys").Scan(&fk)
	if fk != 1 {
		t.Fatal("foreign keys are off")
	}
}

// TestNotifications: a game between two people tells each of them when it
// starts, when it is their turn, when a choice waits for them and how they
// placed at the end.
func TestNotifications(t *testing.T) {
	s := MustOpen(t)
	s.Dealer = func(n int) ([]int, int, engine.Setup) {
		su, _ := engine.NewSetup(n, 5)
		return []int{0, 1}, 0, su
	}
	ana, bob := mustUser(t, s, "ana"), mustUser(t, s, "bob")
	g, _ := s.CreateGame(ana, GameSpec{Seats: []string{SeatOpen}})
	if _, err := s.Join(g.ID, "", bob); err != nil {
		t.Fatal(err)
	}
	r := engine.NewRand(9)
	for step := 0; step < 200; step++ {
		l, err := s.LoadGame(g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if l.Game.Status == StatusFinished {
			break
		}
		st := l.Play.State()
		moved := false
		for _, u := range []*User{ana, bob} {
			seat := l.SeatOf(u.ID)
			// Choices wait until their owner's own turn comes.
			if len(st.Player(seat).Queue()) > 0 && st.Current() == seat {
				if _, err := s.CommitResolve(g.ID, l.Game.Version, Actor{UserID: u.ID}, nil); err != nil {
					t.Fatal(err)
				}
				moved = true
				break
			}
			if st.Current() == seat && len(st.Player(seat).Queue()) == 0 {
				legal := st.LegalPlacements(nil)
				if _, err := s.CommitTurn(g.ID, l.Game.Version, Actor{UserID: u.ID}, engine.Move{Placement: legal[r.Intn(len(legal))]}); err != nil {
					t.Fatal(err)
				}
				moved = true
				break
			}
		}
		if !moved {
			// The game is over but a choice waits: its owner makes it.
			for _, u := range []*User{ana, bob} {
				if len(st.Player(l.SeatOf(u.ID)).Queue()) > 0 {
					if _, err := s.CommitResolve(g.ID, l.Game.Version, Actor{UserID: u.ID}, nil); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	kinds := map[string]int{}
	choices := 0
	for _, u := range []*User{ana, bob} {
		ns, unread, err := s.Notifications(u.ID, 500)
		if err != nil {
			t.Fatal(err)
		}
		if unread != int64(len(ns)) {
			t.Fatalf("%d unread of %d", unread, len(ns))
		}
		for _, n := range ns {
			kinds[n.Kind]++
			if strings.Contains(n.Text, "a choice is waiting") || n.Kind == "reaction" {
				choices++
			}
			if n.GameID != g.ID {
				t.Fatalf("notification %+v does not link to the game", n)
			}
		}
		if ns[0].Kind != "finished" || !strings.Contains(ns[0].Text, "you placed") {
			t.Fatalf("%s's last notification: %+v", u.Username, ns[0])
		}
		if err := s.MarkRead(u.ID); err != nil {
			t.Fatal(err)
		}
		if _, unread, _ := s.Notifications(u.ID, 1); unread != 0 {
			t.Fatal("mark read left unread notifications")
		}
	}
	// Every one of the 22 turns falls in a wait that began with a "turn" or a
	// "reaction" notification; a turn that comes with a choice says so.
	if kinds["started"] != 2 || kinds["finished"] != 2 || kinds["turn"]+kinds["reaction"] < 22 || choices == 0 {
		t.Fatalf("notification kinds %v, %d about choices: want 2 started, 2 finished, a wait notice for each of 22 turns, at least one about a choice", kinds, choices)
	}
}

// TestReadGameMatchesGORM: the plain-SQL read of a game and its seats gives
// what GORM reads, field for field, with every optional field set and not.
func TestReadGameMatchesGORM(t *testing.T) {
	s := MustOpen(t)
	ana, cy := mustUser(t, s, "ana"), mustUser(t, s, "cyd")
	mustUser(t, s, "bob") // invited by name below
	open, err := s.CreateGame(ana, GameSpec{Seats: []string{"@bob", SeatOpen}, TurnHours: 72})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := s.CreateGame(ana, GameSpec{Seats: []string{SeatOpen, "greedy"}, TurnHours: 24})
	if _, err := s.Join(g.ID, "", cy); err != nil {
		t.Fatal(err)
	}
	l, _ := s.LoadGame(g.ID)
	if err := s.MarkSeen(l, l.SeatOf(cy.ID)); err != nil {
		t.Fatal(err)
	}
	s.FlushSeen()
	for _, id := range []uint{open.ID, g.ID} {
		var want Game
		if err := s.db.Preload("Seats").Take(&want, id).Error; err != nil {
			t.Fatal(err)
		}
		var got Game
		seats, err := readGame(s.db, id, &got)
		if err != nil {
			t.Fatal(err)
		}
		got.Seats = seats
		sort.Slice(got.Seats, func(a, b int) bool { return got.Seats[a].ID < got.Seats[b].ID })
		sort.Slice(want.Seats, func(a, b int) bool { return want.Seats[a].ID < want.Seats[b].ID })
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("game %d:\n got %+v\nwant %+v", id, got, want)
		}
	}
	if _, err := readGame(s.db, 999, &Game{}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a missing game: %v", err)
	}
}

// TestReadUserMatchesGORM: readUser reads what GORM reads, for a new user
// (no email: NULL) and one with every setting made.
func TestReadUserMatchesGORM(t *testing.T) {
	s := MustOpen(t)
	ana, bob := mustUser(t, s, "ana"), mustUser(t, s, "bob")
	until := time.Date(2026, 12, 24, 10, 30, 0, 5, time.UTC)
	if err := s.w.Exec(`UPDATE users SET email = 'bob@example.org', email_verified = true, email_mode = 'digest', lang = 'fa',
		last_digest_at = ?, vacation_until = ?, vacation_year = 2026, vacation_days = 3, auto_decide = true WHERE id = ?`,
		until.Add(-time.Hour), until, bob.ID).Error; err != nil {
		t.Fatal(err)
	}
	if err := s.w.Exec(`INSERT INTO notifications (user_id, game_id, kind, text, created_at) VALUES (?, 0, 'turn', 'x', ?)`, bob.ID, until).Error; err != nil {
		t.Fatal(err)
	}
	for _, id := range []uint{ana.ID, bob.ID} {
		var want, got User
		if err := s.db.Take(&want, id).Error; err != nil {
			t.Fatal(err)
		}
		if err := readUser(s.db, id, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("user %d:\n got %+v\nwant %+v", id, got, want)
		}
		if id == bob.ID && (got.VacationUntil == nil || got.Unread != 1 || !got.AutoDecide || got.Email == "") {
			t.Fatalf("bob's settings were not all read: %+v", got)
		}
	}
	if err := readUser(s.db, 999, &User{}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a missing user: %v", err)
	}
}

// TestLoadSeesEveryWrite: a game's rows are kept between loads, yet a load
// after any write to the game's row or a seat, by whatever statement, sees
// it; and rev only grows, even when an old rev is written back.
func TestLoadSeesEveryWrite(t *testing.T) {
	s := MustOpen(t)
	ana, bob := mustUser(t, s, "ana"), mustUser(t, s, "bob")
	l := twoPlayerGame(t, s, ana, bob)
	twoPlayerGame(t, s, ana, bob) // the game a seat moves to
	g := &l.Game
	rev := l.Game.Rev
	if again, _ := s.LoadGame(g.ID); again.Game.Rev != rev || again.Seats[0].Name != l.Seats[0].Name {
		t.Fatal("a load without a write in between differs")
	}
	steps := []struct {
		sql   string
		check func(l *Loaded) bool
	}{
		{"UPDATE seats SET name = 'renamed' WHERE game_id = ? AND slot = 0", func(l *Loaded) bool {
			for _, st := range l.Seats {
				if st.Name == "renamed" {
					return true
				}
			}
			return false
		}},
		{"UPDATE games SET turn_hours = 168 WHERE id = ?", func(l *Loaded) bool { return l.Game.TurnHours == 168 }},
		{"UPDATE games SET rev = 0, turn_hours = 72 WHERE id = ?", func(l *Loaded) bool { return l.Game.TurnHours == 72 }},
		// A seat moved to another game is gone from this one's rows.
		{"UPDATE seats SET game_id = (SELECT max(id) FROM games) WHERE game_id = ? AND slot = 1", func(l *Loaded) bool { return len(l.Seats) == 1 }},
	}
	for _, st := range steps {
		if err := s.w.Exec(st.sql, g.ID).Error; err != nil {
			t.Fatal(err)
		}
		l, err := s.LoadGame(g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !st.check(l) {
			t.Fatalf("after %q the load shows the rows from before", st.sql)
		}
		if l.Game.Rev <= rev {
			t.Fatalf("after %q rev is %d, was %d", st.sql, l.Game.Rev, rev)
		}
		rev = l.Game.Rev
	}
	// The copy a load hands out is its own.
	l, _ = s.LoadGame(g.ID)
	l.Seats[0].Name = "scribbled"
	if again, _ := s.LoadGame(g.ID); again.Seats[0].Name == "scribbled" {
		t.Fatal("a change to a loaded seat reached the kept rows")
	}
}

// checkKeptRows has every commit of s compare the rows it keeps for the
// next loads with the rows the database holds (unless the game changed
// again meanwhile): a field that a commit writes in one way and keeps in
// another fails the test.
func checkKeptRows(t testing.TB, s *Store) {
	s.checkKept = func(game Game, seats []Seat) {
		var g Game
		stored, err := readGame(s.db, game.ID, &g)
		if err != nil {
			t.Errorf("reading game %d back: %v", game.ID, err)
			return
		}
		if g.Rev != game.Rev {
			// Changed again since, or kept at a wrong rev.
			if kept, _, ok := s.rows.get(game.ID, s.rows.gen(game.ID)); ok && kept.Rev == game.Rev {
				t.Errorf("game %d was kept at rev %d, is stored at rev %d, and no commit came since", game.ID, game.Rev, g.Rev)
			}
			return
		}
		byID := func(ss []Seat) []Seat {
			ss = append([]Seat(nil), ss...)
			sort.Slice(ss, func(a, b int) bool { return ss[a].ID < ss[b].ID })
			return ss
		}
		if !reflect.DeepEqual(g, game) {
			t.Errorf("game %d as kept after a commit:\n%+v\nas stored:\n%+v", game.ID, game, g)
		}
		if a, b := byID(seats), byID(stored); !reflect.DeepEqual(a, b) {
			t.Errorf("seats of game %d as kept after a commit:\n%s\nas stored:\n%s", game.ID, seatsText(a), seatsText(b))
		}
	}
}

// checkKeptUsers compares every user the cache keeps with the database:
// a count moved in the cache (notices written and read) that is not the
// stored one fails the test.
func checkKeptUsers(t testing.TB, s *Store) {
	s.users.mu.Lock()
	kept := maps.Clone(s.users.m)
	s.users.mu.Unlock()
	for id, u := range kept {
		var stored User
		if err := readUser(s.db, id, &stored); err != nil {
			t.Errorf("reading user %d back: %v", id, err)
			continue
		}
		if !reflect.DeepEqual(u, stored) {
			t.Errorf("user %d as kept:\n%+v\nas stored:\n%+v", id, u, stored)
		}
	}
}

func seatsText(ss []Seat) string {
	var b strings.Builder
	for _, st := range ss {
		fmt.Fprintf(&b, "%+v", st)
		for _, t := range []*time.Time{st.WaitingSince, st.Deadline, st.RemindAt, st.SeenAt} {
			if t != nil {
				fmt.Fprintf(&b, " %s", t.Format(time.RFC3339Nano))
			} else {
				b.WriteString(" nil")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestOldSeatTriggerReplaced: a database made when a seat's trigger moved
// rev with "NEW.game_id OR OLD.game_id" (slow) gets today's triggers when
// opened, and they still count a seat's change.
func TestOldSeatTriggerReplaced(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`DROP TRIGGER seats_rev_update`, `DROP TRIGGER seats_rev_move`,
		`CREATE TRIGGER seats_rev_update AFTER UPDATE ON seats
		BEGIN UPDATE games SET rev = rev + 1 WHERE id = NEW.game_id OR id = OLD.game_id; END`} {
		if err := s.w.Exec(q).Error; err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if s, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var defs []string
	if err := s.db.Raw(`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'seats' ORDER BY name`).Scan(&defs).Error; err != nil {
		t.Fatal(err)
	}
	if len(defs) != 4 {
		t.Fatalf("seats has %d triggers, want 4 (insert, move, update, delete): %q", len(defs), defs)
	}
	for _, d := range defs {
		if strings.Contains(d, " OR ") {
			t.Fatalf("the old trigger is still there: %s", d)
		}
	}
	ana, bob := mustUser(t, s, "ana"), mustUser(t, s, "bob")
	l := twoPlayerGame(t, s, ana, bob)
	if err := s.w.Exec(`UPDATE seats SET name = 'renamed' WHERE game_id = ? AND slot = 0`, l.Game.ID).Error; err != nil {
		t.Fatal(err)
	}
	if again := mustLoad(t, s, l.Game.ID); again.Game.Rev <= l.Game.Rev {
		t.Fatalf("a seat's change left rev at %d", again.Game.Rev)
	}
}

// TestRowsReadBeforeACommitNotKept: rows whose read began before a commit
// changed the game are not kept (they may be from before it), and a commit
// ends what was kept.
func TestRowsReadBeforeACommitNotKept(t *testing.T) {
	c := newGameRows()
	before := c.gen(7)
	c.changed(map[uint]bool{7: true})
	c.put(before, Game{ID: 7, Status: "old"}, nil)
	if _, _, ok := c.get(7, c.gen(7)); ok {
		t.Fatal("rows read before a commit were kept")
	}
	now := c.gen(7)
	c.put(now, Game{ID: 7, Status: "new"}, []Seat{{ID: 1}})
	if g, seats, ok := c.get(7, c.gen(7)); !ok || g.Status != "new" || len(seats) != 1 {
		t.Fatal("rows read after the commit were not kept")
	}
	c.changed(map[uint]bool{8: true})
	if _, _, ok := c.get(7, c.gen(7)); !ok {
		t.Fatal("a commit to another game ended these rows")
	}
	c.changed(map[uint]bool{7: true})
	if _, _, ok := c.get(7, c.gen(7)); ok {
		t.Fatal("rows outlived a commit that changed them")
	}
}

// TestUnreadCountKept: the unread count a page shows follows every change
// to the notifications, by whatever statement, and is counted afresh when
// the database is opened again.
func TestUnreadCountKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "unread.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ana := mustUser(t, s, "ana")
	count := func(s *Store) int64 {
		t.Helper()
		n, err := s.Unread(ana.ID)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if count(s) != 0 {
		t.Fatal("a new user has unread notifications")
	}
	for i := 0; i < 3; i++ {
		if err := s.w.Exec("INSERT INTO notifications (user_id, game_id, kind, text, created_at) VALUES (?, 0, 'turn', 'x', ?)", ana.ID, time.Now()).Error; err != nil {
			t.Fatal(err)
		}
	}
	if got := count(s); got != 3 {
		t.Fatalf("%d unread after three notifications", got)
	}
	if err := s.w.Exec("UPDATE notifications SET read = true WHERE id = (SELECT min(id) FROM notifications)").Error; err != nil {
		t.Fatal(err)
	}
	if err := s.w.Exec("DELETE FROM notifications WHERE id = (SELECT max(id) FROM notifications)").Error; err != nil {
		t.Fatal(err)
	}
	if got := count(s); got != 1 {
		t.Fatalf("%d unread after one was read and one deleted, want 1", got)
	}
	if err := s.w.Exec("UPDATE users SET unread = 99").Error; err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := count(s); got != 1 {
		t.Fatalf("%d unread after opening again, want 1", got)
	}
	if err := s.MarkRead(ana.ID); err != nil {
		t.Fatal(err)
	}
	if got := count(s); got != 0 {
		t.Fatalf("%d unread after marking all read", got)
	}
}

// TestMyGamesListsLatestFinished: my games are all the unfinished ones and
// the latest finished ones asked for, with the count of all finished.
func TestMyGamesListsLatestFinished(t *testing.T) {
	s := MustOpen(t)
	ana, bob := mustUser(t, s, "ana"), mustUser(t, s, "bob")
	var finished []uint
	for i := 0; i < 15; i++ {
		g, err := s.CreateGame(ana, GameSpec{Seats: []string{"greedy"}})
		if err != nil {
			t.Fatal(err)
		}
		if i < 13 {
			// Finished one after another, the first made the longest ago.
			at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour)
			if err := s.w.Exec(`UPDATE games SET status = ?, updated_at = ?, finished_at = ? WHERE id = ?`, StatusFinished, at, at, g.ID).Error; err != nil {
				t.Fatal(err)
			}
			finished = append(finished, g.ID)
		}
	}
	if _, err := s.CreateGame(bob, GameSpec{Seats: []string{"greedy"}}); err != nil { // not ana's
		t.Fatal(err)
	}
	count := func(games []GameSummary) (done, other int) {
		for _, g := range games {
			if g.Game.Status == StatusFinished {
				done++
			} else {
				other++
			}
		}
		return
	}
	for _, tc := range []struct{ ask, done int }{{10, 10}, {0, 0}, {-1, 13}, {20, 13}} {
		games, total, err := s.MyGames(ana.ID, tc.ask)
		if err != nil {
			t.Fatal(err)
		}
		done, other := count(games)
		wantTotal := 13
		if tc.ask == 0 {
			wantTotal = 0 // not counted when none is asked for
		}
		if total != wantTotal || done != tc.done || other != 2 {
			t.Fatalf("MyGames(ana, %d): %d finished and %d others of %d finished; want %d, 2 and %d", tc.ask, done, other, total, tc.done, wantTotal)
		}
		for _, g := range games {
			if UserSeat(g.Seats, ana.ID) < 0 {
				t.Fatalf("game %d is not ana's", g.Game.ID)
			}
		}
		if tc.ask == 10 {
			// The latest ten, latest first, after the unfinished ones.
			for i, g := range games[2:] {
				if want := finished[12-i]; g.Game.ID != want {
					t.Fatalf("finished game %d listed is %d, want %d", i, g.Game.ID, want)
				}
			}
		}
	}
}

// TestCommitKeepsItsRows: a commit keeps the game's rows as committed, so
// the next load reads none; the rows kept are the stored ones (checked by
// checkKeptRows): seen marks not yet written stay out of them, and a change
// to the rows between the commit's read and its write (a seat renamed)
// makes the commit keep nothing.
func TestCommitKeepsItsRows(t *testing.T) {
	s := MustOpen(t)
	kept := 0
	check := s.checkKept
	s.checkKept = func(g Game, seats []Seat) { kept++; check(g, seats) }
	ana, bob := mustUser(t, s, "ana"), mustUser(t, s, "bob")
	users := map[uint]*User{ana.ID: ana, bob.ID: bob}
	l := twoPlayerGame(t, s, ana, bob)
	move := func() { t.Helper(); l = playNext(t, s, l, users) }
	move()
	if kept != 1 {
		t.Fatalf("a commit kept rows %d times, want 1", kept)
	}
	if _, _, ok := s.rows.get(l.Game.ID, s.rows.gen(l.Game.ID)); !ok {
		t.Fatal("the next load reads the rows a commit just wrote")
	}
	// A seen mark waits in memory: the last flush is made recent.
	s.seen.mu.Lock()
	s.seen.flushed = time.Now().Add(time.Hour)
	s.seen.mu.Unlock()
	for i := 0; i < 2; i++ {
		if err := s.MarkSeen(mustLoad(t, s, l.Game.ID), 0); err != nil {
			t.Fatal(err)
		}
		move()
	}
	if len(s.seen.m) == 0 {
		t.Fatal("no seen mark waits in memory: the test checks nothing")
	}
	// A seat renamed after the commit's read.
	n := kept
	_, err := s.commit(l.Game.ID, -1, Actor{UserID: *l.Seats[l.Play.State().Current()].UserID}, func(c *Loaded, seat int, add func(LogEntry) error) error {
		if err := s.w.Exec(`UPDATE seats SET name = 'renamed' WHERE game_id = ? AND slot = 0`, c.Game.ID).Error; err != nil {
			return err
		}
		e, err := turnEntry(c, seat, engine.Move{Placement: c.Play.State().LegalPlacements(nil)[0]})
		if err != nil {
			return err
		}
		return add(e)
	})
	if err != nil {
		t.Fatal(err)
	}
	if kept != n {
		t.Fatal("a commit kept rows that changed after it read them")
	}
	if got := mustLoad(t, s, l.Game.ID); got.Seats[0].Name != "renamed" && got.Seats[1].Name != "renamed" {
		t.Fatal("the load after the commit shows the seat as it was")
	}
}

// TestSeeGameNotices: the notices of a game a user opened are marked read
// with the next flush of seen marks; those of other games and those that
// came after the opening are not. Until then UnreadAt, the count the
// game's pages show, leaves them out.
func TestSeeGameNotices(t *testing.T) {
	s := MustOpen(t)
	ana := mustUser(t, s, "ana")
	notice := func(game uint) {
		t.Helper()
		if err := s.w.Exec(`INSERT INTO notifications (user_id, game_id, kind, text, created_at) VALUES (?, ?, 'turn', 'x', ?)`, ana.ID, game, time.Now()).Error; err != nil {
			t.Fatal(err)
		}
	}
	unread := func(game uint) (n int) {
		t.Helper()
		if err := s.db.Raw(`SELECT count(*) FROM notifications WHERE user_id = ? AND game_id = ? AND read = false`, ana.ID, game).Row().Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	notice(7)
	notice(7)
	notice(8)
	s.seen.mu.Lock()
	s.seen.flushed = time.Now().Add(time.Hour) // no flush due: the test flushes
	s.seen.mu.Unlock()
	if here, err := s.SeeGameNotices(ana.ID, 7); err != nil || here != 1 {
		t.Fatalf("SeeGameNotices game 7 = %d, %v; want 1 (game 8's)", here, err)
	}
	if others, err := s.UnreadAt(ana.ID, 7, mustUserByID(t, s, ana.ID).Unread); err != nil || others != 1 {
		t.Fatalf("UnreadAt game 7 = %d, %v; want 1 (game 8's)", others, err)
	}
	notice(7) // after the opening: still news
	if unread(7) != 3 {
		t.Fatal("the notices were marked read before the flush")
	}
	if err := s.FlushSeen(); err != nil {
		t.Fatal(err)
	}
	if unread(7) != 1 || unread(8) != 1 {
		t.Fatalf("after the flush: %d unread of game 7 (want 1, the later one), %d of game 8 (want 1)", unread(7), unread(8))
	}
	if u := mustUserByID(t, s, ana.ID); u.Unread != 2 {
		t.Fatalf("the user's count is %d, want 2", u.Unread)
	}
	// Game 8 seen: until written, UnreadAt leaves its notice out; then the
	// stored count does.
	if here, err := s.SeeGameNotices(ana.ID, 8); err != nil || here != 1 || unread(8) != 1 {
		t.Fatalf("SeeGameNotices of game 8: %d, %v, %d unread; want 1 (game 7's), nil, 1 (not yet written)", here, err, unread(8))
	}
	if n, err := s.UnreadAt(ana.ID, 8, mustUserByID(t, s, ana.ID).Unread); err != nil || n != 1 {
		t.Fatalf("UnreadAt game 8 = %d, %v; want 1", n, err)
	}
	if n, err := s.UnreadAt(ana.ID, 7, mustUserByID(t, s, ana.ID).Unread); err != nil || n != 2 {
		t.Fatalf("UnreadAt game 7 (nothing waiting) = %d, %v; want the stored 2", n, err)
	}
	s.seen.mu.Lock()
	s.seen.flushed = time.Time{} // due
	s.seen.mu.Unlock()
	if err := s.FlushSeenIfDue(); err != nil || unread(8) != 0 {
		t.Fatalf("FlushSeenIfDue: %v, %d unread of game 8; want it written", err, unread(8))
	}
	if n, err := s.UnreadAt(ana.ID, 8, mustUserByID(t, s, ana.ID).Unread); err != nil || n != 1 {
		t.Fatalf("UnreadAt game 8 after the write = %d, %v; want 1", n, err)
	}
	if here, err := s.SeeGameNotices(ana.ID, 9); err != nil || here != 1 {
		t.Fatalf("SeeGameNotices of a game without notices: %d, %v; want 1", here, err)
	}
	if others, err := s.UnreadAt(ana.ID, 9, mustUserByID(t, s, ana.ID).Unread); err != nil || others != 1 {
		t.Fatalf("a game without notices: %d, %v; want 1", others, err)
	}
}

// TestNoticeMovesCachedCount: a commit whose only change to a user is a
// notice (and the reading of a game's notices) moves the user's unread count
// in the cache rather than dropping the user, so the user's next page
// reads nothing; checkKeptUsers checks the count against the database.
func TestNoticeMovesCachedCount(t *testing.T) {
	s := MustOpen(t)
	ana, bob := mustUser(t, s, "ana"), mustUser(t, s, "bob")
	users := map[uint]*User{ana.ID: ana, bob.ID: bob}
	l := twoPlayerGame(t, s, ana, bob)
	kept := func(id uint) (User, bool) {
		s.users.mu.Lock()
		defer s.users.mu.Unlock()
		u, ok := s.users.m[id]
		return u, ok
	}
	moved := 0
	for i := 0; i < 6; i++ {
		mustUserByID(t, s, ana.ID)
		mustUserByID(t, s, bob.ID)
		before := map[uint]int{ana.ID: mustUserByID(t, s, ana.ID).Unread, bob.ID: mustUserByID(t, s, bob.ID).Unread}
		l = playNext(t, s, l, users)
		for id, was := range before {
			u, ok := kept(id)
			if !ok {
				t.Fatalf("move %d dropped user %d from the cache", i, id)
			}
			if u.Unread != was {
				moved++
			}
		}
	}
	if moved == 0 {
		t.Fatal("no move changed a count: the test checks nothing")
	}
	// Whoever has news reads it: the count moves down in the cache.
	reader := ana
	if mustUserByID(t, s, bob.ID).Unread > 0 {
		reader = bob
	}
	if _, err := s.SeeGameNotices(reader.ID, l.Game.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.FlushSeen(); err != nil {
		t.Fatal(err)
	}
	if u, ok := kept(reader.ID); !ok || u.Unread != 0 {
		t.Fatalf("after reading %s is kept %v with %d unread, want 0", reader.Username, ok, u.Unread)
	}
}

// TestUnreadMovesOnlyWhenAllTold: a transaction that writes a notice and
// also changes the user otherwise, or that rolls back, does not move the
// cached count: the user is dropped, or left as stored (checkKeptUsers
// compares the cache with the database when the test ends).
func TestUnreadMovesOnlyWhenAllTold(t *testing.T) {
	s := MustOpen(t)
	ana := mustUser(t, s, "ana")
	mustUserByID(t, s, ana.ID) // kept
	err := s.w.Transaction(func(tx *gorm.DB) error {
		if err := s.notify(tx, ana.ID, 1, "turn", "It is your turn in game %d.", 1); err != nil {
			return err
		}
		return tx.Exec(`UPDATE users SET lang = 'fa' WHERE id = ?`, ana.ID).Error
	})
	if err != nil {
		t.Fatal(err)
	}
	if u := mustUserByID(t, s, ana.ID); u.Lang != "fa" || u.Unread != 1 {
		t.Fatalf("after a notice and a change of language ana is kept with %q and %d unread", u.Lang, u.Unread)
	}
	refused := errors.New("refused")
	err = s.w.Transaction(func(tx *gorm.DB) error {
		if err := s.notify(tx, ana.ID, 1, "turn", "It is your turn in game %d.", 1); err != nil {
			return err
		}
		return refused
	})
	if !errors.Is(err, refused) {
		t.Fatal(err)
	}
	if u := mustUserByID(t, s, ana.ID); u.Unread != 1 {
		t.Fatalf("a notice rolled back moved ana's count to %d", u.Unread)
	}
}

// TestUserHeldWhileCommitted: what a reader reads of a user whose change
// is being committed is not kept (it may already be the new row, which a
// bump would then move again); once the change is told, reads are kept.
func TestUserHeldWhileCommitted(t *testing.T) {
	var c users
	c.put(User{ID: 1, Unread: 5}, 0)
	c.hold([]uint{1, 2})
	_, _, gen := c.get(2)
	c.put(User{ID: 2, Unread: 6}, gen) // read after the commit, before done
	if _, ok, _ := c.get(2); ok {
		t.Fatal("a user read while its change was committed was kept")
	}
	c.drop(2) // a drop from elsewhere does not end the hold
	c.put(User{ID: 2, Unread: 6}, c.gen)
	if _, ok, _ := c.get(2); ok {
		t.Fatal("a drop from outside the writer ended the hold")
	}
	c.tell(1, true, 1)
	c.tell(2, true, 1)
	if u, ok, _ := c.get(1); !ok || u.Unread != 6 {
		t.Fatalf("the kept user's count was moved to %d (kept %v), want 6", u.Unread, ok)
	}
	_, _, gen = c.get(2)
	c.put(User{ID: 2, Unread: 6}, gen)
	if u, ok, _ := c.get(2); !ok || u.Unread != 6 {
		t.Fatal("a user read after the change was told was not kept")
	}
}

// TestSeeShownNotices: a page of a game at a version reads the game's
// notices only while the game is still at that version, so that a notice
// of a later move is not taken as seen.
func TestSeeShownNotices(t *testing.T) {
	s := MustOpen(t)
	ana, bob := mustUser(t, s, "ana"), mustUser(t, s, "bob")
	l := twoPlayerGame(t, s, ana, bob)
	users := map[uint]*User{ana.ID: ana, bob.ID: bob}
	s.seen.mu.Lock()
	s.seen.flushed = time.Now().Add(time.Hour) // no flush due: the test flushes
	s.seen.mu.Unlock()
	unread := func(u *User) (n int) {
		t.Helper()
		if err := s.FlushSeen(); err != nil {
			t.Fatal(err)
		}
		if err := s.db.Raw(`SELECT count(*) FROM notifications WHERE user_id = ? AND game_id = ? AND read = false`, u.ID, l.Game.ID).Row().Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// Play until someone has news of the game.
	var who *User
	for i := 0; i < 50 && who == nil; i++ {
		l = playNext(t, s, l, users)
		for _, u := range []*User{ana, bob} {
			if unread(u) > 0 {
				who = u
			}
		}
	}
	if who == nil {
		t.Fatal("nobody got a notice: the test checks nothing")
	}
	before := unread(who)
	if err := s.SeeShownNotices(who.ID, l.Game.ID, l.Game.Version-1); err != nil {
		t.Fatal(err)
	}
	if n := unread(who); n != before {
		t.Fatalf("a page of an earlier version read the game's notices: %d unread, were %d", n, before)
	}
	if err := s.SeeShownNotices(who.ID, l.Game.ID, l.Game.Version); err != nil {
		t.Fatal(err)
	}
	if n := unread(who); n != 0 {
		t.Fatalf("a page of the game as it is left %d of its notices unread", n)
	}
}
