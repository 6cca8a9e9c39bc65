package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"cacao/models"
)

// errSiteRuns says that a site runs on a SQLite file (siteLock).
var errSiteRuns = errors.New("a site is running on this database")

// migrateCmd copies a site's SQLite database into an empty PostgreSQL
// database (models.Copy), every table, and checks the counts and that
// every game's version covers its log. It refuses a file a site runs on
// (siteLock).
//
//	cacao migrate -from cacao.db -to postgres://…
func migrateCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", envOr("CACAO_DB", "cacao.db"), "the site's SQLite file")
	to := fs.String("to", "", "the empty PostgreSQL database to copy it into (postgres://…)")
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 || !models.IsPostgres(*to) || models.IsPostgres(*from) {
		fmt.Fprintln(stderr, "usage: cacao migrate -from cacao.db -to postgres://USER@HOST/DB")
		return 2
	}
	if _, err := os.Stat(*from); err != nil { // Open would make a new, empty file
		fmt.Fprintln(stderr, "cacao:", err)
		return 1
	}
	// Nothing may write while the tables are copied one after the other.
	release, err := siteLock(*from)
	if err != nil {
		fmt.Fprintln(stderr, "cacao:", err)
		if errors.Is(err, errSiteRuns) {
			fmt.Fprintln(stderr, "cacao: stop the site before migrating it")
		}
		return 1
	}
	defer release()
	src, err := models.Open(*from)
	if err != nil {
		fmt.Fprintln(stderr, "cacao:", err)
		return 1
	}
	defer src.Close()
	dst, err := models.Open(*to)
	if err != nil {
		fmt.Fprintln(stderr, "cacao:", err)
		return 1
	}
	defer dst.Close()
	err = models.Copy(src, dst, func(table string, n int64) { fmt.Fprintf(stdout, "%-15s %d rows\n", table, n) })
	if err != nil {
		fmt.Fprintln(stderr, "cacao:", err)
		switch {
		case errors.Is(err, models.ErrNotEmpty):
			fmt.Fprintln(stderr, "cacao: migrate copies into a new, empty database only")
		case errors.Is(err, models.ErrNameClash):
			fmt.Fprintln(stderr, "cacao: rename all but one of each with `cacao admin -db", *from, "rename NAME NEWNAME`, then migrate again")
		case errors.Is(err, models.ErrCopyBehind):
			fmt.Fprintln(stderr, "cacao: nothing was copied; stop the site, then migrate again into a new, empty database")
		}
		return 1
	}
	fmt.Fprintf(stdout, "copied %s to %s; every table counts the same rows in both, and every game's version covers its log\n", *from, models.Redacted(*to))
	return 0
}
