package main

import (
	"fmt"
	"io"

	"cacao/models"
)

// adminCmd grants or revokes the admin role (models.Store.SetAdmin); the
// audit log keeps it.
//
//	cacao admin [-db cacao.db] grant|revoke NAME
func adminCmd(args []string, stdout, stderr io.Writer) int {
	db, rest, ok := dbFlag("admin", args, stderr)
	if !ok || len(rest) != 2 || (rest[0] != "grant" && rest[0] != "revoke") {
		return usageOf("admin", "grant|revoke NAME", stderr)
	}
	store, err := models.Open(*db)
	if err != nil {
		fmt.Fprintln(stderr, "cacao:", err)
		return 1
	}
	defer store.Close()
	grant, name := rest[0] == "grant", rest[1]
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
