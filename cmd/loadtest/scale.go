package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"cacao/models"
	"cacao/models/autoplay"
)

// scalePassword is the password of every account -fill makes.
const scalePassword = "scale-password"

// runFill fills the database file path (-fill) with sc's accounts and
// games, copies of one game the greedy bots play to the end, and ends
// with the FILL line: what it made, how long it took and the file's size.
func runFill(path string, sc fillSize, w io.Writer) error {
	start := time.Now()
	store, err := models.Open(path, models.WithBots(autoplay.Kinds()...))
	if err != nil {
		return err
	}
	defer store.Close()
	u, err := store.CreateUser(fmt.Sprintf("tpl%d", time.Now().UnixNano()%1e6), scalePassword)
	if err != nil {
		return err
	}
	g, err := store.CreateGame(u, models.GameSpec{Seats: []string{"greedy"}})
	if err != nil {
		return err
	}
	if _, err := store.Resign(g.ID, u.ID); err != nil { // the bot plays both seats
		return err
	}
	if _, err := autoplay.Bots(store, g.ID, nil); err != nil {
		return err
	}
	db, err := sql.Open("sqlite3", path+"?_busy_timeout=10000")
	if err != nil {
		return err
	}
	defer db.Close()
	err = fillScale(store, db, g.ID, sc, scalePassword, func(step string) {
		fmt.Fprintf(w, "%s after %s\n", step, time.Since(start).Round(time.Second))
	})
	if err != nil {
		return err
	}
	size := int64(0)
	for _, f := range []string{path, path + "-wal"} {
		if fi, err := os.Stat(f); err == nil {
			size += fi.Size()
		}
	}
	fmt.Fprintf(w, "FILL users=%d finished=%d running=%d seconds=%.0f size_mb=%.0f\n",
		sc.Users, sc.Finished, sc.Running, time.Since(start).Seconds(), float64(size)/(1<<20))
	return nil
}

// scaleRounds is how many players -scale measures, each in a game of
// their own that waits on them.
const scaleRounds = 20

// runScale measures the pages of a filled database (-scale): for each of
// scaleRounds players with a game waiting on them, their home page (their
// games and the open ones), that game's page, their notifications, their
// profile, the public list of games being played (/games) and a move in
// the game; then, scaleRounds times, what a worker pass reads to find its
// work (workerReads). It ends with the SCALE line of the medians.
func runScale(ctx context.Context, path, bin, dir string, w io.Writer) error {
	store, err := models.Open(path)
	if err != nil {
		return err
	}
	type seat struct {
		name string
		game uint
	}
	var players []seat
	for i := 0; len(players) < scaleRounds && i < 100*scaleRounds; i++ {
		u, err := store.UserNamed(fmt.Sprintf("scale%d", i))
		if err != nil {
			break
		}
		games, _, err := store.MyGames(u.ID, 0, 1)
		if err != nil {
			return err
		}
		if len(games) == 0 || !games[0].WaitingOnMe {
			continue
		}
		// Its turn to place a tile: a run before this one moved some games
		// on, to a choice of workers waiting on a player.
		l, err := store.LoadGame(games[0].Game.ID)
		if err != nil {
			return err
		}
		if st := l.Play.State(); st.Current() == games[0].MySeat && len(st.Player(games[0].MySeat).Queue()) == 0 && len(st.LegalPlacements(nil)) > 0 {
			players = append(players, seat{u.Username, games[0].Game.ID})
		}
	}
	if len(players) < scaleRounds {
		store.Close()
		return fmt.Errorf("%s has %d players with a game waiting on them; want %d (fill it with -fill)", path, len(players), scaleRounds)
	}
	srv, err := StartServer(ctx, bin, path, filepath.Join(dir, "server.log"))
	if err != nil {
		store.Close()
		return err
	}
	defer srv.Stop()
	defer store.Close()
	lat := map[string][]time.Duration{}
	for i, p := range players {
		ip := fmt.Sprintf("198.19.%d.%d", i/250, i%250+1)
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		get := func(path string) (string, time.Duration, error) {
			start := time.Now()
			code, body, err := attackDo(ctx, c, "GET", srv.URL+path, nil, ip)
			if err == nil && code != http.StatusOK {
				err = fmt.Errorf("GET %s: %d", path, code)
			}
			return body, time.Since(start), err
		}
		page, _, err := get("/login")
		if err != nil {
			return err
		}
		m := csrfRE.FindStringSubmatch(page)
		if m == nil {
			return fmt.Errorf("no CSRF token on the log-in page")
		}
		csrf := m[1]
		if code, _, err := attackDo(ctx, c, "POST", srv.URL+"/login", url.Values{"_csrf": {csrf}, "username": {p.name}, "password": {scalePassword}}, ip); err != nil || code != http.StatusSeeOther {
			return fmt.Errorf("%s logging in: %d %v", p.name, code, err)
		}
		for _, k := range []struct{ kind, path string }{{"home", "/"}, {"game", fmt.Sprintf("/games/%d", p.game)}, {"notices", "/notifications"}, {"profile", "/users/" + p.name}, {"games", "/games"}} {
			_, d, err := get(k.path)
			if err != nil {
				return err
			}
			lat[k.kind] = append(lat[k.kind], d)
		}
		l, err := store.LoadGame(p.game)
		if err != nil {
			return err
		}
		pl := l.Play.State().LegalPlacements(nil)[0]
		form := url.Values{"_csrf": {csrf}, "version": {fmt.Sprint(l.Game.Version)}, "tile": {pl.Tile.String()}, "rot": {fmt.Sprint(pl.Rot)}, "at": {fmt.Sprintf("%d,%d", pl.At.X, pl.At.Y)}}
		start := time.Now()
		code, body, err := attackDo(ctx, c, "POST", srv.URL+fmt.Sprintf("/games/%d/turn", p.game), form, ip)
		if err != nil || code != http.StatusSeeOther {
			return fmt.Errorf("%s's move in game %d: %d %v %.300s", p.name, p.game, code, err, body)
		}
		lat["move"] = append(lat["move"], time.Since(start))
	}
	for range scaleRounds {
		d, err := workerReads(store)
		if err != nil {
			return err
		}
		lat["worker"] = append(lat["worker"], d)
	}
	med := func(k string) float64 {
		ds := lat[k]
		sort.Slice(ds, func(a, b int) bool { return ds[a] < ds[b] })
		return ms(ds[len(ds)/2])
	}
	var fields []string
	for _, k := range []string{"home", "game", "notices", "profile", "games", "move", "worker"} {
		fields = append(fields, fmt.Sprintf("%s_ms=%.2f", k, med(k)))
	}
	fmt.Fprintf(w, "SCALE db=%s %s (medians of %d players)\n", filepath.Base(path), strings.Join(fields, " "), len(players))
	return nil
}

// workerReads times the reads with which a pass of the site's worker finds
// its work, each of which finds nothing to do in a filled database: seats
// out of time, bots that stalled, reminders and digests due, tables to
// expire, games to score, limits to prune, mail due. (The site's worker
// then does that work, which depends on how much there is, not on the
// database's size.)
func workerReads(store *models.Store) (time.Duration, error) {
	start := time.Now()
	if _, err := store.DueTimeouts(100); err != nil {
		return 0, err
	}
	if _, err := store.StalledBots(time.Minute, 100); err != nil {
		return 0, err
	}
	if _, err := store.SendReminders(); err != nil {
		return 0, err
	}
	if _, err := store.QueueDigests(); err != nil {
		return 0, err
	}
	if _, err := store.ExpireTables(100); err != nil {
		return 0, err
	}
	if _, err := store.ScoreOld(200); err != nil {
		return 0, err
	}
	if _, err := store.PruneLimits(); err != nil {
		return 0, err
	}
	if _, err := store.DueMail(100); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}
