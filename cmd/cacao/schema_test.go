package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"cacao/models"
)

// TestSchemaCommand: a site whose role may not change the tables starts
// with -migrate=false on a schema that is up to date, and refuses one
// behind, saying what to run; cacao schema upgrade, as the owner, brings it
// up to date, and version tells it.
func TestSchemaCommand(t *testing.T) {
	db, store, _ := siteWith(t, "alice")
	store.Close()
	sqlite(t, db, "DROP TABLE schema_steps") // as a release before versions left it
	cfg, err := parseConfig([]string{"-migrate=false", "-db", db, "-addr", "127.0.0.1:0"}, func(string) string { return "" }, io.Discard)
	if err != nil || !cfg.KeepSchema {
		t.Fatalf("-migrate=false: %+v %v", cfg, err)
	}
	cfg.WorkEvery = time.Hour
	if err := serve(context.Background(), cfg, io.Discard, nil); err == nil || !strings.Contains(err.Error(), "run `cacao schema upgrade` as the database's owner") {
		t.Fatalf("serve -migrate=false on a schema behind: %v", err)
	}
	var out, errs bytes.Buffer
	if code := run([]string{"schema", "-db", db, "version"}, nil, &out, &errs); code != 1 || !strings.Contains(errs.String(), "it is at version 0") {
		t.Fatalf("schema version of a schema behind: %d %s%s", code, out.String(), errs.String())
	}
	want := fmt.Sprintf("the schema is at version %d, the one this release knows", models.SchemaVersion)
	if code := run([]string{"schema", "-db", db, "upgrade"}, nil, &out, &errs); code != 0 || !strings.Contains(out.String(), want) {
		t.Fatalf("schema upgrade: %d %s%s", code, out.String(), errs.String())
	}
	out.Reset()
	if code := run([]string{"schema", "-db", db, "version"}, nil, &out, &errs); code != 0 || !strings.Contains(out.String(), want) {
		t.Fatalf("schema version once upgraded: %d %s%s", code, out.String(), errs.String())
	}
	ctx, stop := context.WithCancel(context.Background())
	ready, done := make(chan string, 1), make(chan error, 1)
	go func() { done <- serve(ctx, cfg, io.Discard, ready) }()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("serve -migrate=false on an up-to-date schema: %v", err)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
