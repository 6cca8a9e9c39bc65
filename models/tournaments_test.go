package models_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"cacao/models"
	"cacao/models/autoplay"
	"cacao/models/modeltest"
)

// tourPlayers signs up n players player1…playerN.
func tourPlayers(t *testing.T, s *models.Store, n int) []*models.User {
	t.Helper()
	us := make([]*models.User, n)
	for i := range us {
		us[i] = models.MustUser(t, s, fmt.Sprintf("player%d", i+1))
	}
	return us
}

// tourAdmin is an admin account called name.
func tourAdmin(t *testing.T, s *models.Store, name string) *models.User {
	t.Helper()
	models.MustUser(t, s, name)
	u, err := s.SetAdmin(name, true)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// openTournament is a public tournament of spec (a day's sign-up, a day a
// turn, 7-day rounds unless spec says) made by an admin, with players
// signed up.
func openTournament(t *testing.T, s *models.Store, spec models.TourSpec, players []*models.User) *models.Tournament {
	t.Helper()
	spec.Name = "Winter cup"
	spec.SignupDays = 1
	spec.TurnHours = cmpOr(spec.TurnHours, 24)
	spec.RoundDays = cmpOr(spec.RoundDays, 7)
	spec.MaxPlayers = cmpOr(spec.MaxPlayers, 16)
	tour, err := s.CreateTournament(tourAdmin(t, s, "umpire"), spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range players {
		if err := s.JoinTournament(tour.ID, u); err != nil {
			t.Fatal(err)
		}
	}
	return tour
}

func cmpOr(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

func runTours(t *testing.T, s *models.Store) models.TourWork {
	t.Helper()
	w, err := s.RunTournaments(100)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range w.Handed {
		if _, err := autoplay.Bots(s, id, nil); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func tourPage(t *testing.T, s *models.Store, id uint) *models.TourPage {
	t.Helper()
	p, err := s.TournamentPage(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// playRound plays the running games of tournament id's current round to
// their end, every player but those of absent making the first legal
// move when it comes to them; a game that waits on an absent player
// waits out their time (the clock moves on), the time-outs and the
// stand-in bot playing for them.
func playRound(t *testing.T, s *models.Store, clock *modeltest.Clock, id uint, users map[uint]*models.User, absent ...uint) {
	t.Helper()
	p := tourPage(t, s, id)
	for _, g := range p.Rounds[0].Games {
		for step := 0; ; step++ {
			if step > 2000 {
				t.Fatalf("game %d does not end", g.ID)
			}
			l := mustLoad(t, s, g.ID)
			if l.Game.Status != models.StatusActive {
				break
			}
			moved := false
			for _, seat := range l.Seats {
				if seat.UserID == nil || seat.Abandoned || slices.Contains(absent, *seat.UserID) {
					continue
				}
				before := mustLoad(t, s, g.ID).Game.Version
				actAll(t, s, g.ID, users[*seat.UserID])
				moved = moved || mustLoad(t, s, g.ID).Game.Version != before
			}
			if _, err := autoplay.Bots(s, g.ID, nil); err != nil {
				t.Fatal(err)
			}
			if !moved && mustLoad(t, s, g.ID).Game.Status == models.StatusActive {
				clock.Advance(25 * time.Hour)
				mustTimeouts(t, s)
				if _, err := autoplay.Bots(s, g.ID, nil); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// playTournament plays tournament id to its end, from its start, and
// returns how many rounds were played.
func playTournament(t *testing.T, s *models.Store, clock *modeltest.Clock, id uint, players []*models.User, absent ...uint) int {
	t.Helper()
	users := map[uint]*models.User{}
	for _, u := range players {
		users[u.ID] = u
	}
	clock.Advance(25 * time.Hour) // sign-up closes
	rounds := 0
	for range 40 {
		runTours(t, s)
		p := tourPage(t, s, id)
		if p.Tournament.State == models.TourFinished {
			return rounds
		}
		if p.Tournament.State != models.TourRunning {
			t.Fatalf("the tournament is %s", p.Tournament.State)
		}
		rounds = p.Tournament.Round
		playRound(t, s, clock, id, users, absent...)
	}
	t.Fatal("the tournament does not end")
	return 0
}

// checkFinished: every round of p seats each player who plays on once,
// at a table or with a bye; the points of the standings are those of the
// tables and byes; the winners are first; everyone signed up was told of
// each round and of the end.
func checkFinished(t *testing.T, s *models.Store, p *models.TourPage, players []*models.User) map[[2]string]int {
	t.Helper()
	met := map[[2]string]int{}
	total := 0.0
	for _, r := range p.Rounds {
		seen := map[string]int{}
		for _, name := range r.Byes {
			seen[name]++
			total += p.Tournament.WinPoints()
		}
		for _, g := range r.Games {
			if g.Status != models.StatusFinished {
				t.Fatalf("round %d: game %d is %s", r.Number, g.ID, g.Status)
			}
			for _, a := range g.Seats {
				seen[a.Name]++
				total += a.Points
				for _, b := range g.Seats {
					if a.Name < b.Name {
						met[[2]string{a.Name, b.Name}]++
					}
				}
			}
		}
		for _, st := range p.Standings {
			if st.WithdrawnAfter == 0 || st.WithdrawnAfter >= r.Number {
				if seen[st.Name] != 1 {
					t.Fatalf("round %d: %s is in it %d times", r.Number, st.Name, seen[st.Name])
				}
			} else if seen[st.Name] != 0 {
				t.Fatalf("round %d: %s plays, withdrawn after round %d", r.Number, st.Name, st.WithdrawnAfter)
			}
		}
	}
	sum := 0.0
	for i, st := range p.Standings {
		sum += st.Points
		if i > 0 && st.Points > p.Standings[i-1].Points {
			t.Fatalf("the standings are not in order of points: %+v", p.Standings)
		}
	}
	if sum != total {
		t.Fatalf("the standings hold %v points; the tables and byes gave %v", sum, total)
	}
	if len(p.Winners) == 0 || p.Winners[0] != p.Standings[0].Name {
		t.Fatalf("winners %v; the standings start with %s", p.Winners, p.Standings[0].Name)
	}
	for _, u := range players {
		kinds := map[models.Kind]int{}
		ns, _, err := s.Notifications(u.ID, 0, 1000)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range ns {
			kinds[n.Kind]++
		}
		if kinds[models.KindTourEnded] != 1 || kinds[models.KindTourRound] == 0 {
			t.Fatalf("%s was told %v", u.Username, kinds)
		}
	}
	return met
}

// TestSwissTournamentOfTwo plays a Swiss tournament of bots at tables of
// two, with an even and an odd count: 3 rounds, nobody meeting twice,
// each odd round's bye to a different player, and the points adding up.
func TestSwissTournamentOfTwo(t *testing.T) {
	for _, n := range []int{4, 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s, clock := openClocked(t)
			players := tourPlayers(t, s, n)
			tour := openTournament(t, s, models.TourSpec{Format: models.Swiss, Rounds: 3}, players)
			if rounds := playTournament(t, s, clock, tour.ID, players); rounds != 3 {
				t.Fatalf("%d rounds; want 3", rounds)
			}
			p := tourPage(t, s, tour.ID)
			for pair, m := range checkFinished(t, s, p, players) {
				if m > 1 {
					t.Fatalf("%v met %d times", pair, m)
				}
			}
			byes := map[string]bool{}
			for _, r := range p.Rounds {
				for _, b := range r.Byes {
					if byes[b] {
						t.Fatalf("%s had two byes", b)
					}
					byes[b] = true
				}
			}
			if len(byes) != 3*(n%2) {
				t.Fatalf("%d byes; want %d", len(byes), 3*(n%2))
			}
		})
	}
}

// TestRoundRobinTournamentOfTwo plays round robins of bots at tables of
// two, even and odd: everyone meets everyone exactly once, in n−1 rounds
// (even) or n, each with a bye (odd).
func TestRoundRobinTournamentOfTwo(t *testing.T) {
	for _, n := range []int{4, 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s, clock := openClocked(t)
			players := tourPlayers(t, s, n)
			tour := openTournament(t, s, models.TourSpec{Format: models.RoundRobin}, players)
			if rounds := playTournament(t, s, clock, tour.ID, players); rounds != n-1+n%2 {
				t.Fatalf("%d rounds; want %d", rounds, n-1+n%2)
			}
			met := checkFinished(t, s, tourPage(t, s, tour.ID), players)
			if len(met) != n*(n-1)/2 {
				t.Fatalf("%d pairs met; want all %d", len(met), n*(n-1)/2)
			}
			for pair, m := range met {
				if m != 1 {
					t.Fatalf("%v met %d times", pair, m)
				}
			}
		})
	}
}

// TestTournamentsOfThreeOrFour plays Swiss and round robin tournaments of
// bots at tables of three or four: 7 players sit at a table of four and
// one of three, 6 at two of three, 5 at one of four with a bye.
func TestTournamentsOfThreeOrFour(t *testing.T) {
	for _, c := range []struct {
		format models.TourFormat
		n      int
		rounds int
	}{{models.Swiss, 7, 2}, {models.RoundRobin, 6, 3}, {models.Swiss, 5, 2}} {
		t.Run(fmt.Sprint(c.format, c.n), func(t *testing.T) {
			s, clock := openClocked(t)
			players := tourPlayers(t, s, c.n)
			tour := openTournament(t, s, models.TourSpec{Format: c.format, Multi: true, Rounds: 2}, players)
			if rounds := playTournament(t, s, clock, tour.ID, players); rounds != c.rounds {
				t.Fatalf("%d rounds; want %d", rounds, c.rounds)
			}
			p := tourPage(t, s, tour.ID)
			checkFinished(t, s, p, players)
			for _, r := range p.Rounds {
				for _, g := range r.Games {
					if len(g.Seats) < 3 {
						t.Fatalf("round %d: a table of %d", r.Number, len(g.Seats))
					}
				}
				if want := map[int]int{5: 1}[c.n]; len(r.Byes) != want {
					t.Fatalf("round %d: byes %v", r.Number, r.Byes)
				}
			}
		})
	}
}

// TestTournamentNoShow: a player who never moves times out twice, the
// stand-in bot finishes their game, and they are withdrawn from the later
// rounds; the others play on, one of them with a bye.
func TestTournamentNoShow(t *testing.T) {
	s, clock := openClocked(t)
	players := tourPlayers(t, s, 4)
	tour := openTournament(t, s, models.TourSpec{Format: models.Swiss, Rounds: 2}, players)
	ghost := players[3]
	playTournament(t, s, clock, tour.ID, players, ghost.ID)
	p := tourPage(t, s, tour.ID)
	checkFinished(t, s, p, players)
	for _, st := range p.Standings {
		if (st.Name == ghost.Username) != (st.WithdrawnAfter == 1) {
			t.Fatalf("%s withdrawn after round %d", st.Name, st.WithdrawnAfter)
		}
	}
	if last := p.Rounds[0]; len(last.Games) != 1 || len(last.Byes) != 1 {
		t.Fatalf("the last round without the no-show: %+v", last)
	}
}

// TestTournamentRoundDeadline: a round whose game is not over when its
// time is: the stand-in bot finishes it for both, who cannot take their
// seats back, and the next round starts.
func TestTournamentRoundDeadline(t *testing.T) {
	s, clock := openClocked(t)
	players := tourPlayers(t, s, 3)
	tour := openTournament(t, s, models.TourSpec{Format: models.RoundRobin, TurnHours: 168, RoundDays: 7}, players)
	clock.Advance(25 * time.Hour)
	if w := runTours(t, s); w.Started != 1 {
		t.Fatalf("%+v: the tournament did not start", w)
	}
	g := tourPage(t, s, tour.ID).Rounds[0].Games[0]
	clock.Advance(6 * 24 * time.Hour)
	if w := runTours(t, s); len(w.Handed) != 0 || w.Rounds != 0 {
		t.Fatalf("%+v before the round's end", w)
	}
	clock.Advance(24*time.Hour + time.Minute)
	if w := runTours(t, s); len(w.Handed) != 1 {
		t.Fatalf("%+v at the round's end", w)
	}
	l := mustLoad(t, s, g.ID)
	if l.Game.Status != models.StatusFinished {
		t.Fatalf("game %d is %s after the round's end", g.ID, l.Game.Status)
	}
	for _, seat := range l.Seats {
		if !seat.Abandoned {
			t.Fatalf("%s still plays their seat", seat.Name)
		}
	}
	if w := runTours(t, s); w.Rounds != 1 {
		t.Fatalf("%+v: round 2 did not start", w)
	}
	p := tourPage(t, s, tour.ID)
	if p.Tournament.Round != 2 {
		t.Fatalf("round %d", p.Tournament.Round)
	}
	for _, st := range p.Standings {
		if st.WithdrawnAfter != 0 {
			t.Fatalf("%s withdrawn for the round's end", st.Name)
		}
	}
}

// TestTournamentTooFew: a tournament with fewer than MinTourPlayers when
// sign-up closes is cancelled, and those who signed up are told.
func TestTournamentTooFew(t *testing.T) {
	s, clock := openClocked(t)
	players := tourPlayers(t, s, 2)
	tour := openTournament(t, s, models.TourSpec{Format: models.Swiss, Rounds: 3}, players)
	if w := runTours(t, s); w.Cancelled+w.Started != 0 {
		t.Fatalf("%+v before sign-up closed", w)
	}
	clock.Advance(25 * time.Hour)
	if w := runTours(t, s); w.Cancelled != 1 {
		t.Fatalf("%+v", w)
	}
	if p := tourPage(t, s, tour.ID); p.Tournament.State != models.TourCancelled {
		t.Fatalf("the tournament is %s", p.Tournament.State)
	}
	ns, _, err := s.Notifications(players[0].ID, 0, 10)
	if err != nil || len(ns) != 1 || ns[0].Kind != models.KindTourEnded {
		t.Fatalf("told %+v (%v)", ns, err)
	}
	if err := s.JoinTournament(tour.ID, models.MustUser(t, s, "late")); !errors.Is(err, models.ErrTourClosed) {
		t.Fatalf("joining a cancelled tournament: %v", err)
	}
}

// TestTournamentRules: who may open a tournament, within which limits, and
// who may join it; a refusal changes nothing.
func TestTournamentRules(t *testing.T) {
	s, _ := openClocked(t)
	ana, bob, cyd := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "cyd")
	private := models.TourSpec{Name: "Friends' cup", Format: models.Swiss, Rounds: 3, TurnHours: 24, RoundDays: 14, SignupDays: 2, MaxPlayers: 8, Private: true, Invite: []string{"bob"}}
	for _, c := range []struct {
		name string
		edit func(*models.TourSpec)
		want error
	}{
		{"public", func(sp *models.TourSpec) { sp.Private = false; sp.Invite = nil }, models.ErrTourPublic},
		{"name", func(sp *models.TourSpec) { sp.Name = " x " }, models.ErrTourName},
		{"format", func(sp *models.TourSpec) { sp.Format = "knockout" }, models.ErrTourFormat},
		{"turn", func(sp *models.TourSpec) { sp.TurnHours = 0 }, models.ErrTourTurn},
		{"round days", func(sp *models.TourSpec) { sp.RoundDays = 1 }, models.ErrTourRoundDays},
		{"rounds", func(sp *models.TourSpec) { sp.Rounds = 10 }, models.ErrTourRounds},
		{"players", func(sp *models.TourSpec) { sp.MaxPlayers = 17 }, models.ErrTourPrivateMax},
		{"nobody", func(sp *models.TourSpec) { sp.Invite = []string{"bob", "nobody"} }, models.ErrInvalid},
	} {
		spec := private
		c.edit(&spec)
		if _, err := s.CreateTournament(ana, spec); !errors.Is(err, c.want) {
			t.Errorf("%s: %v; want %v", c.name, err, c.want)
		}
	}
	// Names are counted once whatever their capitals: BOB and @bob are bob.
	spec := private
	spec.Invite = []string{"bob", "BOB", " @bob", "cyd"}
	for i := range 20000 {
		spec.Invite = append(spec.Invite, fmt.Sprintf("p%d", i/2), fmt.Sprintf("P%d", i/2))
	}
	if _, err := s.CreateTournament(ana, spec); err == nil || !strings.Contains(err.Error(), "you invited 10002 players") {
		t.Errorf("40,004 names, 10,002 of them different: %v", err)
	}
	if l, err := s.Tournaments(ana); err != nil || len(l.Signup) != 0 {
		t.Fatalf("refusals made tournaments: %+v (%v)", l, err)
	}
	gus, err := s.CreateGuest("gus")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateTournament(gus, private); !errors.Is(err, models.ErrTourGuest) {
		t.Fatalf("a guest's tournament: %v", err)
	}
	var mine []*models.Tournament
	for range models.MaxOwnTournaments {
		tour, err := s.CreateTournament(ana, private)
		if err != nil {
			t.Fatal(err)
		}
		mine = append(mine, tour)
	}
	if _, err := s.CreateTournament(ana, private); !errors.Is(err, models.ErrTourMany) {
		t.Fatalf("a third private tournament: %v", err)
	}
	tour := mine[0]
	// To cyd, not invited, a private tournament is one that is not there.
	if err := s.JoinTournament(tour.ID, cyd); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("cyd, not invited, joins: %v", err)
	}
	if err := s.LeaveTournament(tour.ID, cyd); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("cyd, not invited, leaves: %v", err)
	}
	if _, err := s.TournamentPage(tour.ID, cyd); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("cyd sees a private tournament: %v", err)
	}
	if err := s.JoinTournament(tour.ID, gus); !errors.Is(err, models.ErrTourGuest) {
		t.Fatalf("a guest joins: %v", err)
	}
	p, err := s.TournamentPage(tour.ID, bob)
	if err != nil || !p.MayJoin || p.Joined || !slices.Equal(p.Invited, []string{"bob"}) || !slices.Equal(p.Players, []string{"ana"}) {
		t.Fatalf("bob, invited, sees %+v (%v)", p, err)
	}
	if err := s.JoinTournament(tour.ID, bob); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.TournamentPage(tour.ID, bob); !p.Joined || p.MayJoin || len(p.Invited) != 0 {
		t.Fatalf("bob, signed up, sees %+v", p)
	}
	if err := s.LeaveTournament(tour.ID, bob); err != nil {
		t.Fatal(err)
	}
	if err := s.LeaveTournament(tour.ID, bob); !errors.Is(err, models.ErrTourNotIn) {
		t.Fatalf("leaving twice: %v", err)
	}
	if p, _ := s.TournamentPage(tour.ID, bob); !p.MayJoin || !slices.Equal(p.Invited, []string{"bob"}) {
		t.Fatalf("bob, who left, sees %+v", p)
	}
	// A public tournament's places.
	umpire := tourAdmin(t, s, "umpire")
	open, err := s.CreateTournament(umpire, models.TourSpec{Name: "Open", Format: models.RoundRobin, TurnHours: 72, RoundDays: 21, SignupDays: 7, MaxPlayers: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []*models.User{ana, bob, cyd} {
		if err := s.JoinTournament(open.ID, u); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.JoinTournament(open.ID, umpire); !errors.Is(err, models.ErrTourFull) {
		t.Fatalf("joining a full tournament: %v", err)
	}
	if l, err := s.Tournaments(nil); err != nil || len(l.Signup) != 1 || l.Signup[0].Players != 3 {
		t.Fatalf("the list of a visitor: %+v (%v)", l, err)
	}
}

// TestTournamentDeletedAccount: a player of a round robin who deletes
// their account after the first round is withdrawn, unnamed, and the
// tournament plays on to its end on its schedule: nobody meets twice.
// Once sign-up has closed, nobody leaves.
func TestTournamentDeletedAccount(t *testing.T) {
	s, clock := openClocked(t)
	players := tourPlayers(t, s, 5)
	tour := openTournament(t, s, models.TourSpec{Format: models.RoundRobin}, players)
	users := map[uint]*models.User{}
	for _, u := range players {
		users[u.ID] = u
	}
	clock.Advance(25 * time.Hour) // sign-up closes
	if err := s.LeaveTournament(tour.ID, players[0]); !errors.Is(err, models.ErrTourClosed) {
		t.Fatalf("leaving once sign-up closed: %v", err)
	}
	runTours(t, s)
	playRound(t, s, clock, tour.ID, users)
	gone := players[4]
	if _, err := s.DeleteAccount(gone.ID, "password-player5"); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if i == 20 {
			t.Fatal("the tournament does not end")
		}
		runTours(t, s)
		if p := tourPage(t, s, tour.ID); p.Tournament.State == models.TourFinished {
			break
		}
		playRound(t, s, clock, tour.ID, users)
	}
	p := tourPage(t, s, tour.ID)
	met := map[[2]string]int{}
	for _, r := range p.Rounds {
		for _, g := range r.Games {
			l := mustLoad(t, s, g.ID)
			a, b := l.Seats[0].Name, l.Seats[1].Name
			if a > b {
				a, b = b, a
			}
			if met[[2]string{a, b}]++; met[[2]string{a, b}] > 1 {
				t.Fatalf("%s and %s met twice", a, b)
			}
		}
	}
	var names []string
	for _, st := range p.Standings {
		names = append(names, st.Name)
	}
	if !slices.Contains(names, models.DeletedName) || slices.Contains(names, gone.Username) {
		t.Fatalf("the standings after player5 left the site: %v", names)
	}
}

// TestTournamentInvitationsCount: a private tournament's invitations are
// invitations of the day as a table's are: a player invited enough today
// by its creator is refused, and nothing is made.
func TestTournamentInvitationsCount(t *testing.T) {
	s, _ := openClocked(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	for i := 0; ; i++ {
		_, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"@bob"}})
		if errors.Is(err, models.ErrInvitedEnough) {
			break
		}
		if err != nil || i == 20 {
			t.Fatalf("table %d inviting bob: %v", i+1, err)
		}
	}
	_, err := s.CreateTournament(ana, models.TourSpec{Name: "Friends", Format: models.Swiss, TurnHours: 24, RoundDays: 7, SignupDays: 1, Rounds: 2, MaxPlayers: 4, Private: true, Invite: []string{"bob"}})
	if !errors.Is(err, models.ErrInvitedEnough) {
		t.Fatalf("a tournament inviting bob, invited enough today: %v", err)
	}
	if ts, _, err := s.Entered(bob.ID); err != nil || len(ts) != 0 {
		t.Fatalf("bob is on %d tournaments (%v)", len(ts), err)
	}
}

// TestFinishedStandingsKept: a finished tournament's standings are the
// places kept at its end, which its news told, not ranked again with the
// ratings of later (the last tie-break).
func TestFinishedStandingsKept(t *testing.T) {
	s, clock := openClocked(t)
	players := tourPlayers(t, s, 4)
	tour := openTournament(t, s, models.TourSpec{Format: models.RoundRobin}, players)
	playTournament(t, s, clock, tour.ID, players)
	before := tourPage(t, s, tour.ID).Standings
	first, last := before[0], before[len(before)-1]
	// Say the places kept differ from a ranking made now.
	models.DB(s).Exec("UPDATE entrants SET place = CASE user_id WHEN ? THEN ? WHEN ? THEN 1 ELSE place END WHERE tournament_id = ?", first.UserID, last.Place, last.UserID, tour.ID)
	after := tourPage(t, s, tour.ID).Standings
	if after[0].UserID != last.UserID || after[0].Place != 1 || after[len(after)-1].UserID != first.UserID {
		t.Fatalf("the standings of a finished tournament: %+v; the places kept put %s first and %s last", after, last.Name, first.Name)
	}
}

// TestTournamentOfThreeEndsWithTwoLeft: at tables of three or four, a
// tournament left with two players ends: they would only sit out rounds
// on byes, winning without playing.
func TestTournamentOfThreeEndsWithTwoLeft(t *testing.T) {
	s, clock := openClocked(t)
	players := tourPlayers(t, s, 6)
	tour := openTournament(t, s, models.TourSpec{Format: models.Swiss, Multi: true, Rounds: 3}, players)
	users := map[uint]*models.User{}
	for _, u := range players {
		users[u.ID] = u
	}
	clock.Advance(25 * time.Hour)
	runTours(t, s)
	if p := tourPage(t, s, tour.ID); p.Tournament.Rounds < 2 {
		t.Fatalf("%d rounds: the test needs more", p.Tournament.Rounds)
	}
	playRound(t, s, clock, tour.ID, users)
	for _, u := range players[2:] {
		if _, err := s.DeleteAccount(u.ID, "password-"+u.Username); err != nil {
			t.Fatal(err)
		}
	}
	runTours(t, s)
	p := tourPage(t, s, tour.ID)
	if p.Tournament.State != models.TourFinished || p.Tournament.Round != 1 {
		t.Fatalf("with two players left at tables of three, the tournament is %s in round %d", p.Tournament.State, p.Tournament.Round)
	}
}
