// Command cacao is the Cacao site and its tools.
//
//	cacao [serve] [-addr :8080] [-db cacao.db] [-base-url URL] [-secure-cookies] [-work-every 15s] …
//	cacao replay FILE|-
//	cacao backup [-db cacao.db] FILE
//	cacao admin [-db cacao.db] grant|revoke NAME | rename NAME NEWNAME
//	cacao schema [-db cacao.db] version|upgrade
//	cacao migrate -from cacao.db -to postgres://…
//
// serve (the default) starts the site on an SQLite file, created and migrated
// on first start, or on PostgreSQL (below); its flags and the environment
// variables they fall back to are listed in the README and by cacao serve
// -h. A background worker enforces turn deadlines, runs the tournaments,
// sends reminders and digests and delivers mail, push and webhooks. replay
// checks and plays a game record (the engine package doc's Records). backup
// copies the database to a new file while the site runs. admin grants or
// revokes the admin role (admins get the pages under /admin) and renames
// accounts. schema prints the schema's version or brings it up to date.
//
// # PostgreSQL and several instances
//
// A site that outgrows one machine runs several `cacao serve` on one PostgreSQL database
// (`CACAO_DB=postgres://USER@HOST/DB`, the password in `PGPASSWORD` or `~/.pgpass`), behind a
// proxy, their clocks kept by NTP. Sessions, limits, the outbox, the keys and the games are in the
// database; a move on one instance reaches the pages open on the others at once (`LISTEN`/`NOTIFY`;
// a listener that loses its connection says so in the log, tries again every second, and once back
// tells the pages of every game changed meanwhile);
// every instance runs the worker, each step guarded, so a timeout is played once and a mail sent once.
// Keep the instances' `-db-max-conns` (plus one each) under the role's connection limit; past it, or
// with the database away, pages answer 503, not 500, as they do when all of an instance's
// connections stay busy for 3 seconds. Behind PgBouncer use session pooling: the change
// listener's `LISTEN` belongs to its connection, which transaction pooling would hand to others.
// Stop the old instances before starting a new version. To move a running site from SQLite:
//
//	createdb -O cacao cacao                                   # a new, empty database
//	systemctl stop cacao
//	cacao backup -db cacao.db /backups/cacao-before-pg.db     # the way back
//	cacao migrate -from cacao.db -to postgres://cacao@localhost/cacao   # copies and checks every table
//	# set CACAO_DB=postgres://cacao@localhost/cacao in the unit, then
//	systemctl start cacao
//
// `migrate` refuses a file a site is running on (stop it first), refuses accounts whose names differ
// only in capitals (it lists them; rename all but one), and checks that every game's version covers
// its log; a refused copy leaves the new database empty. Back PostgreSQL up with `pg_dump`.
package main
