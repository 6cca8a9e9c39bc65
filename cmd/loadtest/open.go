package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"
)

// openPlayer is a page's state in the open loop.
type openPlayer struct {
	slot  int // the game (a pair of players) whose turn starts it takes
	sched *Schedule
	t0    time.Time     // the schedule's time zero
	think time.Duration // mean think time between steps
	// events passes on the game's event ids; stop ends its stream.
	events <-chan int
	stop   context.CancelFunc
	// turn is the start taken for the turn under way (nil: none): kept
	// through an error, until the turn commits.
	turn *ticket
}

// ticket is a turn start: when it was offered, and whether it was begun.
type ticket struct {
	at    time.Time
	begun bool
}

// stallAfter is how long a page waits for the game's event stream before
// fetching the game again; a user would see the game stuck, so it counts as
// an error.
const stallAfter = 30 * time.Second

// RunOpen offers o.Rate turns per second for o.Duration (after a warm-up),
// and returns what was measured; progress goes to log.
func RunOpen(ctx context.Context, o Options, log io.Writer) (*RateReport, error) {
	if o.Server == "" {
		bin, err := BuildServer(o.Dir)
		if err != nil {
			return nil, err
		}
		o.Server = bin
	}
	z := SizeFor(o.Rate, o.Think, o.Users)
	users := 2 * z.Games
	accounts := min(users, maxAccounts)
	if o.Users > 0 && z.Interval < (turnsApart-2)*o.Think {
		fmt.Fprintf(log, "warning: %d games are offered a turn each every %s, little more than a turn's thinking: a rate not held may be the generator's (fewer -users or a shorter -think)\n",
			z.Games, z.Interval.Round(time.Millisecond))
	}
	var env, flags []string
	if o.Mail != nil {
		env, flags = abuseSite(o.Mail)
	}
	srv, err := startSite(ctx, o, env, flags...)
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	fmt.Fprintf(log, "%s; %d games (%d players on %d accounts) for %.4g turns/s, a turn offered to each game every %s\n",
		srv, z.Games, users, accounts, o.Rate, z.Interval.Round(time.Millisecond))
	rctx, stopAll := context.WithCancel(ctx)
	defer stopAll()
	lt := newLoad(srv.URLs(), users, accounts, o.Seed)
	fmt.Fprintf(log, "signing %d accounts up ...\n", accounts)
	if err := lt.Setup(rctx); err != nil {
		return nil, err
	}
	var hon *honest
	if o.Mail != nil {
		fmt.Fprintln(log, "signing the honest players up ...")
		if hon, err = newHonest(rctx, srv.servers[0].URL, o.Mail, o.Seed); err != nil {
			return nil, err
		}
	}
	var attacks *Attacks
	if o.Abuse {
		fmt.Fprintln(log, "signing the attackers up ...")
		if attacks, err = prepareAttacks(rctx, srv.servers[0].URL); err != nil {
			return nil, err
		}
		defer attacks.Close()
	}
	fmt.Fprintf(log, "starting %d games ...\n", z.Games)
	arrivals := Arrivals(o.Rate, z.Warmup+o.Duration, o.Even, rand.New(rand.NewPCG(o.Seed, 99)))
	sched := NewSchedule(arrivals, z.Games)
	var samples *sampler
	if o.Floor {
		samples = newSampler(o.Seed)
	}
	for i, u := range lt.users {
		u.open = &openPlayer{slot: i / 2, sched: sched, think: o.Think}
		u.sample = samples
	}
	bodies, err := lt.startGames(rctx)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "offering %.4g turns/s (%s arrivals): %s warm-up, then %s measured\n", o.Rate, arrivalsName(o.Even), z.Warmup, o.Duration)

	t0 := time.Now()
	from, to := t0.Add(z.Warmup), t0.Add(z.Warmup+o.Duration)
	pctx, stopPlay := context.WithDeadline(rctx, to)
	defer stopPlay()
	var wg sync.WaitGroup
	for i, u := range lt.users {
		u.open.t0, u.win = t0, window{from: from, to: to}
		wg.Add(1)
		go func() {
			defer wg.Done()
			u.playOpen(pctx, bodies[i])
		}()
	}
	time.Sleep(time.Until(from))
	// The attacks last as long as the honest players are measured: a mail
	// asked for near the end is waited for under attack.
	actx, stopAttacks := context.WithCancel(rctx)
	defer stopAttacks()
	attacked := make(chan struct{})
	if attacks != nil {
		go func() { defer close(attacked); attacks.run(actx) }()
	} else {
		close(attacked)
	}
	measured := make(chan struct{})
	if hon != nil {
		go func() { defer close(measured); hon.measure(rctx, from, to) }()
	} else {
		close(measured)
	}
	srv0, gen0 := srv.CPUTime(), selfCPU()
	peak := peakBacklog(sched, t0, to)
	srv1, gen1 := srv.CPUTime(), selfCPU()
	end := time.Since(t0)
	backlog, waiting := sched.Backlog(end), sched.Waiting(z.Warmup, end)
	elapsed := time.Since(from)
	stopPlay()
	wg.Wait()
	<-measured
	stopAttacks()
	<-attacked
	rep := &RateReport{samples: samples, Attacks: attacks, Rate: o.Rate, Even: o.Even, Think: o.Think, Sizing: z, Users: users, Accounts: accounts,
		Offered: sched.Due(z.Warmup+o.Duration) - sched.Due(z.Warmup), Backlog: backlog, PeakBacklog: max(peak, backlog),
		PeakRSSMB: srv.PeakRSSMB(), CPU: CPU{Server: spent(srv0, srv1), Gen: spent(gen0, gen1), Cores: runtime.NumCPU()},
		Stats: Stats{Elapsed: elapsed, Lat: map[string][]time.Duration{}}}
	if hon != nil {
		rep.Honest = hon.rep
	}
	for _, u := range lt.users {
		rep.Stats.add(&u.st)
	}
	// The turns not begun by the end waited at least until then.
	rep.StartLag = append(rep.StartLag, waiting...)
	return rep, nil
}

// peakBacklog samples the schedule's backlog every 100 ms until to and
// returns the largest.
func peakBacklog(sched *Schedule, t0, to time.Time) int {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	end := time.NewTimer(time.Until(to))
	defer end.Stop()
	peak := 0
	for {
		select {
		case <-tick.C:
			peak = max(peak, sched.Backlog(time.Since(t0)))
		case <-end.C:
			return peak
		}
	}
}

func arrivalsName(even bool) string {
	if even {
		return "even"
	}
	return "poisson"
}

// startGames puts every pair of users in a game of their own and opens its
// page for both, before the clock starts; it returns each user's page.
func (l *Load) startGames(ctx context.Context) ([]string, error) {
	bodies := make([]string, len(l.users))
	errc := make(chan error, len(l.users)/2)
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for i := 0; i < len(l.users); i += 2 {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errc <- l.startGame(ctx, i, bodies)
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			return nil, err
		}
	}
	return bodies, nil
}

// startGame starts the game of users i (creator) and i+1 and opens its
// page for both once both are seated.
func (l *Load) startGame(ctx context.Context, i int, bodies []string) error {
	c, p := l.users[i], l.users[i+1]
	// The partner waits for the creator's invite, or for its failure.
	pctx, stop := context.WithCancel(ctx)
	defer stop()
	errc := make(chan error, 1)
	go func() { _, err := p.newGame(pctx); errc <- err }()
	_, err := c.newGame(ctx)
	if err != nil {
		stop()
		<-errc
		return err
	}
	if err := <-errc; err != nil {
		return err
	}
	for k, u := range []*vuser{c, p} {
		if bodies[i+k], err = u.openPage(ctx); err != nil {
			return err
		}
	}
	return nil
}

// openPage opens the game's page as a browser navigates to it (a whole
// page), and follows the event stream it connects to.
func (u *vuser) openPage(ctx context.Context) (string, error) {
	_, body, err := u.do(ctx, "page", "GET", fmt.Sprintf("/games/%d", u.game), nil, false)
	if err != nil {
		return "", err
	}
	u.follow(ctx, body)
	return body, nil
}

// follow connects to the event stream of page (a whole game page), ending
// the stream of the page before.
func (u *vuser) follow(ctx context.Context, page string) {
	o := u.open
	if o.stop != nil {
		o.stop()
	}
	path := eventsURL(page)
	if path == "" {
		o.events, o.stop = nil, nil // a finished game: no stream
		return
	}
	sctx, stop := context.WithCancel(ctx)
	o.events, o.stop = u.listen(sctx, path), stop
}

// playOpen plays games until ctx ends, starting from body, the page of
// the game u is in.
func (u *vuser) playOpen(ctx context.Context, body string) {
	defer func() {
		if u.open.stop != nil {
			u.open.stop()
		}
	}()
	for ctx.Err() == nil {
		var err error
		switch {
		case u.game == 0:
			if body, err = u.newGame(ctx); err == nil {
				if body == "" { // the partner, seated: the game's page
					body, err = u.openPage(ctx)
				} else {
					u.follow(ctx, body)
				}
			}
		case body == "": // after an error: the page afresh
			body, err = u.openPage(ctx)
		default:
			err = u.playOpenGame(ctx, body)
			body = ""
		}
		if err != nil && ctx.Err() == nil {
			body = ""
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// playOpenGame plays u's game from its page body to the game's end, as its
// player in a browser: thinking before each step but the first of a turn,
// beginning each turn at the start the schedule offers (or at once when
// late), answering pending choices, and refetching the game as the page's
// live trigger does when the game moves.
func (u *vuser) playOpenGame(ctx context.Context, body string) error {
	o := u.open
	var err error
	for ctx.Err() == nil {
		switch {
		case isFinal(body):
			u.gameOver()
			return nil
		case hasChoice(body):
			if body, err = u.think(ctx, body); err != nil {
				return err
			}
			if hasChoice(body) {
				if body, err = u.submit(ctx, "resolve", body); err != nil {
					return err
				}
			}
		case isMyTurn(body):
			if o.turn == nil {
				at, ok := o.sched.Next(o.slot)
				if !ok { // the schedule is over
					<-ctx.Done()
					return errStop
				}
				o.turn = &ticket{at: o.t0.Add(at)}
			}
			if !o.turn.begun {
				if body, err = u.waitUntil(ctx, body, o.turn.at); err != nil {
					return err
				}
				if !isMyTurn(body) || hasChoice(body) {
					continue // the page changed meanwhile: read it again
				}
				o.turn.begun = true
				o.sched.Start(o.slot)
				if u.win.has(o.turn.at) {
					u.st.StartLag = append(u.st.StartLag, max(0, time.Since(o.turn.at)))
				}
			}
			if body, err = u.turn(ctx, body); err != nil {
				return err
			}
		default:
			if o.turn != nil && o.turn.begun {
				o.turn = nil // committed, though its answer was lost
			}
			if body, err = u.awaitMove(ctx, body); err != nil {
				return err
			}
		}
	}
	return errStop
}

// think waits as a player thinks before a step (uniformly between half and
// one and a half times the mean), and returns the page as it then is.
func (u *vuser) think(ctx context.Context, body string) (string, error) {
	d := time.Duration((0.5 + u.r.Float64()) * float64(u.open.think))
	return u.waitUntil(ctx, body, time.Now().Add(d))
}

// waitUntil waits until t, refetching the game meanwhile whenever its
// event stream says it moved past the version body shows, and returns the
// page as it then is.
func (u *vuser) waitUntil(ctx context.Context, body string, t time.Time) (string, error) {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	shown := shownVersion(body)
	for {
		select {
		case <-timer.C:
			return body, nil
		case v := <-u.open.events:
			if v <= shown {
				continue
			}
			var err error
			if body, err = u.refetch(ctx, body); err != nil {
				return "", err
			}
			shown = shownVersion(body)
		case <-ctx.Done():
			return "", errStop
		}
	}
}

// awaitMove waits until the game moves past the version body shows, then
// refetches it; a stream silent for stallAfter costs a refetch and an error.
func (u *vuser) awaitMove(ctx context.Context, body string) (string, error) {
	shown := shownVersion(body)
	timer := time.NewTimer(stallAfter)
	defer timer.Stop()
	for {
		select {
		case v := <-u.open.events:
			if v <= shown {
				continue
			}
		case <-timer.C:
			u.fail(fmt.Errorf("game %d: no news of the game for %s", u.game, stallAfter))
		case <-ctx.Done():
			return "", errStop
		}
		return u.refetch(ctx, body)
	}
}

// refetch asks for the game again as the page's live trigger does, keeping
// the choice in progress.
func (u *vuser) refetch(ctx context.Context, body string) (string, error) {
	link := liveLink(body)
	if link == "" {
		link = fmt.Sprintf("/games/%d", u.game)
	}
	_, body, err := u.do(ctx, "refetch", "GET", link, nil, true)
	return body, err
}
