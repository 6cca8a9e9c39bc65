package main

import (
	"flag"
	"fmt"
	"io"

	"cacao/models"
)

// adminCmd grants or revokes the admin role (models.Store.SetAdmin); the
// audit log keeps it.
//
//	cacao admin [-db cacao.db] grant|revoke NAME
func adminCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("admin", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", envOr("CACAO_DB", "cacao.db"), "the site's SQLite file")
	err := fs.Parse(args)
	if err != nil || fs.NArg() != 2 || (fs.Arg(0) != "grant" && fs.Arg(0) != "revoke") {
		fmt.Fprintln(stderr, "usage: cacao admin [-db cacao.db] grant|revoke NAME")
		return 2
	}
	store, err := models.Open(*db)
	if err != nil {
		fmt.Fprintln(stderr, "cacao:", err)
		return 1
	}
	defer store.Close()
	grant, name := fs.Arg(0) == "grant", fs.Arg(1)
	u, err := store.SetAdmin(name, grant)
	if err != nil {
		fmt.Fprintf(stderr, "cacao: %s: %v\n", name, err)
		return 1
	}
	if grant {
		fmt.Fprintf(stdout, "%s is an admin\n", u.Username)
	} else {
		fmt.Fprintf(stdout, "%s is no longer an admin\n", u.Username)
	}
	return 0
}
