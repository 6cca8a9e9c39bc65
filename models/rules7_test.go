package models_test

import (
	"cacao/models"
	"cacao/models/autoplay"
	"reflect"
	"strings"
	"testing"
	"time"

	"cacao/engine"
	"cacao/models/modeltest"
)

// Tests of the rules' "Time limits and vacations" (views/rules/en.html) as
// the site applies them: a choice's deadline in
// a game without a turn limit, and the standing policy "always decide for me".

// playUntil plays games of users with a turn limit of turnHours (a fresh
// deal each; every player makes their choices with the defaults when it is
// their turn, and places a random legal tile) until found returns a seat,
// and returns the game there. Each commit takes a minute of the clock.
func playUntil(t *testing.T, s *models.Store, clock *modeltest.Clock, users []*models.User, turnHours int, found func(*models.Loaded) int) *models.Loaded {
	t.Helper()
	open := make([]string, len(users)-1)
	for i := range open {
		open[i] = models.SeatOpen
	}
	for seed := uint64(1); seed <= 30; seed++ {
		dealFrom(t, s, seed)
		g, err := s.CreateGame(users[0], models.GameSpec{Seats: open, TurnHours: turnHours})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range users[1:] {
			if _, err := s.Join(g.ID, "", u); err != nil {
				t.Fatal(err)
			}
		}
		r := engine.NewRand(seed)
		for step := 0; step < 300; step++ {
			l := mustLoad(t, s, g.ID)
			if found(l) >= 0 {
				return l
			}
			if l.Game.Status != models.StatusActive {
				break
			}
			clock.Advance(time.Minute)
			playStep(t, s, l, r)
		}
	}
	t.Fatal("no position found in 30 games")
	return nil
}

// playStep makes one change in game l: the pending choice of the player to
// move (of anyone, once the game is over) with the defaults, else a random
// legal placement.
func playStep(t *testing.T, s *models.Store, l *models.Loaded, r *engine.Rand) {
	t.Helper()
	st := l.Play.State()
	seat := st.Current()
	if st.Over() {
		for i := range l.Seats {
			if len(st.Player(i).Queue()) > 0 {
				seat = i
			}
		}
	}
	actor := models.Actor{UserID: *l.Seats[seat].UserID}
	var err error
	if len(st.Player(seat).Queue()) > 0 {
		_, err = s.CommitResolve(l.Game.ID, l.Game.Version, actor, nil)
	} else {
		legal := st.LegalPlacements(nil)
		_, err = s.CommitTurn(l.Game.ID, l.Game.Version, actor, engine.Move{Placement: legal[r.Intn(len(legal))]})
	}
	if err != nil {
		t.Fatal(err)
	}
}

// bestFor returns seat's village after the best-value choice is applied to
// every batch in its queue in game l (on a copy).
func bestFor(t *testing.T, l *models.Loaded, seat int) engine.Player {
	t.Helper()
	g := l.Play.Clone()
	for len(g.State().Player(seat).Queue()) > 0 {
		if _, err := g.ResolveBest(seat); err != nil {
			t.Fatal(err)
		}
	}
	return *g.State().Player(seat)
}

func sameVillage(a, b engine.Player) bool {
	return a.Gold == b.Gold && a.Fruit == b.Fruit && a.Sun == b.Sun && a.Water == b.Water
}

// waitingHolder is the seat, other than the player to move, with a choice
// waiting, or -1.
func waitingHolder(l *models.Loaded) int {
	st := l.Play.State()
	for i := range l.Seats {
		if i != st.Current() && len(st.Player(i).Queue()) > 0 {
			return i
		}
	}
	return -1
}

// onlyWaiting is the only seat with a choice waiting, when it is not the
// player to move in an active game, or -1.
func onlyWaiting(l *models.Loaded) int {
	st := l.Play.State()
	holder := -1
	for i := range l.Seats {
		if len(st.Player(i).Queue()) > 0 {
			if holder >= 0 {
				return -1
			}
			holder = i
		}
	}
	if l.Game.Status != models.StatusActive || holder == st.Current() {
		return -1
	}
	return holder
}

// TestNoLimitChoiceTimesOut: in a game without a turn limit, a choice
// waiting for a player who is not to move has 3 days from when it reached
// the head of the queue, with a reminder a day before; then the greedy
// bot's best-value choice is made for them, marked as a timeout, and
// nothing else is played. The turn of the player to move has no clock.
func TestNoLimitChoiceTimesOut(t *testing.T) {
	s, clock := openClocked(t)
	users := []*models.User{models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "carl")}
	l := playUntil(t, s, clock, users, 0, onlyWaiting)
	holder, cur := onlyWaiting(l), l.Play.State().Current()
	seat := l.Seats[holder]
	if seat.WaitingSince == nil {
		t.Fatalf("the seat with a choice is not waited on: %+v", seat)
	}
	since := *seat.WaitingSince
	wantTime(t, "the choice's deadline", seat.Deadline, since.Add(72*time.Hour))
	wantTime(t, "the choice's reminder", seat.RemindAt, since.Add(48*time.Hour))
	if d := l.Seats[cur].Deadline; d != nil && len(l.Play.State().Player(cur).Queue()) == 0 {
		t.Fatalf("the turn of seat %d has a deadline (%v) in a game without a limit", cur, d)
	}
	want := bestFor(t, l, holder)

	clock.Advance(since.Add(48 * time.Hour).Sub(clock.Now()))
	clock.Advance(-time.Minute)
	if n := mustRemind(t, s); n != 0 {
		t.Fatalf("%d reminders before the reminder time", n)
	}
	clock.Advance(time.Minute)
	if n := mustRemind(t, s); n != 1 {
		t.Fatalf("%d reminders a day before the choice's deadline; want 1", n)
	}
	if ns := notesOf(t, s, *seat.UserID, "reminder"); len(ns) != 1 || !strings.Contains(ns[0].Text, "about 24 hours") {
		t.Fatalf("the reminder: %+v", ns)
	}
	clock.Advance(24*time.Hour - time.Minute)
	if n := mustTimeouts(t, s); n != 0 {
		t.Fatalf("%d timeouts a minute before the choice's deadline", n)
	}
	clock.Advance(time.Minute)
	if n := mustTimeouts(t, s); n != 1 {
		t.Fatalf("%d timeouts at the choice's deadline; want 1", n)
	}
	after := mustLoad(t, s, l.Game.ID)
	added := after.Events[len(l.Events):]
	if len(added) == 0 || after.Game.Version != l.Game.Version+1 {
		t.Fatalf("the timeout made %d entries in %d commits; want some in one", len(added), after.Game.Version-l.Game.Version)
	}
	for _, ev := range added {
		if !ev.Timeout || ev.Seat != holder || ev.Kind != models.LogResolve {
			t.Fatalf("entry %+v: want only timeout resolutions of seat %d's choices", ev, holder)
		}
	}
	ast := after.Play.State()
	if len(ast.Player(holder).Queue()) != 0 || ast.Turns() != l.Play.State().Turns() || ast.Current() != cur {
		t.Fatalf("after the timeout: %d choices left, %d turns, seat %d to move; want only the choices made", len(ast.Player(holder).Queue()), ast.Turns(), ast.Current())
	}
	if got := *ast.Player(holder); !sameVillage(got, want) {
		t.Fatalf("the timeout left seat %d with %+v; the best-value choice gives %+v", holder, got, want)
	}
	if after.Seats[holder].WaitingSince != nil || after.Seats[holder].Deadline != nil {
		t.Fatalf("the seat whose choice was made still has a clock: %+v", after.Seats[holder])
	}
	if ns := notesOf(t, s, *seat.UserID, "timeout"); len(ns) != 1 || !strings.HasPrefix(ns[0].Text, "Your time ran out") {
		t.Fatalf("the player whose choice ran out of time was told %+v", ns)
	}

	// The player to move has no clock however long they take.
	clock.Advance(30 * 24 * time.Hour)
	if n := mustTimeouts(t, s); n != 0 {
		t.Fatalf("%d timeouts of a turn in a game without a limit", n)
	}
	if again := mustLoad(t, s, l.Game.ID); again.Game.Version != after.Game.Version || again.Seats[cur].Deadline != nil {
		t.Fatalf("a turn in a game without a limit ran out of time: version %d, deadline %v", again.Game.Version, again.Seats[cur].Deadline)
	}
}

// TestNoLimitTurnAndChoice: in a game without a turn limit, when a choice
// waits for the player to move, only the choice has a deadline (3 days);
// its timeout makes the choice and leaves the turn to the player, whose
// seat then waits without a deadline.
func TestNoLimitTurnAndChoice(t *testing.T) {
	s, clock := openClocked(t)
	users := []*models.User{models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")}
	l := playUntil(t, s, clock, users, 0, func(l *models.Loaded) int {
		if cur := l.Play.State().Current(); l.Game.Status == models.StatusActive && len(l.Play.State().Player(cur).Queue()) > 0 {
			return cur
		}
		return -1
	})
	holder := l.Play.State().Current()
	seat := l.Seats[holder]
	wantTime(t, "the choice's deadline", seat.Deadline, seat.WaitingSince.Add(72*time.Hour))
	want := bestFor(t, l, holder)

	clock.Advance(seat.Deadline.Sub(clock.Now()) + time.Minute)
	if n := mustTimeouts(t, s); n != 1 {
		t.Fatalf("%d timeouts after the choice's deadline; want 1", n)
	}
	after := mustLoad(t, s, l.Game.ID)
	for _, ev := range after.Events[len(l.Events):] {
		if !ev.Timeout || ev.Seat != holder || ev.Kind != models.LogResolve {
			t.Fatalf("entry %+v: want only the choices made, not the turn", ev)
		}
	}
	ast := after.Play.State()
	if ast.Turns() != l.Play.State().Turns() || ast.Current() != holder || len(ast.Player(holder).Queue()) != 0 {
		t.Fatalf("after the timeout: %d turns, seat %d to move, %d choices left; want the choices made and the turn left",
			ast.Turns(), ast.Current(), len(ast.Player(holder).Queue()))
	}
	if got := *ast.Player(holder); !sameVillage(got, want) {
		t.Fatalf("the timeout left %+v; the best-value choice gives %+v", got, want)
	}
	if st := after.Seats[holder]; st.WaitingSince == nil || st.Deadline != nil || st.RemindAt != nil {
		t.Fatalf("after its choice timed out the seat is %+v; want waited on for its turn, without a deadline", st)
	}
	clock.Advance(30 * 24 * time.Hour)
	if n := mustTimeouts(t, s); n != 0 {
		t.Fatalf("the turn timed out (%d) in a game without a limit", n)
	}
	if n := mustRemind(t, s); n != 0 {
		t.Fatalf("%d reminders of a turn in a game without a limit", n)
	}
	if again := mustLoad(t, s, l.Game.ID); again.Game.Version != after.Game.Version {
		t.Fatal("the turn was played for the player in a game without a limit")
	}
}

// TestNoLimitChoiceKeepsItsDeadlineWhenTheTurnComes: a choice's deadline
// counts from when it reached the head of the queue; the player's turn
// coming meanwhile does not restart it (there is no turn clock to restart
// in a game without a limit). A vacation moves it like any deadline.
func TestNoLimitChoiceKeepsItsDeadlineWhenTheTurnComes(t *testing.T) {
	s, clock := openClocked(t)
	users := []*models.User{models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "carl")}
	l := playUntil(t, s, clock, users, 0, func(l *models.Loaded) int {
		st := l.Play.State()
		if st.Over() {
			return -1
		}
		if next := (st.Current() + 1) % st.Players(); onlyWaiting(l) == next {
			return next
		}
		return -1
	})
	holder := (l.Play.State().Current() + 1) % len(l.Seats)
	deadline := *l.Seats[holder].Deadline
	user := *l.Seats[holder].UserID

	clock.Advance(5 * time.Hour)
	playStep(t, s, l, engine.NewRand(9)) // the player before moves: the holder's turn
	l = mustLoad(t, s, l.Game.ID)
	if l.Play.State().Current() != holder {
		t.Fatalf("seat %d to move; want %d", l.Play.State().Current(), holder)
	}
	wantTime(t, "the choice's deadline once the turn came", l.Seats[holder].Deadline, deadline)
	if ns := notesOf(t, s, user, "turn"); len(ns) == 0 || !strings.Contains(ns[0].Text, "It is your turn") {
		t.Fatalf("the player was not told of the turn: %+v", ns)
	}

	// A day of vacation moves the deadline by a day.
	if _, err := s.StartVacation(user, 1); err != nil {
		t.Fatal(err)
	}
	wantTime(t, "the choice's deadline during a vacation", mustLoad(t, s, l.Game.ID).Seats[holder].Deadline, deadline.Add(24*time.Hour))
	clock.Advance(deadline.Sub(clock.Now()) + time.Minute)
	if n := mustTimeouts(t, s); n != 0 {
		t.Fatalf("%d timeouts during a vacation", n)
	}
	clock.Advance(24 * time.Hour)
	if n := mustTimeouts(t, s); n < 1 { // another seat's choice made by the turn may be due too
		t.Fatalf("%d timeouts after the moved deadline; want the holder's", n)
	}
	after := mustLoad(t, s, l.Game.ID)
	if st := after.Play.State(); st.Current() != holder || st.Turns() != l.Play.State().Turns() || len(st.Player(holder).Queue()) != 0 {
		t.Fatal("the timeout did more than make the choice")
	}
	if after.Seats[holder].Deadline != nil {
		t.Fatalf("the turn kept a deadline after the choice was made: %v", after.Seats[holder].Deadline)
	}
}

// autoEntries returns the resolutions of game l's log made for seat in a
// commit made by someone else or on a policy (not by the seat's player
// resolving through CommitResolve, not a timeout): for this test's games
// every resolution of the auto-deciding seat.
func autoEntries(l *models.Loaded, seat int) []models.LogEntry {
	var out []models.LogEntry
	for _, e := range l.Log {
		if e.Kind == models.LogResolve && e.Seat == seat && !e.Timeout {
			out = append(out, e)
		}
	}
	return out
}

// checkBest checks that each resolution entry of seat in l is the
// best-value choice of the batch it resolved, that the engine record
// holds it explicitly, and that the record replays to the position of the
// log.
func checkBest(t *testing.T, l *models.Loaded, entries []models.LogEntry) {
	t.Helper()
	rec := l.Play.Record()
	for _, e := range entries {
		before := &models.Loaded{Game: l.Game, Seats: l.Seats, Log: l.Log[:e.Seq]}
		if err := models.ReplayLog(before); err != nil {
			t.Fatal(err)
		}
		p := before.Play.State().Player(e.Seat)
		if len(p.Queue()) == 0 {
			t.Fatalf("entry %d resolves nothing", e.Seq)
		}
		acts, err := engine.UnmarshalActs([]byte(e.Data))
		if err != nil {
			t.Fatal(err)
		}
		if best := engine.BestActs(*p, p.Queue()[0].Edges); !reflect.DeepEqual(acts, best) {
			t.Fatalf("entry %d chose %+v; the best-value choice is %+v", e.Seq, acts, best)
		}
		if got, ok := rec.Turns[e.Turn].Move.Reactions[e.Seat]; !ok || !reflect.DeepEqual(got, acts) {
			t.Fatalf("the record of turn %d holds %+v (%v) for seat %d; want the resolution %+v", e.Turn, got, ok, e.Seat, acts)
		}
	}
	data, err := rec.Encode()
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := engine.DecodeRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	st, err := engine.Replay(decoded)
	if err != nil {
		t.Fatal(err)
	}
	for i := range l.Seats {
		want := *l.Play.State().Player(i)
		if len(want.Queue()) > 0 {
			continue // pending: the record does not hold it yet
		}
		if got := *st.Player(i); !sameVillage(got, want) {
			t.Fatalf("the record replays seat %d to %+v; the log gives %+v", i, got, want)
		}
	}
}

// TestAutoDecideResolvesAtOnce: a player whose standing policy is "always
// decide for me" never has a choice waiting: each batch of theirs that
// needs a decision is resolved with the best-value choice in the commit
// that made it, as an explicit log entry credited to them (not a timeout),
// which the game's record holds and replays; they are never told a choice
// waits.
func TestAutoDecideResolvesAtOnce(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob, carl := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "carl")
	if err := s.SetAutoDecide(bob.ID, true); err != nil {
		t.Fatal(err)
	}
	if !mustUserByID(t, s, bob.ID).AutoDecide {
		t.Fatal("the policy was not stored")
	}
	var entries []models.LogEntry
	l := playUntil(t, s, clock, []*models.User{ana, bob, carl}, 0, func(l *models.Loaded) int {
		bs := l.SeatOf(bob.ID)
		if n := len(l.Play.State().Player(bs).Queue()); n > 0 {
			t.Fatalf("a choice waits for bob, who wants his choices made for him (%d batches)", n)
		}
		if l.Game.Status == models.StatusFinished {
			if entries = autoEntries(l, bs); len(entries) > 0 {
				return bs
			}
		}
		return -1
	})
	bs := l.SeatOf(bob.ID)
	for _, e := range entries {
		if e.UserID == nil || *e.UserID != bob.ID {
			t.Fatalf("entry %d, bob's resolution, is credited to %v", e.Seq, e.UserID)
		}
		// Made in the commit of someone else's turn.
		same := false
		for _, o := range l.Log {
			same = same || o.Version == e.Version && o.Kind == models.LogTurn && o.Seat != bs
		}
		if !same {
			t.Fatalf("entry %d was not made in the commit of the turn that activated bob's workers", e.Seq)
		}
	}
	checkBest(t, l, entries)
	if l.Play.State().Player(bs).AutoDecide {
		t.Fatal("the engine's own policy is on: replays would depend on a setting, not on the log")
	}
	if ns := notesOf(t, s, bob.ID, "reaction"); len(ns) != 0 {
		t.Fatalf("bob was told a choice waits: %+v", ns)
	}
	for _, n := range notesOf(t, s, bob.ID, "turn") {
		if strings.Contains(n.Text, "a choice is waiting") {
			t.Fatalf("bob was told a choice waits: %q", n.Text)
		}
	}
}

// TestAutoDecideTurnedOnWhileWaiting: turning the policy on resolves at
// once the choices already waiting for the player, in one commit per
// game, with the best-value choice; the seat stops being waited on.
// Turned off, the next choice waits for the player again.
func TestAutoDecideTurnedOnWhileWaiting(t *testing.T) {
	s, clock := openClocked(t)
	users := []*models.User{models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "carl")}
	early := func(l *models.Loaded) int { // early, so that more choices come after
		if l.Play.State().Turns() > 8 {
			return -1
		}
		return waitingHolder(l)
	}
	l := playUntil(t, s, clock, users, 24, early)
	holder := waitingHolder(l)
	user := *l.Seats[holder].UserID
	mustUserByID(t, s, user) // cached: the setting must drop it
	if err := s.SetAutoDecide(user, true); err != nil {
		t.Fatal(err)
	}
	if !mustUserByID(t, s, user).AutoDecide {
		t.Fatal("the policy is not seen after it was set")
	}
	after := mustLoad(t, s, l.Game.ID)
	if after.Game.Version != l.Game.Version+1 {
		t.Fatalf("turning the policy on made %d commits; want 1", after.Game.Version-l.Game.Version)
	}
	added := after.Log[len(l.Log):]
	if len(added) == 0 {
		t.Fatal("the waiting choice was not resolved")
	}
	for _, e := range added {
		if e.Kind != models.LogResolve || e.Seat != holder || e.Timeout || e.UserID == nil || *e.UserID != user {
			t.Fatalf("entry %+v: want a resolution of seat %d credited to its player", e, holder)
		}
	}
	if n := len(after.Play.State().Player(holder).Queue()); n != 0 {
		t.Fatalf("%d batches still wait", n)
	}
	if st := after.Seats[holder]; st.WaitingSince != nil || st.Deadline != nil {
		t.Fatalf("the seat is still waited on: %+v", st)
	}
	checkBest(t, after, added)

	// Setting it again with nothing waiting changes no game.
	if err := s.SetAutoDecide(user, true); err != nil {
		t.Fatal(err)
	}
	if v := mustLoad(t, s, l.Game.ID).Game.Version; v != after.Game.Version {
		t.Fatalf("setting the policy with nothing waiting made %d commits", v-after.Game.Version)
	}

	// Turned off, choices wait for the player again.
	if err := s.SetAutoDecide(user, false); err != nil {
		t.Fatal(err)
	}
	if mustUserByID(t, s, user).AutoDecide {
		t.Fatal("the policy is still on after it was cleared")
	}
	r := engine.NewRand(3)
	for step := 0; ; step++ {
		g := mustLoad(t, s, l.Game.ID)
		if len(g.Play.State().Player(holder).Queue()) > 0 {
			break
		}
		if step == 300 || g.Game.Status != models.StatusActive {
			t.Fatal("no further choice waited for the player once the policy was off")
		}
		clock.Advance(time.Minute)
		playStep(t, s, g, r)
	}
}

// TestAutoDecideCatchesUp: a choice left waiting for a player whose policy
// is on (the policy changed while the game's last commit was prepared) is
// decided by the game's next commit, or by autoplay.Bots, which runs after
// every commit the site makes and after timeouts.
func TestAutoDecideCatchesUp(t *testing.T) {
	for _, how := range []string{"next commit", "autoplay.Bots"} {
		t.Run(how, func(t *testing.T) {
			s, clock := openClocked(t)
			users := []*models.User{models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "carl")}
			l := playUntil(t, s, clock, users, 0, waitingHolder)
			holder := waitingHolder(l)
			user := *l.Seats[holder].UserID
			// The setting as the racing commit would leave it: stored, not yet applied.
			if err := models.DB(s).Model(&models.User{}).Where("id = ?", user).Update("auto_decide", true).Error; err != nil {
				t.Fatal(err)
			}
			switch how {
			case "next commit":
				playStep(t, s, l, engine.NewRand(5))
			default:
				if _, err := autoplay.Bots(s, l.Game.ID, nil); err != nil {
					t.Fatal(err)
				}
			}
			after := mustLoad(t, s, l.Game.ID)
			if n := len(after.Play.State().Player(holder).Queue()); n != 0 {
				t.Fatalf("%d batches still wait for a player whose policy is to decide at once", n)
			}
			var mine []models.LogEntry
			for _, e := range after.Log[len(l.Log):] {
				if e.Seat == holder && e.Kind == models.LogResolve {
					mine = append(mine, e)
				}
			}
			if len(mine) == 0 {
				t.Fatal("no resolution was logged")
			}
			checkBest(t, after, mine)
		})
	}
}

// TestNoLimitTurnLosesChoiceDeadline: the player to move in a game without
// a turn limit has a choice waiting, with its deadline; when that choice is
// made in someone else's commit (their "always decide for me" policy,
// stored while SetAutoDecide was still working through their other games),
// only the turn is left, which has no clock: the deadline goes. A passed
// deadline with nothing left to play is cleared by the timeout run rather
// than left to be picked up forever.
func TestNoLimitTurnLosesChoiceDeadline(t *testing.T) {
	s, clock := openClocked(t)
	users := []*models.User{models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "carl")}
	l := playUntil(t, s, clock, users, 0, func(l *models.Loaded) int {
		st := l.Play.State()
		if l.Game.Status != models.StatusActive || st.Over() || len(st.Player(st.Current()).Queue()) == 0 {
			return -1
		}
		return waitingHolder(l)
	})
	cur, other := l.Play.State().Current(), waitingHolder(l)
	if l.Seats[cur].Deadline == nil {
		t.Fatal("the player to move has a choice waiting but no deadline")
	}
	user := *l.Seats[cur].UserID
	if err := models.DB(s).Model(&models.User{}).Where("id = ?", user).Update("auto_decide", true).Error; err != nil {
		t.Fatal(err)
	}
	if _, err := s.CommitResolve(l.Game.ID, l.Game.Version, models.Actor{UserID: *l.Seats[other].UserID}, nil); err != nil {
		t.Fatal(err)
	}
	after := mustLoad(t, s, l.Game.ID)
	if n := len(after.Play.State().Player(cur).Queue()); n != 0 || after.Play.State().Current() != cur {
		t.Fatalf("the setup is off: %d batches wait, seat %d to move", n, after.Play.State().Current())
	}
	if d := after.Seats[cur].Deadline; d != nil {
		t.Errorf("seat %d only has its turn in a game without a turn limit, yet a deadline %v", cur, d)
	}

	// A stale deadline (as an older version could leave) is cleared by the
	// timeout run, which plays nothing.
	past := clock.Now().Add(-time.Hour)
	if err := models.DB(s).Model(&models.Seat{}).Where("id = ?", after.Seats[cur].ID).Updates(map[string]any{"deadline": past, "remind_at": past}).Error; err != nil {
		t.Fatal(err)
	}
	if n, err := autoplay.Timeouts(s); err != nil || n != 0 {
		t.Fatalf("RunTimeouts: %d, %v; want nothing played", n, err)
	}
	again := mustLoad(t, s, l.Game.ID)
	if d := again.Seats[cur].Deadline; d != nil || len(again.Log) != len(after.Log) {
		t.Errorf("after the timeout run: deadline %v, %d log entries (was %d)", d, len(again.Log), len(after.Log))
	}
}
