package main

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
//
//	createdb -O cacao cacao                                   # a new, empty database
//	systemctl stop cacao
//	cacao backup -db cacao.db /backups/cacao-before-pg.db     # the way back
//	cacao migrate -from cacao.db -to postgres://cacao@localhost/cacao   # copies and checks every table
//	# set CACAO_DB=postgres://cacao@localhost/cacao in the unit, then
//	systemctl start cacao
//
//
// `migrate` refuses a file a site is running on (stop it first), refuses accounts whose names differ
// only in capitals (it lists them; rename all but one), and checks that every game's version covers
// its log; a refused copy leaves the new database empty. Back PostgreSQL up with `pg_dump`.
