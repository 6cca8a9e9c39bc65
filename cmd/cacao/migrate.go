package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"cacao/models"
)

// migrateCmd copies a site's SQLite database into an empty PostgreSQL
// database (models.Copy), every table, and checks the counts. The site
// must be stopped meanwhile.
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
		if errors.Is(err, models.ErrNotEmpty) {
			fmt.Fprintln(stderr, "cacao: migrate copies into a new, empty database only")
		}
		return 1
	}
	fmt.Fprintf(stdout, "copied %s to %s; every table counts the same rows in both\n", *from, models.Redacted(*to))
	return 0
}
