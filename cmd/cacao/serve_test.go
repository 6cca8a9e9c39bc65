package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cacao/handlers/mail/mailtest"
	"cacao/models"
	"cacao/models/modeltest"
)

// syncBuffer is a log sink safe to read while the server writes.
type syncBuffer = modeltest.SyncBuffer

// TestServeStartsAndStops: the site starts on a fresh database file, says
// in a plain line where it answers and where its data is, answers
// /healthz and pages, logs requests as JSON, and shuts down when told.
func TestServeStartsAndStops(t *testing.T) {
	db := filepath.Join(t.TempDir(), "site.db")
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	var logs, hello syncBuffer
	done := make(chan error, 1)
	go func() { done <- serve(ctx, Config{Addr: "127.0.0.1:0", DB: db, Hello: &hello}, &logs, ready) }()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatal(err)
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not start")
	}
	_, port, _ := strings.Cut(addr, ":")
	if want := "Cacao is running at http://localhost:" + port + " — data in " + db + "\n"; hello.String() != want {
		t.Errorf("the line for a newcomer: %q; want %q", hello.String(), want)
	}
	res, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(body) != "ok" {
		t.Fatalf("healthz: %d %q", res.StatusCode, body)
	}
	res, err = http.Get("http://" + addr + "/")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("home: %v %v", res, err)
	}
	res.Body.Close()
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("database file not created: %v", err)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shutdown: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the server did not stop")
	}
	if !strings.Contains(logs.String(), `"msg":"request"`) || !strings.Contains(logs.String(), `"path":"/healthz"`) {
		t.Fatalf("no structured request log:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), `"level":"WARN","msg":"no -base-url (CACAO_BASE_URL): links in mail and push point at http://localhost:`+port) {
		t.Fatalf("no warning that mail links point at localhost:\n%s", logs.String())
	}
}

func TestConfigFromFlagsAndEnvironment(t *testing.T) {
	env := map[string]string{"CACAO_ADDR": ":9000", "CACAO_DB": "/tmp/x.db", "CACAO_SECURE_COOKIES": "1"}
	cfg, err := parseConfig(nil, func(k string) string { return env[k] }, io.Discard)
	if err != nil || cfg.Addr != ":9000" || cfg.DB != "/tmp/x.db" || !cfg.SecureCookies {
		t.Fatalf("from the environment: %+v %v", cfg, err)
	}
	cfg, err = parseConfig([]string{"-addr", "127.0.0.1:1", "-db", "a.db", "-base-url", "https://c.example"}, func(k string) string { return env[k] }, io.Discard)
	if err != nil || cfg.Addr != "127.0.0.1:1" || cfg.DB != "a.db" || cfg.BaseURL != "https://c.example" {
		t.Fatalf("flags over the environment: %+v %v", cfg, err)
	}
	cfg, _ = parseConfig(nil, func(string) string { return "" }, io.Discard)
	if cfg.Addr != ":8080" || cfg.DB != "cacao.db" || cfg.SecureCookies || cfg.MemoryLimitMB != 128 {
		t.Fatalf("defaults: %+v", cfg)
	}
	cfg, _ = parseConfig(nil, func(k string) string { return map[string]string{"CACAO_MEMORY_LIMIT_MB": "0"}[k] }, io.Discard)
	if cfg.MemoryLimitMB != 0 {
		t.Fatalf("no memory limit from the environment: %+v", cfg)
	}
	if cfg, _ = parseConfig([]string{"-memory-limit-mb", "300"}, func(string) string { return "" }, io.Discard); cfg.MemoryLimitMB != 300 {
		t.Fatalf("a memory limit by flag: %+v", cfg)
	}
	goLimit := func(k string) string { return map[string]string{"GOMEMLIMIT": "1GiB"}[k] }
	if cfg, _ = parseConfig(nil, goLimit, io.Discard); cfg.MemoryLimitMB != 0 {
		t.Fatalf("GOMEMLIMIT set, yet the site sets its own limit: %+v", cfg)
	}
	if cfg, _ = parseConfig([]string{"-memory-limit-mb", "200"}, goLimit, io.Discard); cfg.MemoryLimitMB != 200 {
		t.Fatalf("the flag over GOMEMLIMIT: %+v", cfg)
	}
	if cfg, _ = parseConfig(nil, func(string) string { return "" }, io.Discard); cfg.DBMaxConns != models.DefaultConns || cfg.DBStatementTimeout != 0 {
		t.Fatalf("the pool's defaults: %+v", cfg)
	}
	pool := func(k string) string {
		return map[string]string{"CACAO_DB_MAX_CONNS": "5", "CACAO_DB_STATEMENT_TIMEOUT": "3s"}[k]
	}
	if cfg, _ = parseConfig(nil, pool, io.Discard); cfg.DBMaxConns != 5 || cfg.DBStatementTimeout != 3*time.Second {
		t.Fatalf("the pool from the environment: %+v", cfg)
	}
	if cfg, _ = parseConfig([]string{"-db-max-conns", "7", "-db-statement-timeout", "500ms"}, pool, io.Discard); cfg.DBMaxConns != 7 || cfg.DBStatementTimeout != 500*time.Millisecond {
		t.Fatalf("the pool by flag: %+v", cfg)
	}
	var warned bytes.Buffer
	parseConfig([]string{"-db", "postgres://cacao:s3cret@db.example/cacao"}, func(string) string { return "" }, &warned)
	if !strings.Contains(warned.String(), "the password in -db shows in ps") {
		t.Fatalf("no warning of a password in -db: %q", warned.String())
	}
	warned.Reset()
	parseConfig(nil, func(k string) string {
		return map[string]string{"CACAO_DB": "postgres://cacao:s3cret@db.example/cacao"}[k]
	}, &warned)
	if warned.Len() > 0 {
		t.Fatalf("a warning for a password in the environment, which ps does not show: %q", warned.String())
	}
	if _, err := parseConfig([]string{"-nope"}, func(string) string { return "" }, io.Discard); err == nil {
		t.Fatal("an unknown flag was accepted")
	}
}

// TestServeWorkerDeliversMail: with CACAO_SMTP_* set, the background worker
// of a running server delivers the outbox through that SMTP server — here a
// confirmation mail queued before the server started (the outbox lives in
// the database, so nothing queued is lost across restarts).
func TestServeWorkerDeliversMail(t *testing.T) {
	smtp := mailtest.Start(t)
	db := filepath.Join(t.TempDir(), "site.db")
	store, err := models.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	u, err := store.CreateUser("ana", "password-ana")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.SetEmail(u.ID, "ana@example.test", models.MailEach); err != nil {
		t.Fatal(err)
	}
	store.Close()
	env := map[string]string{"CACAO_SMTP_HOST": smtp.Host(), "CACAO_SMTP_PORT": fmt.Sprint(smtp.Port()), "CACAO_SMTP_FROM": "cacao@example.test"}
	cfg, err := parseConfig([]string{"-addr", "127.0.0.1:0", "-db", db, "-work-every", "50ms", "-base-url", "https://cacao.example"}, func(k string) string { return env[k] }, io.Discard)
	if err != nil || cfg.Mailer == nil {
		t.Fatalf("SMTP from the environment: %+v %v", cfg, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	var logs syncBuffer
	go func() { done <- serve(ctx, cfg, &logs, ready) }()
	<-ready
	deadline := time.Now().Add(20 * time.Second)
	for len(smtp.Messages()) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	msgs := smtp.Messages()
	if len(msgs) != 1 || msgs[0].To[0] != "ana@example.test" || !strings.Contains(msgs[0].Data, "https://cacao.example/m/verify?t=") {
		t.Fatalf("want one confirmation mail with a link on the base URL; got %d:\n%+v\nlog:\n%s", len(msgs), msgs, logs.String())
	}
}

// TestDataPlace: the plain start line names a SQLite file as a path to
// find from where the site was started, and a PostgreSQL database without
// its password.
func TestDataPlace(t *testing.T) {
	for db, want := range map[string]string{
		"cacao.db":            "./cacao.db",
		"data/cacao.db":       "./data/cacao.db",
		"/srv/cacao/cacao.db": "/srv/cacao/cacao.db",
		"postgres://cacao:s3cret@db.example/cacao": "postgres://cacao:xxxxx@db.example/cacao",
	} {
		if got := dataPlace(db); got != want {
			t.Errorf("dataPlace(%q) = %q; want %q", db, got, want)
		}
	}
}
