package models_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"cacao/models"
)

// TestCountsHoldAtOnce: what the store counts in a transaction before it
// adds one more (a player's open tables and invitations of the day, the
// invitations a player receives, an address's confirmation mails, names
// that look alike, the players one follows, one's devices) holds when many ask at once, on either backend.
func TestCountsHoldAtOnce(t *testing.T) {
	s := models.MustOpen(t)
	bob, cyd := models.MustUser(t, s, "bob"), models.MustUser(t, s, "cyd")
	var people []string
	for i := range 45 {
		people = append(people, models.MustUser(t, s, fmt.Sprintf("player%d", i)).Username)
	}
	made := atOnce(t, 30, func(int) error {
		_, err := s.CreateGame(bob, models.GameSpec{Seats: []string{models.SeatOpen}})
		return refused(err, models.ErrTooManyTables)
	})
	if made != models.MaxOpenTables {
		t.Errorf("30 tables opened at once: %d made; want %d", made, models.MaxOpenTables)
	}
	invite := func(i int) (*models.Game, error) {
		return s.CreateGame(cyd, models.GameSpec{Seats: []string{"@" + people[3*i], "@" + people[3*i+1], "@" + people[3*i+2]}})
	}
	for i := range models.MaxInvitesPerDay/3 - 1 { // all but the day's last three, on tables cancelled since
		g, err := invite(i)
		if err == nil {
			err = s.CancelTable(g.ID, cyd)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	made = atOnce(t, 5, func(i int) error {
		_, err := invite(10 + i)
		return refused(err, models.ErrTooManyInvites)
	})
	if made != 1 {
		t.Errorf("5 tables of 3 invitations at once, with 3 left for the day: %d made; want 1", made)
	}
	const received = 20 // what one player takes a day from players they do not know
	made = atOnce(t, 25, func(i int) error {
		u, err := s.UserNamed(people[20+i])
		if err != nil {
			return err
		}
		_, err = s.CreateGame(u, models.GameSpec{Seats: []string{"@bob"}})
		return refused(err, models.ErrInvitedEnough)
	})
	if made != received {
		t.Errorf("25 players invite one at once: %d invitations made; want %d", made, received)
	}
	made = atOnce(t, 10, func(i int) error {
		u, err := s.UserNamed(people[i])
		if err != nil {
			return err
		}
		_, err = s.SetEmail(u.ID, "stranger@example.test", models.MailEach)
		return refused(err, models.ErrTooManyToAddress)
	})
	if made != models.MaxConfirmationsPerAddress {
		t.Errorf("10 confirmations to one address at once: %d sent; want %d", made, models.MaxConfirmationsPerAddress)
	}
	var follows []models.Follow // cyd follows all but five she may
	for i := range models.MaxFollows - 5 {
		follows = append(follows, models.Follow{UserID: cyd.ID, FollowedID: uint(100000 + i)})
	}
	if err := models.DB(s).CreateInBatches(follows, 100).Error; err != nil {
		t.Fatal(err)
	}
	made = atOnce(t, 15, func(i int) error {
		return refused(s.FollowUser(cyd, people[i]), models.ErrFollowMany)
	})
	if made != 5 {
		t.Errorf("15 follows at once, with 5 left: %d made; want 5", made)
	}
	made = atOnce(t, 15, func(i int) error {
		key := "B" + strings.Repeat("A", 86) // 65 bytes, starting 0x04
		err := s.AddPushSub(bob.ID, models.PushSub{Endpoint: fmt.Sprintf("https://push.example.org/%d", i), P256dh: key, Auth: strings.Repeat("A", 22)})
		return refused(err, models.ErrTooManyDevices)
	})
	if made != models.MaxPushDevices {
		t.Errorf("15 devices at once: %d registered; want %d", made, models.MaxPushDevices)
	}
	names := []string{"alice", "aIice", "a1ice", "AIice", "Alice", "A1ice"}
	made = atOnce(t, len(names), func(i int) error {
		_, err := s.CreateUser(names[i], "password-x1")
		if errors.Is(err, models.ErrUsernameLookalike) {
			return errSkip
		}
		return refused(err, models.ErrUsernameTaken)
	})
	if made != 1 {
		t.Errorf("%d look-alike names signed up at once: %d made; want 1", len(names), made)
	}
}

// atOnce runs f(0…n-1) at once and counts the runs that returned nil; a
// run that returned errSkip is not counted, any other error fails t.
func atOnce(t *testing.T, n int, f func(i int) error) int {
	t.Helper()
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for i := range n {
		wg.Go(func() {
			err := f(i)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, errSkip):
				t.Error(err)
			}
		})
	}
	wg.Wait()
	return ok
}

// idsAtOnce runs run n times at once and returns the ids each made (in
// the order of the runs); an error fails t.
func idsAtOnce(t *testing.T, n int, run func() (uint, error)) []uint {
	t.Helper()
	ids := make([]uint, n)
	atOnce(t, n, func(i int) error {
		var err error
		ids[i], err = run()
		return err
	})
	return ids
}

var errSkip = errors.New("refused as expected")

// refused is errSkip for want, err otherwise.
func refused(err, want error) error {
	if errors.Is(err, want) {
		return errSkip
	}
	return err
}

// TestCancelAndJoinAtOnce: a table cancelled while a player joins it is
// either cancelled with them told, or joined and not cancelled: never
// cancelled behind the back of one who sat down, on either backend.
func TestCancelAndJoinAtOnce(t *testing.T) {
	s := models.MustOpen(t)
	ana, bob, cyd := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "cyd")
	for round := range 20 {
		// Four seats: after bob's and cyd's joins the table is still open.
		g, err := s.CreateGame(ana, models.GameSpec{Seats: []string{models.SeatOpen, models.SeatOpen, models.SeatOpen}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Join(g.ID, "", bob); err != nil {
			t.Fatal(err)
		}
		var cancelErr, joinErr error
		atOnce(t, 2, func(i int) error {
			if i == 0 {
				cancelErr = s.CancelTable(g.ID, ana)
			} else {
				_, joinErr = s.Join(g.ID, "", cyd)
			}
			return nil
		})
		told := 0
		if ns, _, err := s.Notifications(cyd.ID, 0, -1); err == nil {
			for _, n := range ns {
				if n.GameID == g.ID && n.Kind == models.KindCancelled {
					told++
				}
			}
		}
		_, loadErr := s.LoadGame(g.ID)
		switch {
		case cancelErr == nil && joinErr == nil && told != 1:
			t.Fatalf("round %d: cyd joined the table ana cancelled, told %d times", round, told)
		case cancelErr == nil && !errors.Is(loadErr, models.ErrNotFound):
			t.Fatalf("round %d: the cancelled table is still there (%v)", round, loadErr)
		case cancelErr != nil && !errors.Is(cancelErr, models.ErrConflict):
			t.Fatalf("round %d: the cancel: %v", round, cancelErr)
		}
		if cancelErr != nil {
			if err := s.CancelTable(g.ID, ana); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestFormMakesOneTable: the same new-table form sent again, or five
// times at once, makes one table, and each sending gets it; another form
// makes another; a key is its creator's alone. A tournament's form alike.
func TestFormMakesOneTable(t *testing.T) {
	s := models.MustOpen(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	spec := models.GameSpec{Seats: []string{models.SeatOpen}, FormKey: "k1"}
	ids := idsAtOnce(t, 5, func() (uint, error) {
		g, err := s.CreateGame(ana, spec)
		if err != nil {
			return 0, err
		}
		return g.ID, nil
	})
	if ids[0] == 0 || slices.ContainsFunc(ids, func(id uint) bool { return id != ids[0] }) {
		t.Fatalf("one form sent five times at once made tables %v", ids)
	}
	g, err := s.CreateGame(ana, spec)
	if err != nil || g.ID != ids[0] || g.Status != models.StatusOpen || len(g.Seats) != 2 {
		t.Fatalf("the form sent again: %+v, %v; want table %d", g, err, ids[0])
	}
	spec.FormKey = "k2"
	other, err := s.CreateGame(ana, spec)
	if err != nil || other.ID == ids[0] {
		t.Fatalf("another form: %+v, %v", other, err)
	}
	spec.FormKey = "k1"
	mine, err := s.CreateGame(bob, spec)
	if err != nil || mine.ID == ids[0] || mine.CreatorID != bob.ID {
		t.Fatalf("bob's form of the same key: %+v, %v", mine, err)
	}
	if _, total, _ := s.MyGames(ana.ID, 0, 10); total != 2 {
		t.Fatalf("ana has %d tables; want 2", total)
	}
	// A tournament's form too.
	tour := models.TourSpec{Name: "Ana's cup", Format: models.Swiss, TurnHours: 24, RoundDays: 7, SignupDays: 1, Rounds: 2, MaxPlayers: 4, Private: true, Invite: []string{"bob"}, FormKey: "t1"}
	tids := idsAtOnce(t, 3, func() (uint, error) {
		tt, err := s.CreateTournament(ana, tour)
		if err != nil {
			return 0, err
		}
		return tt.ID, nil
	})
	if tids[0] == 0 || tids[1] != tids[0] || tids[2] != tids[0] {
		t.Fatalf("one tournament form sent three times at once opened %v", tids)
	}
	if l, err := s.Tournaments(ana); err != nil || len(l.Signup) != 1 {
		t.Fatalf("ana's tournaments: %+v (%v)", l, err)
	}
}
