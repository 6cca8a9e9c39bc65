package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"cacao/handlers"
	"cacao/handlers/hook"
	"cacao/handlers/live"
	"cacao/handlers/mail"
	"cacao/handlers/push"
	"cacao/models"
	"cacao/models/autoplay"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		cfg, err := parseConfig(args, os.Getenv, stderr)
		if err != nil {
			return 2
		}
		cfg.HashSlots = runtime.GOMAXPROCS(0) // the runtime's Ps (cores or CPU quota), before botPs adds the bots'
		cfg.BotSlots = botPs()
		cfg.Hello = stdout
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		if err := serve(ctx, cfg, stderr, nil); err != nil {
			fmt.Fprintln(stderr, "cacao:", err)
			return 1
		}
		return 0
	case "replay":
		return replayCmd(args, stdin, stdout, stderr)
	case "backup":
		return backupCmd(args, stdout, stderr)
	case "admin":
		return adminCmd(args, stdout, stderr)
	case "migrate":
		return migrateCmd(args, stdout, stderr)
	case "schema":
		return schemaCmd(args, stdout, stderr)
	case "help", "-h", "--help":
		usage(stdout)
		return 0
	default:
		fmt.Fprintf(stderr, "cacao: unknown command %q\n", cmd)
		usage(stderr)
		return 2
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: cacao [serve] [-addr :8080] [-db cacao.db] [-base-url URL] [-secure-cookies]")
	fmt.Fprintln(w, "       cacao replay FILE|-   play a game record and print the position as JSON")
	fmt.Fprintln(w, "       cacao backup [-db cacao.db] FILE   copy the database, while the site runs, to a new file")
	fmt.Fprintln(w, "       cacao admin [-db cacao.db] grant|revoke NAME   give or take the admin role; rename NAME NEWNAME")
	fmt.Fprintln(w, "       cacao schema [-db cacao.db] version|upgrade   the database's schema; bring it up to date (as its owner)")
	fmt.Fprintln(w, "       cacao migrate -from cacao.db -to postgres://…   copy a stopped site into an empty PostgreSQL database")
}

// Config is the server's configuration, from flags then the environment.
type Config struct {
	// Hello, when set, is told in one plain line where the site answers
	// and where its data lives, once it listens (before the JSON log of
	// its work): cacao serve's standard output.
	Hello io.Writer
	Addr  string
	DB    string
	// KeepSchema (-migrate=false) leaves the database's schema as it is at
	// start, for a role that may not change the tables: a schema behind
	// this release's is refused, and cacao schema upgrade, run by the
	// tables' owner, brings it up to date.
	KeepSchema bool
	// DBMaxConns and DBStatementTimeout size this instance's pool of
	// PostgreSQL connections and bound a statement's time (models.WithPool).
	DBMaxConns         int
	DBStatementTimeout time.Duration
	BaseURL            string
	SecureCookies      bool
	TrustProxy         bool
	// Pprof, when set, serves net/http/pprof on that (loopback) address.
	Pprof string
	// MemoryLimitMB is the Go runtime's soft memory limit (0: the runtime's
	// own, GOMEMLIMIT). The live heap of a busy site is some 50 MB and its
	// goroutine stacks some 20 MB; without a limit the collector lets the
	// heap grow to twice that before it runs. A limit close to what the site
	// needs makes the collector run without pause.
	MemoryLimitMB int
	// Mailer sends the outbox's mail: SMTP from CACAO_SMTP_* when set, else
	// nil, which logs each message (development).
	Mailer mail.Mailer
	// WorkEvery is how often the background worker runs (deadlines,
	// reminders, digests, mail).
	WorkEvery time.Duration
	// MaxConnsPerAddress bounds the connections one address holds at once
	// (0: 64); behind a proxy (TrustProxy) there is no such bound.
	MaxConnsPerAddress int
	// GamesPerHour bounds the games one player opens an hour (see
	// handlers.Config); the flag's 0 is no limit.
	GamesPerHour int
	// PrivateHooks lets webhooks and push reach this machine and private
	// networks (an ntfy server on the host's own network, a load run's
	// tarpit). Off, the default, a player's webhook or push endpoint
	// cannot probe the host's network.
	PrivateHooks bool
	// BotSlots is how many bot searches run at once (0:
	// autoplay.Slots()).
	BotSlots int
	// HashSlots is how many password hashes run at once (0: GOMAXPROCS;
	// see handlers.Config).
	HashSlots int
}

// botPs gives the process a P (GOMAXPROCS) more for each of the bots'
// search slots, which run on threads of the lowest priority
// (autoplay.Runner), and returns the slots: the pages keep the cores' Ps.
// Under a flood of hard-bot games the players' p99 stayed within 1.3 times
// its calm value (loadtest -abuse), against 3.6 times when a search held
// one of two cores' Ps.
func botPs() int {
	slots := autoplay.Slots()
	runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + slots)
	return slots
}

// pushContact is who push services may write to about the site's pushes:
// the site's address when it is https, else its webmaster by mail.
func pushContact(base string) string {
	if strings.HasPrefix(base, "https://") {
		return base
	}
	host := "localhost"
	if u, err := url.Parse(base); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	return "webmaster@" + host
}

func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (Config, error) {
	def := func(key, fallback string) string {
		if v := getenv(key); v != "" {
			return v
		}
		return fallback
	}
	defInt := func(key string, fallback int) int {
		if n, err := strconv.Atoi(getenv(key)); err == nil {
			return n
		}
		return fallback
	}
	defDuration := func(key string, fallback time.Duration) time.Duration {
		if d, err := time.ParseDuration(getenv(key)); err == nil {
			return d
		}
		return fallback
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg Config
	fs.StringVar(&cfg.Addr, "addr", def("CACAO_ADDR", ":8080"), "address to listen on")
	fs.StringVar(&cfg.DB, "db", def("CACAO_DB", "cacao.db"), "SQLite database file (created on first start), or a postgres:// address")
	migrate := fs.Bool("migrate", def("CACAO_MIGRATE", "1") != "0" && def("CACAO_MIGRATE", "1") != "false", "bring the database's schema up to date at start; off for a role that may not change the tables (cacao schema upgrade then does it)")
	fs.IntVar(&cfg.DBMaxConns, "db-max-conns", defInt("CACAO_DB_MAX_CONNS", models.DefaultConns), "PostgreSQL: connections this instance keeps (one more listens for changes); keep the instances' sum under the role's limit")
	fs.DurationVar(&cfg.DBStatementTimeout, "db-statement-timeout", defDuration("CACAO_DB_STATEMENT_TIMEOUT", 0), "PostgreSQL: the longest a statement may take (0: no limit); past it the page answers 503")
	fs.StringVar(&cfg.BaseURL, "base-url", def("CACAO_BASE_URL", ""), "public URL of the site, for links in mail and push (unset: http://localhost:PORT, with a warning)")
	fs.BoolVar(&cfg.SecureCookies, "secure-cookies", def("CACAO_SECURE_COOKIES", "") == "1" || def("CACAO_SECURE_COOKIES", "") == "true", "mark cookies Secure (behind TLS)")
	fs.BoolVar(&cfg.TrustProxy, "trust-proxy", def("CACAO_TRUST_PROXY", "") == "1" || def("CACAO_TRUST_PROXY", "") == "true", "take client addresses from X-Forwarded-For (only behind a proxy that sets it)")
	fs.StringVar(&cfg.Pprof, "pprof", def("CACAO_PPROF", ""), "serve Go profiles on this address (e.g. 127.0.0.1:6060; off by default)")
	// A GOMEMLIMIT the operator set is left alone unless the flag or
	// CACAO_MEMORY_LIMIT_MB says otherwise.
	memDefault := 128
	if getenv("GOMEMLIMIT") != "" {
		memDefault = 0
	}
	fs.IntVar(&cfg.MemoryLimitMB, "memory-limit-mb", defInt("CACAO_MEMORY_LIMIT_MB", memDefault), "soft memory limit of the Go runtime in MB (0: none, or GOMEMLIMIT's; default 128 unless GOMEMLIMIT is set)")
	fs.DurationVar(&cfg.WorkEvery, "work-every", 15*time.Second, "how often deadlines, reminders, digests and mail are processed")
	fs.IntVar(&cfg.GamesPerHour, "games-per-hour", defInt("CACAO_GAMES_PER_HOUR", 20), "games one player may open an hour, half of them in a row (0: no limit)")
	fs.BoolVar(&cfg.PrivateHooks, "private-hooks", def("CACAO_PRIVATE_HOOKS", "") == "1" || def("CACAO_PRIVATE_HOOKS", "") == "true", "let webhooks and push reach private and loopback addresses (an ntfy server on this host's network); off, a player's webhook cannot probe it")
	fs.IntVar(&cfg.MaxConnsPerAddress, "max-conns-per-address", defInt("CACAO_MAX_CONNS_PER_ADDRESS", 64), "connections one client address may hold at once (not behind a proxy)")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	cfg.KeepSchema = !*migrate
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "db" && hasPassword(cfg.DB) {
			fmt.Fprintln(stderr, "cacao: warning: the password in -db shows in ps to anyone on this machine; put it in PGPASSWORD or ~/.pgpass")
		}
	})
	smtpCfg, ok, err := mail.ConfigFromEnv(getenv)
	if err != nil {
		fmt.Fprintln(stderr, "cacao:", err)
		return cfg, err
	}
	if ok {
		cfg.Mailer = mail.NewSMTP(smtpCfg)
	}
	return cfg, nil
}

// hasPassword reports whether the database address db holds a password.
func hasPassword(db string) bool {
	u, err := url.Parse(db)
	if err != nil || !models.IsPostgres(db) {
		return false
	}
	_, set := u.User.Password()
	return set || u.Query().Has("password")
}

// dataPlace names where the site's data lives: the SQLite file as a path
// a newcomer can find (./cacao.db), or the database's address without its
// password.
func dataPlace(db string) string {
	if models.IsPostgres(db) {
		return models.Redacted(db)
	}
	if !filepath.IsAbs(db) && !strings.HasPrefix(db, ".") {
		return "." + string(filepath.Separator) + db
	}
	return db
}

func portOf(a net.Addr) string {
	_, port, _ := net.SplitHostPort(a.String())
	return port
}

// serve runs the site until ctx ends, then shuts down gracefully. ready, when
// set, receives the listening address.
func serve(ctx context.Context, cfg Config, logw io.Writer, ready chan<- string) error {
	logger := slog.New(slog.NewJSONHandler(logw, nil))
	if cfg.MemoryLimitMB > 0 {
		debug.SetMemoryLimit(int64(cfg.MemoryLimitMB) << 20)
	}
	hub := live.New()
	opts := []models.Option{models.WithChangeListener(handlers.ChangeListener(hub)), models.WithLogger(logger), models.WithPool(cfg.DBMaxConns, cfg.DBStatementTimeout), models.WithBots(autoplay.Kinds()...)}
	if cfg.KeepSchema {
		opts = append(opts, models.WithoutMigrating())
	}
	store, err := models.Open(cfg.DB, opts...)
	if err != nil {
		return err
	}
	defer store.Close()
	if !models.IsPostgres(cfg.DB) {
		release, err := siteLock(cfg.DB)
		if err != nil {
			return err
		}
		defer release()
	}
	signer, err := handlers.LinkSigner(store)
	if err != nil {
		return err
	}
	bots := autoplay.NewRunner(store, logger, autoplay.WithSlots(cfg.BotSlots))
	defer bots.Close() // before the store closes: a bot may be thinking
	e, err := handlers.New(store, handlers.Config{SecureCookies: cfg.SecureCookies, BaseURL: cfg.BaseURL, Logger: logger, Live: hub, Signer: signer, TrustProxy: cfg.TrustProxy,
		GamesPerHour: gamesPerHour(cfg.GamesPerHour), Bots: bots, PrivateHooks: cfg.PrivateHooks, HashSlots: cfg.HashSlots})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	if cfg.Pprof != "" {
		go func() { logger.Info("pprof", "err", http.ListenAndServe(cfg.Pprof, pprofMux())) }()
	}
	base := cfg.BaseURL
	if base == "" {
		// Not the address a request came to: its Host header is the
		// client's to write, and a password reset link must not point
		// where an attacker says.
		base = "http://localhost:" + portOf(ln.Addr())
		logger.Warn("no -base-url (CACAO_BASE_URL): links in mail and push point at " + base + "; set it to the site's public address")
	}
	if cfg.Hello != nil {
		fmt.Fprintf(cfg.Hello, "Cacao is running at %s — data in %s\n", base, dataPlace(cfg.DB))
	}
	mailer := cfg.Mailer
	if mailer == nil {
		logger.Info("no SMTP server configured (CACAO_SMTP_HOST): mail is written to this log")
		mailer = mail.NewLog(logger)
	}
	keys, err := push.LoadKeys(store)
	if err != nil {
		return err
	}
	outbound := hook.Client(cfg.PrivateHooks)
	sender := &push.Sender{Keys: keys, Subscriber: pushContact(base), Client: outbound}
	worker := &Worker{Store: store, Bots: bots, Outbox: &mail.Outbox{Store: store, Mailer: mailer, Signer: signer, BaseURL: base, Log: logger, Push: sender, Hooks: outbound},
		Every: cfg.WorkEvery, Log: logger}
	wctx, stopWorker := context.WithCancel(context.Background())
	workerDone := make(chan struct{})
	go func() { defer close(workerDone); worker.Run(wctx) }()
	defer func() { stopWorker(); <-workerDone }()
	// A request's headers and body must arrive within 15 seconds (a form is
	// at most 64 KB): a client that sends them a byte at a time holds only
	// its own connection, and not for long.
	srv := &http.Server{Handler: e, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 15 * time.Second, WriteTimeout: 30 * time.Second}
	if !cfg.TrustProxy {
		max := cfg.MaxConnsPerAddress
		if max <= 0 {
			max = 64
		}
		ln = limitPerAddress(ln, max)
	}
	srv.RegisterOnShutdown(hub.Close) // end event streams, or Shutdown would wait for them
	logger.Info("listening", "addr", ln.Addr().String(), "db", models.Redacted(cfg.DB))
	if ready != nil {
		ready <- ln.Addr().String()
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// pprofMux serves the runtime's profiles, apart from the site.
func pprofMux() *http.ServeMux {
	m := http.NewServeMux()
	m.HandleFunc("/debug/pprof/", pprof.Index)
	m.HandleFunc("/debug/pprof/profile", pprof.Profile)
	m.HandleFunc("/debug/pprof/heap", pprof.Index)
	return m
}

// gamesPerHour turns the flag's value (0: no limit) into the web layer's
// (0: its default; below 0: no limit).
func gamesPerHour(flag int) int {
	if flag == 0 {
		return -1
	}
	return flag
}
