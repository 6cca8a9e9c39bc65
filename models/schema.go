package models

import (
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// steps are the schema's changes, in order: step n brings a database from
// version n-1 to n. Each runs once, in the transaction that records it in
// schema_versions. A change to the tables is a new step at the end, never
// an edit of one that a site may have run.
var steps = []func(tx *gorm.DB) error{
	baseline,      // 1
	workerIndexes, // 2
	guests,        // 3
}

// guests adds the marks of guest players (User.Guest, Seat.Guest). The
// baseline makes them on a new database, so each is added only if missing.
func guests(tx *gorm.DB) error {
	for _, c := range []struct {
		model any
		field string
	}{{&User{}, "Guest"}, {&Seat{}, "Guest"}} {
		if tx.Migrator().HasColumn(c.model, c.field) {
			continue
		}
		if err := tx.Migrator().AddColumn(c.model, c.field); err != nil {
			return err
		}
	}
	return nil
}

// workerIndexes lets the worker's and the public list's reads find their
// rows without going through every running game or every account: the bots'
// seats that wait, by how long (StalledBots); the accounts that take a
// digest, by their last (QueueDigests); the public running games, counted
// and listed from the index alone (PublicGames).
func workerIndexes(tx *gorm.DB) error {
	for _, q := range []string{
		"CREATE INDEX IF NOT EXISTS idx_seats_bots_waiting ON seats (waiting_since) WHERE bot <> '' OR abandoned",
		"CREATE INDEX IF NOT EXISTS idx_users_digest ON users (last_digest_at) WHERE digest_news <> 0 AND email_verified",
		"CREATE INDEX IF NOT EXISTS idx_games_public ON games (status, private, id)",
	} {
		if err := tx.Exec(q).Error; err != nil {
			return err
		}
	}
	return nil
}

// SchemaVersion is the version of the schema this release knows.
var SchemaVersion = len(steps)

// SchemaStep records a step run on the database.
type SchemaStep struct {
	Version int `gorm:"primaryKey;autoIncrement:false"`
	RanAt   time.Time
}

// ErrSchemaAhead refuses a database whose schema a newer release made.
var ErrSchemaAhead = errors.New("models: the database's schema is newer than this release")

// ErrSchemaBehind refuses, when the store may not migrate, a database
// whose schema is older than this release's.
var ErrSchemaBehind = errors.New("models: the database's schema is older than this release")

// upgrade brings the schema in tx to SchemaVersion, when migrate allows,
// running the steps it lacks; it refuses a schema ahead of this release's,
// and, without migrate, one behind it.
func upgrade(tx *gorm.DB, migrate bool) error {
	at, err := schemaAt(tx)
	if err != nil {
		return err
	}
	switch {
	case at > SchemaVersion:
		return fmt.Errorf("%w: it is at version %d, this release knows %d: run the release that made it, or a newer one", ErrSchemaAhead, at, SchemaVersion)
	case at == SchemaVersion:
		return nil
	case !migrate:
		return fmt.Errorf("%w: it is at version %d, this release needs %d: run `cacao schema upgrade` as the database's owner", ErrSchemaBehind, at, SchemaVersion)
	}
	if err := tx.AutoMigrate(&SchemaStep{}); err != nil {
		return err
	}
	for v := at + 1; v <= SchemaVersion; v++ {
		err := tx.Transaction(func(tx *gorm.DB) error { // a savepoint: the step and its record, or neither
			if err := steps[v-1](tx); err != nil {
				return err
			}
			return tx.Create(&SchemaStep{Version: v, RanAt: time.Now().UTC()}).Error
		})
		if err != nil {
			return fmt.Errorf("models: schema step %d: %w", v, err)
		}
	}
	return nil
}

// schemaAt is the version of the schema in db: 0 for an empty database or
// one from before versioned steps.
func schemaAt(db *gorm.DB) (int, error) {
	if !db.Migrator().HasTable(&SchemaStep{}) {
		return 0, nil
	}
	var at int
	err := db.Model(&SchemaStep{}).Select("COALESCE(MAX(version), 0)").Scan(&at).Error
	return at, err
}

// Schema is the version of the database's schema.
func (s *Store) Schema() (int, error) { return schemaAt(s.db) }
