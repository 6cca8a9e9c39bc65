package models

import (
	"errors"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"cacao/engine"
	"cacao/models/modeltest"
)

// MustOpen returns a fresh in-memory store (passwords at bcrypt's least
// cost, the bots seated) with opts.
func MustOpen(t testing.TB, opts ...Option) *Store {
	t.Helper()
	s, err := Open(modeltest.DB(t), append([]Option{WithPasswordCost(bcrypt.MinCost), WithBots("random", "greedy")}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
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
	games, _, _ := s.MyGames(ana.ID, 0, 10)
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
	s := MustOpen(t, WithDealer(func(n int) ([]int, int, engine.Setup) {
		su, _ := engine.NewSetup(n, 5)
		return []int{0, 1}, 0, su
	}))
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
	kinds := map[Kind]int{}
	choices := 0
	for _, u := range []*User{ana, bob} {
		ns, unread, err := s.Notifications(u.ID, 0, 500)
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
		if ns[0].Kind != "finished" || !strings.Contains(ns[0].Text, "you won") && !strings.Contains(ns[0].Text, "you share the win") && !strings.Contains(ns[0].Text, "you finished in place 2 of 2") {
			t.Fatalf("%s's last notification: %+v", u.Username, ns[0])
		}
		if err := s.MarkRead(u.ID, ns[0].ID); err != nil {
			t.Fatal(err)
		}
		if _, unread, _ := s.Notifications(u.ID, 0, 1); unread != 0 {
			t.Fatal("mark read left unread notifications")
		}
	}
	// Every one of the 22 turns falls in a wait that began with a "turn" or a
	// "reaction" notification; a turn that comes with a choice says so.
	if kinds["started"] != 2 || kinds["finished"] != 2 || kinds["turn"]+kinds["reaction"] < 22 || choices == 0 {
		t.Fatalf("notification kinds %v, %d about choices: want 2 started, 2 finished, a wait notice for each of 22 turns, at least one about a choice", kinds, choices)
	}
}

// TestLoadSeesEveryWrite: a load after any write to the game's row or a
// seat, by whatever statement, sees it, though the game's position is kept
// between loads.
func TestLoadSeesEveryWrite(t *testing.T) {
	s := MustOpen(t)
	ana, bob := mustUser(t, s, "ana"), mustUser(t, s, "bob")
	l := twoPlayerGame(t, s, ana, bob)
	twoPlayerGame(t, s, ana, bob) // the game a seat moves to
	g := &l.Game
	if again, _ := s.LoadGame(g.ID); again.Game.Version != g.Version || again.Seats[0].Name != l.Seats[0].Name {
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
	}
	// The copy a load hands out is its own.
	l, _ = s.LoadGame(g.ID)
	l.Seats[0].Name = "scribbled"
	if again, _ := s.LoadGame(g.ID); again.Seats[0].Name == "scribbled" {
		t.Fatal("a change to a loaded seat reached the next load")
	}
}

// TestUnreadCountKept: the unread count a page shows follows every change
// to the notifications, by whatever statement, and is counted afresh when
// the database is opened again.
func TestUnreadCountKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "unread.db")
	s, err := Open(path, WithPasswordCost(bcrypt.MinCost))
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
	s.Close()
	if s, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := count(s); got != 1 {
		t.Fatalf("%d unread after opening again, want 1", got)
	}
	if err := s.MarkRead(ana.ID, math.MaxUint32); err != nil {
		t.Fatal(err)
	}
	if got := count(s); got != 0 {
		t.Fatalf("%d unread after marking all read", got)
	}
}

// TestMyGamesPaged: my unfinished games come a page at a time, those
// waiting on me first (the longest waiting first), then the others, most
// recently changed first, with how many there are in all; my finished
// games likewise, latest first. Nobody else's game is listed.
func TestMyGamesPaged(t *testing.T) {
	s := MustOpen(t)
	ana, bob := mustUser(t, s, "ana"), mustUser(t, s, "bob")
	var finished []uint
	for i := 0; i < 48; i++ {
		g, err := s.CreateGame(ana, GameSpec{Seats: []string{"greedy"}})
		if err != nil {
			t.Fatal(err)
		}
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour)
		if i < 13 {
			// Finished one after another, the first made the longest ago.
			if err := s.w.Exec(`UPDATE games SET status = ?, updated_at = ?, finished_at = ? WHERE id = ?`, StatusFinished, at, at, g.ID).Error; err != nil {
				t.Fatal(err)
			}
			finished = append(finished, g.ID)
			continue
		}
		// Waited on since an hour of its own (the deal decides on whom).
		if err := s.w.Exec(`UPDATE seats SET waiting_since = ? WHERE game_id = ? AND waiting_since IS NOT NULL`, at.Add(-time.Duration(2*i)*time.Hour), g.ID).Error; err != nil {
			t.Fatal(err)
		}
		if err := s.w.Exec(`UPDATE games SET updated_at = ? WHERE id = ?`, at, g.ID).Error; err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.CreateGame(bob, GameSpec{Seats: []string{"greedy"}}); err != nil { // not ana's
		t.Fatal(err)
	}
	var all []GameSummary
	for from := 0; from < 40; from += 30 {
		page, total, err := s.MyGames(ana.ID, from, 30)
		if err != nil || total != 35 || len(page) != min(30, 35-from) {
			t.Fatalf("MyGames(ana, %d, 30): %d games of %d, %v", from, len(page), total, err)
		}
		all = append(all, page...)
	}
	seen := map[uint]bool{}
	waiting := 0
	for i, g := range all {
		if seen[g.Game.ID] || UserSeat(g.Seats, ana.ID) < 0 || g.Game.Status == StatusFinished {
			t.Fatalf("game %d listed twice, or not ana's, or finished", g.Game.ID)
		}
		seen[g.Game.ID] = true
		if g.WaitingOnMe {
			waiting++
		}
		if i == 0 {
			continue
		}
		p := all[i-1]
		switch {
		case g.WaitingOnMe && !p.WaitingOnMe:
			t.Fatalf("game %d, waiting on ana, comes after game %d, which is not", g.Game.ID, p.Game.ID)
		case g.WaitingOnMe && g.WaitingSince.Before(*p.WaitingSince):
			t.Fatalf("game %d has waited longer than game %d, listed before it", g.Game.ID, p.Game.ID)
		case !g.WaitingOnMe && !p.WaitingOnMe && g.Game.UpdatedAt.After(p.Game.UpdatedAt):
			t.Fatalf("game %d changed later than game %d, listed before it", g.Game.ID, p.Game.ID)
		}
	}
	if waiting == 0 || waiting == len(all) {
		t.Fatalf("%d of %d games wait on ana: the test needs both kinds", waiting, len(all))
	}
	for _, tc := range []struct{ from, limit, n int }{{0, 10, 10}, {10, 10, 3}, {20, 10, 0}} {
		page, total, err := s.MyFinished(ana.ID, HistoryFilter{}, tc.from, tc.limit)
		if err != nil || total != 13 || len(page) != tc.n {
			t.Fatalf("MyFinished(ana, %d, %d): %d games of %d, %v", tc.from, tc.limit, len(page), total, err)
		}
		for i, g := range page {
			if want := finished[12-tc.from-i]; g.Game.ID != want {
				t.Fatalf("finished game %d listed is %d, want %d", tc.from+i, g.Game.ID, want)
			}
		}
	}
}

// TestSeeGameNotices: opening a game marks read the notices of it counted
// before it was loaded; those of other games and those that come after stay
// unread, and the header's count is of the others.
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
	open := func(game uint, late func()) GameNotices {
		t.Helper()
		n, err := s.NoticesAt(ana.ID, game)
		if err != nil {
			t.Fatal(err)
		}
		late()
		if err := s.SeeGame(&Loaded{Game: Game{ID: game}}, -1, ana.ID, n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	notice(7)
	notice(7)
	notice(8)
	// A notice that comes while the page is made is news still.
	if n := open(7, func() { notice(7) }); n.All != 3 || n.Here != 2 {
		t.Fatalf("opening game 7 counted %+v; want 3 unread, 2 of game 7", n)
	}
	if unread(7) != 1 || unread(8) != 1 {
		t.Fatalf("after opening game 7: %d unread of it (want 1, the later one), %d of game 8 (want 1)", unread(7), unread(8))
	}
	if n := open(9, func() {}); n.All != 2 || n.Here != 0 || unread(7) != 1 || unread(8) != 1 {
		t.Fatalf("opening a game without notices: counted %+v, %d and %d unread of games 7 and 8; want 2, 0, 1 and 1", n, unread(7), unread(8))
	}
	if got, _ := s.Unread(ana.ID); got != 2 {
		t.Fatalf("the count is %d, want 2", got)
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
	unread := func(u *User) (n int) {
		t.Helper()
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
