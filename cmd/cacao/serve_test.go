package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a log sink safe to read while the server writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeStartsAndStops: the site starts on a fresh database file, answers
// /healthz and pages, logs requests as JSON, and shuts down when told.
func TestServeStartsAndStops(t *testing.T) {
	db := filepath.Join(t.TempDir(), "site.db")
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	var logs syncBuffer
	done := make(chan error, 1)
	go func() { done <- serve(ctx, Config{Addr: "127.0.0.1:0", DB: db}, &logs, ready) }()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatal(err)
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not start")
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
	if cfg.Addr != ":8080" || cfg.DB != "cacao.db" || cfg.SecureCookies {
		t.Fatalf("defaults: %+v", cfg)
	}
	if _, err := parseConfig([]string{"-nope"}, func(string) string { return "" }, io.Discard); err == nil {
		t.Fatal("an unknown flag was accepted")
	}
}
