package main

import (
	"fmt"
	"io"

	"cacao/models"
)

// schemaCmd tells the version of a database's schema, or, as the owner of
// its tables, brings it to this release's (models.SchemaVersion): for a
// site whose own role may not change the tables (serve -migrate=false).
//
//	cacao schema [-db cacao.db] version|upgrade
func schemaCmd(args []string, stdout, stderr io.Writer) int {
	db, rest, ok := dbFlag("schema", args, stderr)
	if !ok || len(rest) != 1 || (rest[0] != "version" && rest[0] != "upgrade") {
		return usageOf("schema", "version|upgrade", stderr)
	}
	var opts []models.Option
	if rest[0] == "version" {
		opts = append(opts, models.WithoutMigrating())
	}
	store, err := models.Open(*db, opts...)
	if err != nil {
		fmt.Fprintln(stderr, "cacao:", err)
		return 1
	}
	defer store.Close()
	v, err := store.Schema()
	if err != nil {
		fmt.Fprintln(stderr, "cacao:", err)
		return 1
	}
	fmt.Fprintf(stdout, "the schema is at version %d, the one this release knows\n", v)
	return 0
}
