package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/crypto/bcrypt"

	"cacao/handlers/mail"
	"cacao/handlers/mail/mailtest"
	"cacao/models"
	"cacao/models/modeltest"
)

// TestPostgresTwoInstances: two servers on one PostgreSQL database behave
// as one site. Alice plays on A and Bob's page, open on B, hears of it at
// once; fifty submits of one turn, spread over both, commit once; a time
// limit that runs out while both workers run is played once; a mail is
// sent once.
func TestPostgresTwoInstances(t *testing.T) {
	base := modeltest.Postgres(t)
	dsn := modeltest.Schema(t, base)
	store, err := models.Open(dsn, models.WithPasswordCost(bcrypt.MinCost))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	alice, err := store.CreateUser("alice", "password-alice")
	if err != nil {
		t.Fatal(err)
	}
	bob, err := store.CreateUser("bob", "password-bob")
	if err != nil {
		t.Fatal(err)
	}
	g, err := store.CreateGame(alice, models.GameSpec{Seats: []string{models.SeatOpen}, TurnHours: 24})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Join(g.ID, "", bob); err != nil {
		t.Fatal(err)
	}
	smtp := mailtest.Start(t)
	mailer := mail.NewSMTP(mail.SMTPConfig{Host: smtp.Host(), Port: smtp.Port(), From: "cacao@example.test"})
	var sites [2]string
	for i := range sites {
		sites[i], _ = startSiteWith(t, Config{DB: dsn, WorkEvery: 100 * time.Millisecond, Mailer: mailer})
	}
	players := map[uint]*webClient{alice.ID: signIn(t, sites[0], "alice"), bob.ID: signIn(t, sites[1], "bob")}

	// The player to move plays on A; the other's page is open on B.
	l, err := store.LoadGame(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	mover, watcher := l.Seats[l.Play.State().Current()], l.Seats[1-l.Play.State().Current()]
	heard := players[*watcher.UserID].stream(t, sites[1], g.ID)
	if code := players[*mover.UserID].post(t, sites[0], fmt.Sprintf("/games/%d/turn", g.ID), turnForm(t, l)); code != http.StatusOK {
		t.Fatalf("the move on A: %d", code)
	}
	l, err = store.LoadGame(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case v := <-heard:
		if v < l.Game.Version {
			t.Fatalf("the page on B heard of version %d, the game is at %d", v, l.Game.Version)
		}
	case <-time.After(time.Second):
		t.Fatal("the page open on B did not hear of the move on A within a second")
	}

	// Fifty submits of the next turn, on both instances at once.
	next := players[*l.Seats[l.Play.State().Current()].UserID]
	form := turnForm(t, l)
	var wg sync.WaitGroup
	codes := make([]int, 50)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = next.post(t, sites[i%2], fmt.Sprintf("/games/%d/turn", g.ID), form)
		}()
	}
	wg.Wait()
	ok := 0
	for _, c := range codes {
		if c == http.StatusOK {
			ok++
		}
	}
	after, err := store.LoadGame(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if turns := countTurns(after) - countTurns(l); ok != 1 || turns != 1 {
		t.Fatalf("fifty submits of one turn: %d answered 200, %d turns were logged; want one (codes %v)", ok, turns, codes)
	}

	// The time of the seat to move runs out while both workers run.
	waiting := after.Seats[after.Play.State().Current()]
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), "UPDATE seats SET deadline = now() - interval '1 minute', remind_at = now() - interval '2 minutes' WHERE id = $1", waiting.ID); err != nil {
		t.Fatal(err)
	}
	// And a confirmation mail waits in the outbox.
	if _, err := store.SetEmail(alice.ID, "alice@example.test", models.MailEach); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		l, err := store.LoadGame(g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if timeouts(l) > 0 && len(smtp.Messages()) > 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // both workers go round a few more times
	l, err = store.LoadGame(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n := timeouts(l); n != 1 {
		t.Fatalf("the time ran out once; the stand-in played %d times", n)
	}
	if n := len(smtp.Messages()); n != 1 {
		t.Fatalf("one mail waited; %d were sent", n)
	}
}

// countTurns counts the turns in l's log.
func countTurns(l *models.Loaded) int {
	n := 0
	for _, e := range l.Log {
		if e.Kind == models.LogTurn {
			n++
		}
	}
	return n
}

// timeouts counts the commits in which the stand-in played for a seat out
// of time (one commit may log a turn and choices, of several turns).
func timeouts(l *models.Loaded) int {
	commits := map[int]bool{}
	for _, e := range l.Log {
		if e.Timeout {
			commits[e.Version] = true
		}
	}
	return len(commits)
}

// turnForm is the form of the first legal placement in l.
func turnForm(t *testing.T, l *models.Loaded) url.Values {
	t.Helper()
	pl := l.Play.State().LegalPlacements(nil)[0]
	return url.Values{"version": {fmt.Sprint(l.Game.Version)}, "tile": {pl.Tile.String()}, "rot": {fmt.Sprint(pl.Rot)}, "at": {fmt.Sprintf("%d,%d", pl.At.X, pl.At.Y)}}
}

// webClient is a signed-in browser without scripts: its cookies (the
// session, in the database, serves every instance) and CSRF token.
type webClient struct {
	c    *http.Client
	csrf string
}

var (
	csrfRE    = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)
	versionRE = regexp.MustCompile(`^data: \{"topic":"[^"]*","version":(\d+)\}`)
)

// signIn logs name in at site.
func signIn(t *testing.T, site, name string) *webClient {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	w := &webClient{c: &http.Client{Jar: jar, Timeout: 10 * time.Second}}
	w.get(t, site+"/login")
	if code := w.post(t, site, "/login", url.Values{"username": {name}, "password": {"password-" + name}}); code != http.StatusOK {
		t.Fatalf("%s could not log in: %d", name, code)
	}
	return w
}

func (w *webClient) get(t *testing.T, u string) string {
	t.Helper()
	res, err := w.c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b strings.Builder
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		b.WriteString(sc.Text() + "\n")
	}
	if m := csrfRE.FindStringSubmatch(b.String()); m != nil {
		w.csrf = m[1]
	}
	return b.String()
}

// post sends form to path at site (another instance's cookies are the
// same site's: the jar keys them by host, and both are 127.0.0.1) and
// returns the status after redirects.
func (w *webClient) post(t *testing.T, site, path string, form url.Values) int {
	f := url.Values{}
	for k, v := range form {
		f[k] = v
	}
	f.Set("_csrf", w.csrf)
	res, err := w.c.PostForm(site+path, f)
	if err != nil {
		t.Error(err)
		return 0
	}
	res.Body.Close()
	return res.StatusCode
}

// stream opens game id's event stream at site and returns the versions it
// tells once connected.
func (w *webClient) stream(t *testing.T, site string, id uint) <-chan int {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/games/%d/events", site, id), nil)
	c := *w.c
	c.Timeout = 0
	res, err := c.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the event stream: %v %v", res, err)
	}
	out := make(chan int, 16)
	first := make(chan struct{})
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), ": connected") {
				close(first)
			}
			if m := versionRE.FindStringSubmatch(sc.Text()); m != nil {
				v, _ := strconv.Atoi(m[1])
				out <- v
			}
		}
	}()
	select {
	case <-first:
	case <-time.After(5 * time.Second):
		t.Fatal("the event stream told nothing within 5 s")
	}
	return out
}
