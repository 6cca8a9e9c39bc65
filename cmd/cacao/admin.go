package main

import (
	"fmt"
	"io"

	"cacao/models"
)

// adminCmd grants or revokes the admin role (models.Store.SetAdmin), or
// renames an account (models.Store.RenameUser); the audit log keeps it.
//
//	cacao admin [-db cacao.db] grant|revoke NAME
//	cacao admin [-db cacao.db] rename NAME NEWNAME
func adminCmd(args []string, stdout, stderr io.Writer) int {
	db, rest, ok := dbFlag("admin", args, stderr)
	rename := ok && len(rest) == 3 && rest[0] == "rename"
	if !ok || !rename && (len(rest) != 2 || (rest[0] != "grant" && rest[0] != "revoke")) {
		return usageOf("admin", "grant|revoke NAME, or rename NAME NEWNAME", stderr)
	}
	store, err := models.Open(*db)
	if err != nil {
		fmt.Fprintln(stderr, "cacao:", err)
		return 1
	}
	defer store.Close()
	if rename {
		u, err := store.RenameUser(rest[1], rest[2])
		if err != nil {
			fmt.Fprintf(stderr, "cacao: %s: %v\n", rest[1], err)
			return 1
		}
		fmt.Fprintf(stdout, "%s is now %s\n", rest[1], u.Username)
		return 0
	}
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
