package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
)

// Stats is what the virtual users did in the measured time.
type Stats struct {
	Elapsed                   time.Duration
	Turns, Resolves, Finished int
	Errors                    int
	ErrorSamples              []string
	Lat                       map[string][]time.Duration
	// Bytes sums, per kind, the response bodies as sent (wire) and as
	// read after un-gzipping (body).
	Bytes map[string]Size
	// Committed lists, for every turn or choice that got a success
	// response, its game and the game's version after it.
	Committed []Commit
}

// Commit is a change the server confirmed: the game's version after it,
// or Finished when the response showed the game over (no version on it).
type Commit struct {
	Game     uint
	Version  int
	Finished bool
}

// Size is bytes as sent and as read.
type Size struct{ Wire, Body int64 }

// addBytes counts b under kind.
func (s *Stats) addBytes(kind string, b Size) {
	if s.Bytes == nil {
		s.Bytes = map[string]Size{}
	}
	t := s.Bytes[kind]
	t.Wire, t.Body = t.Wire+b.Wire, t.Body+b.Body
	s.Bytes[kind] = t
}

// Requests counts the timed requests.
func (s *Stats) Requests() int {
	n := 0
	for _, ds := range s.Lat {
		n += len(ds)
	}
	return n
}

// InFlight is the mean number of timed requests under way at once over
// the measured time (Little's law: their summed latencies over the time).
func (s *Stats) InFlight() float64 {
	var sum time.Duration
	for _, ds := range s.Lat {
		for _, d := range ds {
			sum += d
		}
	}
	if s.Elapsed <= 0 {
		return 0
	}
	return sum.Seconds() / s.Elapsed.Seconds()
}

func (s *Stats) add(o *Stats) {
	s.Turns += o.Turns
	s.Resolves += o.Resolves
	s.Finished += o.Finished
	s.Errors += o.Errors
	if len(s.ErrorSamples) < 10 {
		s.ErrorSamples = append(s.ErrorSamples, o.ErrorSamples[:min(len(o.ErrorSamples), 10-len(s.ErrorSamples))]...)
	}
	if s.Lat == nil {
		s.Lat = map[string][]time.Duration{}
	}
	for k, ds := range o.Lat {
		s.Lat[k] = append(s.Lat[k], ds...)
	}
	for k, b := range o.Bytes {
		s.addBytes(k, b)
	}
	s.Committed = append(s.Committed, o.Committed...)
}

// Load is a set of virtual users against one server.
type Load struct {
	base  string
	users []*vuser
	// answers samples the answers of the measured time, for the floor
	// (Sample); nil: none are.
	answers *sampler
}

// Sample has the users keep a sample of the answers they get, for the
// floor (Answers).
func (l *Load) Sample(seed uint64) {
	l.answers = newSampler(seed)
	for _, u := range l.users {
		u.answers = l.answers
	}
}

// vuser is one browser: its cookies, CSRF token, game and partner.
type vuser struct {
	name    string
	base    string
	http    *http.Client
	stream  *http.Client
	csrf    string
	r       *rand.Rand
	creator bool
	invites chan string // from the creator of each new game to the partner
	game    uint
	shown   string // what the game area shown says it shows (its requests send it)
	st      Stats
	timing  bool
	answers *sampler // nil: answers are not sampled
	// finishOnly: play the current game to its end, then stop.
	finishOnly bool
}

// NewLoad makes users virtual users for the server at base.
func NewLoad(base string, users int, seed uint64) *Load {
	tr := &http.Transport{MaxIdleConns: 4 * users, MaxIdleConnsPerHost: 4 * users, IdleConnTimeout: time.Minute}
	l := &Load{base: base}
	run := time.Now().UnixNano() % 1_000_000
	for i := 0; i < users; i++ {
		jar, _ := cookiejar.New(nil)
		u := &vuser{name: fmt.Sprintf("lt%d_%d", run, i), base: base, r: rand.New(rand.NewPCG(seed, uint64(i))),
			http:    &http.Client{Jar: jar, Transport: tr, Timeout: 30 * time.Second},
			stream:  &http.Client{Jar: jar, Transport: tr},
			creator: i%2 == 0, st: Stats{Lat: map[string][]time.Duration{}}}
		if u.creator {
			u.invites = make(chan string, 1)
		} else {
			u.invites = l.users[i-1].invites
		}
		l.users = append(l.users, u)
	}
	return l
}

// Setup signs every user up (a few at a time: bcrypt is slow on purpose).
func (l *Load) Setup(ctx context.Context) error {
	sem := make(chan struct{}, 8)
	errc := make(chan error, len(l.users))
	var wg sync.WaitGroup
	for _, u := range l.users {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errc <- u.signup(ctx)
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			return err
		}
	}
	return nil
}

// Finish lets every user play the game they are in to its end (at most d),
// starting no new one, and returns what they did.
func (l *Load) Finish(ctx context.Context, d time.Duration) Stats {
	for _, u := range l.users {
		u.finishOnly = true
		u.st = Stats{Lat: map[string][]time.Duration{}}
		select {
		case <-u.invites: // an invite nobody took
		default:
		}
	}
	return l.Play(ctx, d)
}

// Games lists the games the users are in now.
func (l *Load) Games() []uint {
	seen := map[uint]bool{}
	var out []uint
	for _, u := range l.users {
		if u.game != 0 && !seen[u.game] {
			seen[u.game] = true
			out = append(out, u.game)
		}
	}
	return out
}

// Play lets every user play for d and returns what they did.
func (l *Load) Play(ctx context.Context, d time.Duration) Stats {
	return l.each(ctx, d, (*vuser).loop)
}

// each runs act for every user at once, timed, for d, and returns what
// they did.
func (l *Load) each(ctx context.Context, d time.Duration, act func(*vuser, context.Context)) Stats {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	for _, u := range l.users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u.timing = true
			act(u, ctx)
		}()
	}
	wg.Wait()
	all := Stats{Elapsed: time.Since(start), Lat: map[string][]time.Duration{}}
	for _, u := range l.users {
		all.add(&u.st)
	}
	return all
}

var (
	csrfRE   = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)
	inviteRE = regexp.MustCompile(`/join/([0-9a-f]{32})`)
)

// errStop ends a user's loop when the measured time is over.
var errStop = errors.New("stop")

// do sends one request and times it under kind. htmx requests carry the
// headers htmx sends.
func (u *vuser) do(ctx context.Context, kind, method, path string, form url.Values, htmx bool) (*http.Response, string, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, u.base+path, body)
	if err != nil {
		return nil, "", err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if htmx {
		req.Header.Set("HX-Request", "true")
		req.Header.Set("X-CSRF-Token", u.csrf)
		if u.shown != "" {
			req.Header.Set("X-Cacao-Shown", u.shown)
		}
	}
	req.Header.Set("Accept-Encoding", "gzip")
	start := time.Now()
	res, err := u.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", errStop
		}
		u.fail(fmt.Errorf("%s %s: %w", method, path, err))
		return nil, "", err
	}
	b, wire, err := readBody(res)
	res.Body.Close()
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", errStop
		}
		u.fail(fmt.Errorf("%s %s: reading: %w", method, path, err))
		return nil, "", err
	}
	if u.timing {
		u.st.Lat[kind] = append(u.st.Lat[kind], time.Since(start))
		u.st.addBytes(kind, Size{Wire: wire, Body: int64(len(b))})
		if u.answers != nil && res.StatusCode < 300 {
			u.answers.add(kind, b)
		}
	}
	if shown, ok := shownIn(b); ok && htmx {
		u.shown = shown
	}
	if res.StatusCode >= 300 {
		err := fmt.Errorf("%s %s: status %d: %.200s", method, path, res.StatusCode, b)
		u.fail(err)
		return res, b, err
	}
	return res, b, nil
}

func (u *vuser) fail(err error) {
	u.st.Errors++
	if len(u.st.ErrorSamples) < 3 {
		u.st.ErrorSamples = append(u.st.ErrorSamples, u.name+": "+err.Error())
	}
}

func (u *vuser) signup(ctx context.Context) error {
	_, page, err := u.do(ctx, "signup", "GET", "/signup", nil, false)
	if err != nil {
		return err
	}
	m := csrfRE.FindStringSubmatch(page)
	if m == nil {
		return fmt.Errorf("no CSRF token on the sign-up page")
	}
	u.csrf = html.UnescapeString(m[1])
	_, _, err = u.do(ctx, "signup", "POST", "/signup", url.Values{"_csrf": {u.csrf}, "username": {u.name}, "password": {"load-" + u.name}}, false)
	return err
}

// loop plays games until ctx ends: the creator of a pair starts each game
// and hands the invite to the partner, who joins by it.
func (u *vuser) loop(ctx context.Context) {
	for ctx.Err() == nil {
		if u.game == 0 && u.finishOnly {
			return
		}
		if u.game == 0 {
			if err := u.newGame(ctx); err != nil {
				if ctx.Err() == nil {
					time.Sleep(50 * time.Millisecond)
				}
				continue
			}
		}
		if err := u.playGame(ctx); err != nil && ctx.Err() == nil {
			time.Sleep(50 * time.Millisecond)
		}
	}
}

func (u *vuser) newGame(ctx context.Context) error {
	if !u.creator {
		select {
		case tok := <-u.invites:
			if _, _, err := u.do(ctx, "page", "GET", "/join/"+tok, nil, false); err != nil {
				return err
			}
			res, _, err := u.do(ctx, "join", "POST", "/join/"+tok, url.Values{}, true)
			if err != nil {
				return err
			}
			return u.setGame(res)
		case <-ctx.Done():
			return errStop
		}
	}
	res, _, err := u.do(ctx, "create", "POST", "/games", url.Values{"seat": {"open"}}, true)
	if err != nil {
		return err
	}
	if err := u.setGame(res); err != nil {
		return err
	}
	_, page, err := u.do(ctx, "page", "GET", fmt.Sprintf("/games/%d", u.game), nil, false)
	if err != nil {
		return err
	}
	m := inviteRE.FindStringSubmatch(page)
	if m == nil {
		u.fail(fmt.Errorf("no invite link on the page of a new game"))
		return errors.New("no invite")
	}
	u.invites <- m[1]
	return nil
}

func (u *vuser) setGame(res *http.Response) error {
	loc := res.Header.Get("HX-Redirect")
	id, err := strconv.ParseUint(strings.TrimPrefix(loc, "/games/"), 10, 32)
	if err != nil {
		u.fail(fmt.Errorf("no game in the redirect %q", loc))
		return err
	}
	u.game = uint(id)
	return nil
}

// playGame plays u's game to its end as an open page does: it shows the
// response of each of its own moves, and fetches the page again only when
// the game's event stream says the game moved past the version shown.
func (u *vuser) playGame(ctx context.Context) error {
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	events := u.listen(gctx)
	page := fmt.Sprintf("/games/%d", u.game)
	u.shown = "" // the game's page is opened afresh
	_, body, err := u.do(ctx, "page", "GET", page, nil, true)
	if err != nil {
		return err
	}
	for ctx.Err() == nil {
		shown := shownVersion(body)
		switch {
		case strings.Contains(body, `id="final"`):
			if u.creator {
				u.st.Finished++
			}
			u.game = 0
			return nil
		case strings.Contains(body, `/resolve"`):
			if body, err = u.submit(ctx, "resolve", body); err != nil {
				return err
			}
			continue
		case strings.Contains(body, "Choose a tile from your hand."):
			if body, err = u.turn(ctx, body); err != nil {
				return err
			}
			continue
		}
		for waiting := true; waiting; {
			select {
			case v := <-events:
				waiting = v <= shown
			case <-time.After(2 * time.Second): // a missed event costs a refetch, never the game
				waiting = false
			case <-ctx.Done():
				return errStop
			}
		}
		if _, body, err = u.do(ctx, "page", "GET", page, nil, true); err != nil {
			return err
		}
	}
	return errStop
}

// listen follows the game's event stream and passes on each event's id (the
// game's new version).
func (u *vuser) listen(ctx context.Context) <-chan int {
	ch := make(chan int, 16)
	// The stream outlives playGame by a moment: it reads nothing of u that
	// may change meanwhile (the crash test points u at a new server).
	url := fmt.Sprintf("%s/games/%d/events", u.base, u.game)
	go func() {
		for ctx.Err() == nil {
			req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
			req.Header.Set("Accept", "text/event-stream")
			res, err := u.stream.Do(req)
			if err != nil {
				if ctx.Err() == nil {
					time.Sleep(100 * time.Millisecond)
				}
				continue
			}
			sc := bufio.NewScanner(res.Body)
			for sc.Scan() {
				if id, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
					v, _ := strconv.Atoi(id)
					select {
					case ch <- v:
					case <-ctx.Done():
					}
				}
			}
			res.Body.Close()
		}
	}()
	return ch
}

// turn chooses a tile, then a legal cell (rotating when the tile fits
// nowhere as it is), then confirms the move form, as a player clicks.
func (u *vuser) turn(ctx context.Context, body string) (string, error) {
	hand := links(body, `data-tile="`)
	u.r.Shuffle(len(hand), func(i, j int) { hand[i], hand[j] = hand[j], hand[i] })
	for _, tile := range hand {
		link := tile
		for rot := 0; rot < 4; rot++ {
			_, sel, err := u.do(ctx, "select", "GET", link, nil, true)
			if err != nil {
				return "", err
			}
			if cells := links(sel, `class="cell"`); len(cells) > 0 {
				_, chosen, err := u.do(ctx, "select", "GET", cells[u.r.IntN(len(cells))], nil, true)
				if err != nil {
					return "", err
				}
				return u.submit(ctx, "turn", chosen)
			}
			rl := links(sel, `id="rotate"`)
			if len(rl) == 0 {
				break
			}
			link = rl[0]
		}
	}
	u.fail(fmt.Errorf("game %d: no tile of the hand fits anywhere", u.game))
	return "", errors.New("stuck")
}

// submit posts the page's turn or resolve form with its values as shown
// (hidden fields, the first option of each select, the order fields), and
// returns the page it gets back.
func (u *vuser) submit(ctx context.Context, kind, body string) (string, error) {
	action, vals, ok := postForm(body, "/"+kind)
	if !ok {
		u.fail(fmt.Errorf("game %d: no %s form on the page", u.game, kind))
		return "", errors.New("no form")
	}
	_, res, err := u.do(ctx, kind, "POST", action, url.Values(vals), true)
	if err != nil {
		return "", err
	}
	if strings.Contains(res, `class="error"`) {
		u.fail(fmt.Errorf("game %d: %s refused", u.game, kind))
		return "", errors.New("refused")
	}
	if kind == "turn" {
		u.st.Turns++
	} else {
		u.st.Resolves++
	}
	c := Commit{Game: u.game, Version: shownVersion(res)}
	if strings.Contains(res, `id="final"`) {
		c.Version, c.Finished = -1, true
	}
	u.st.Committed = append(u.st.Committed, c)
	return res, nil
}

// gunzips keeps decompressors for reuse: each holds a 32 KB window.
var gunzips sync.Pool

// readBody reads a response, gunzipping it when the server compressed it,
// and says how many bytes came over the wire.
func readBody(res *http.Response) (string, int64, error) {
	wire := &countReader{r: res.Body}
	var r io.Reader = wire
	if res.Header.Get("Content-Encoding") == "gzip" {
		zr, _ := gunzips.Get().(*gzip.Reader)
		var err error
		if zr == nil {
			zr, err = gzip.NewReader(wire)
		} else {
			err = zr.Reset(wire)
		}
		if err != nil {
			return "", wire.n, err
		}
		defer gunzips.Put(zr)
		r = zr
	}
	var b strings.Builder
	if n := res.ContentLength; n > 0 && n < 1<<20 {
		b.Grow(int(n) * 4) // compressed pages grow about fourfold
	}
	_, err := io.Copy(&b, r)
	return b.String(), wire.n, err
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
