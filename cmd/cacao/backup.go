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
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", envOr("CACAO_DB", "cacao.db"), "the site's SQLite file")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: cacao backup [-db cacao.db] FILE")
		return 2
	}
	if err := models.Backup(*db, fs.Arg(0)); err != nil {
		fmt.Fprintln(stderr, "cacao:", err)
		return 1
	}
	fmt.Fprintf(stdout, "backed up %s to %s\n", *db, fs.Arg(0))
	return 0
}

func envOr(key, fallback string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return fallback
}
