package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"cacao/handlers/mail/mailtest"
	"cacao/models"
)

func main() {
	if dir := os.Getenv(floorEnv); dir != "" { // started by runFloor
		os.Exit(serveFloor(dir))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Options is one load run.
type Options struct {
	// Users: virtual users, paired into two-player games. 0: 200 in the
	// closed loop; in the open loop, as many as the rate needs (SizeFor).
	Users    int
	Duration time.Duration // measured time
	Seed     uint64
	Dir      string // work directory: database, server binary, server log
	Server   string // server binary; "" builds ./cmd/cacao
	// Rate: committed turns per second offered (the open loop); 0: the
	// closed loop.
	Rate  float64
	Think time.Duration // open loop: mean think time before a step
	Even  bool          // open loop: evenly spaced turn starts, not Poisson
	// Abuse runs bounded attackers (see attack) during the measured time
	// of an open-loop run.
	Abuse bool
	// Pairs is how many calm and attacked runs an abuse run makes, in
	// turn.
	Pairs int
	// Floor follows an open-loop run with the floor (runFloor) at its rate.
	Floor bool
	// DB is the site's database: "" for a new SQLite file in Dir, or a
	// postgres:// address (best a new, empty database), which Instances
	// servers share, the players spread over them.
	DB        string
	Instances int
	// Mail, in an abuse run (runAbuse), is the SMTP server on loopback the
	// site mails to: the site starts as abuseSite says, and honest players
	// (honest.go) are measured beside the load.
	Mail *mailtest.Server
}

// closedUsers is the closed loop's number of users unless -users says.
const closedUsers = 200

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o Options
	fs.Float64Var(&o.Rate, "rate", 0, "offer this many committed turns per second (open loop); 0: closed loop, every user as fast as the server answers")
	fs.IntVar(&o.Users, "users", 0, fmt.Sprintf("virtual users, paired into two-player games (default %d in the closed loop; in the open loop, enough for -rate and -think)", closedUsers))
	fs.DurationVar(&o.Duration, "duration", 30*time.Second, "how long to measure")
	fs.DurationVar(&o.Think, "think", 300*time.Millisecond, "open loop: a player's mean think time before each step of a turn and each pending choice (with -rate, it sets how many games are open at once)")
	arrivals := fs.String("arrivals", "poisson", "open loop: turn starts as a Poisson process (poisson) or evenly spaced (even)")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the users' choices and of the arrivals")
	keep := fs.String("keep", "", "work in this directory and keep it (default: a temporary one)")
	fs.StringVar(&o.Server, "server", "", "server binary to run (default: build ./cmd/cacao)")
	fs.StringVar(&o.DB, "db", "", "the site's database: a postgres:// address (default: a new SQLite file)")
	fs.IntVar(&o.Instances, "instances", 1, "servers on the database (more than one needs -db postgres://…), the players spread over them")
	cpuprof := fs.String("cpuprofile", "", "write the load generator's own CPU profile here")
	abuse := fs.Bool("abuse", false, "open loop: run the load once as usual, then again while bounded attackers on loopback hold slow log-in bodies, flood one account's event streams, open tables, sign up and play as guests from one address, flood the password hashing, point webhooks and push at a server that never answers and keep hard bots thinking; honest players log in, confirm an address and play a hard bot in both runs; the last line compares the players' p99 and the mail delay")
	fs.BoolVar(&o.Floor, "floor", false, "open loop: then offer the same turns a second, each the run's requests of a turn, to a server that only sends the run's answers again, gzipped; the RATE line divides the server's CPU a turn by that floor's")
	fs.IntVar(&o.Pairs, "pairs", 1, "-abuse: make this many calm and attacked runs, in turn, and compare their medians")
	fill := fs.String("fill", "", "fill this new SQLite file for a scale check (with -fill-users, -fill-finished, -fill-running), then stop")
	var sc fillSize
	fs.IntVar(&sc.Users, "fill-users", 100_000, "-fill: accounts")
	fs.IntVar(&sc.Finished, "fill-finished", 1_000_000, "-fill: finished games")
	fs.IntVar(&sc.Running, "fill-running", 20_000, "-fill: running games")
	scale := fs.String("scale", "", "measure a filled file (see -fill): the home page, a game page, the notifications and a move of 20 players, medians")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	o.Abuse = *abuse
	if *fill != "" {
		if err := runFill(*fill, sc, stdout); err != nil {
			fmt.Fprintln(stderr, "loadtest:", err)
			return 1
		}
		return 0
	}
	if msg := o.check(*arrivals); msg != "" {
		fmt.Fprintln(stderr, "loadtest:", msg)
		return 2
	}
	o.Dir = *keep
	if o.Dir == "" {
		d, err := os.MkdirTemp("", "cacao-load-")
		if err != nil {
			fmt.Fprintln(stderr, "loadtest:", err)
			return 1
		}
		defer os.RemoveAll(d)
		o.Dir = d
	} else if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		fmt.Fprintln(stderr, "loadtest:", err)
		return 1
	}
	if *cpuprof != "" {
		f, err := os.Create(*cpuprof)
		if err != nil {
			fmt.Fprintln(stderr, "loadtest:", err)
			return 1
		}
		defer f.Close()
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	// The generator shares the machine with the server it measures: its
	// own garbage collection runs less often (it holds little: pages in
	// flight and the latencies), leaving the cores to the server.
	debug.SetGCPercent(400)
	ctx := context.Background()
	var rep interface{ Print(io.Writer) }
	var err error
	if *scale != "" {
		if o.Server == "" {
			if o.Server, err = BuildServer(o.Dir); err != nil {
				fmt.Fprintln(stderr, "loadtest:", err)
				return 1
			}
		}
		if err := runScale(ctx, *scale, o.Server, o.Dir, stdout); err != nil {
			fmt.Fprintln(stderr, "loadtest:", err)
			return 1
		}
		return 0
	}
	if *abuse {
		err = runAbuse(ctx, o, stdout)
		if err != nil {
			fmt.Fprintln(stderr, "loadtest:", err)
			return 1
		}
		return 0
	}
	if o.Rate > 0 {
		var r *RateReport
		if r, err = RunOpen(ctx, o, stdout); err == nil && o.Floor {
			fmt.Fprintln(stdout, "the floor ...")
			r.Floor, err = runFloor(ctx, r.samples, filepath.Join(o.Dir, "floor"), floorMix(&r.Stats), o.Rate, o.Duration, o.Seed)
		}
		rep = r
	} else {
		rep, err = Run(ctx, o, stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "loadtest:", err)
		return 1
	}
	rep.Print(stdout)
	return 0
}

// check validates the options (arrivals is the -arrivals flag) and fills
// in the defaults; it returns what is wrong, or "".
func (o *Options) check(arrivals string) string {
	switch {
	case o.Rate < 0:
		return "-rate must not be negative"
	case o.Users < 0 || o.Users == 1 || o.Users%2 != 0:
		return "-users must be an even number of at least 2"
	case o.Duration <= 0:
		return "-duration must be positive"
	case o.Rate > 0 && o.Users == 0 && o.Think <= 0:
		return "-rate needs a -think above 0 to choose the number of users, or -users"
	case o.Think < 0:
		return "-think must not be negative"
	case o.Abuse && o.Rate == 0:
		return "-abuse needs -rate (an open-loop run)"
	case o.Floor && (o.Rate == 0 || o.Abuse):
		return "-floor needs -rate (an open-loop run), without -abuse"
	case o.Abuse && o.Pairs < 1:
		return "-pairs must be at least 1"
	case arrivals != "poisson" && arrivals != "even":
		return "-arrivals is poisson or even"
	case o.Instances < 0:
		return "-instances must be at least 1"
	case o.Instances > 1 && !models.IsPostgres(o.DB):
		return "several -instances share a PostgreSQL database: give -db postgres://…"
	}
	o.Even = arrivals == "even"
	o.Instances = max(1, o.Instances)
	if o.Rate == 0 && o.Users == 0 {
		o.Users = closedUsers
	}
	return ""
}

// BuildServer builds cmd/cacao into dir and returns the binary's path.
func BuildServer(dir string) (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(out)) == "" || strings.TrimSpace(string(out)) == os.DevNull {
		return "", fmt.Errorf("run loadtest from inside the cacao module: %v", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(out)))
	bin := filepath.Join(dir, "cacao")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/cacao")
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build the server: %v\n%s", err, b)
	}
	return bin, nil
}
