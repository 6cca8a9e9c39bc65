package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"cacao/models"
)

// backupCmd writes a consistent copy of the site's database to a new file
// while the site may be running (models.Backup).
//
//	cacao backup [-db cacao.db] FILE
func backupCmd(args []string, stdout, stderr io.Writer) int {
	db, rest, ok := dbFlag("backup", args, stderr)
	if !ok || len(rest) != 1 {
		return usageOf("backup", "FILE", stderr)
	}
	to := rest[0]
	if err := models.Backup(*db, to); err != nil {
		fmt.Fprintln(stderr, "cacao:", err)
		return 1
	}
	fmt.Fprintf(stdout, "backed up %s to %s\n", *db, to)
	return 0
}

// dbFlag parses a tool's -db flag (the site's SQLite file, CACAO_DB) from
// args and returns it with the other arguments; false when args do not
// parse (the flag package said why).
func dbFlag(name string, args []string, stderr io.Writer) (*string, []string, bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", envOr("CACAO_DB", "cacao.db"), "the site's SQLite file")
	if err := fs.Parse(args); err != nil {
		return nil, nil, false
	}
	return db, fs.Args(), true
}

// usageOf says how a tool is used, and returns the exit code of a bad use.
func usageOf(name, operands string, stderr io.Writer) int {
	fmt.Fprintf(stderr, "usage: cacao %s [-db cacao.db] %s\n", name, operands)
	return 2
}

func envOr(key, fallback string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return fallback
}
