package models

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// Backup writes a consistent copy of the SQLite database at path to the
// new file to (SQLite's VACUUM INTO: one read transaction, so a site
// using the database meanwhile goes on, and the copy is the database as
// of one moment). It never overwrites a file. Restoring is stopping the
// site, putting the copy in the database's place (its -wal and -shm files
// removed) and starting it again.
func Backup(path, to string) error {
	if IsPostgres(path) {
		return errors.New("models: backup copies a SQLite file; back a PostgreSQL database up with pg_dump")
	}
	if _, err := os.Stat(to); err == nil {
		return fmt.Errorf("models: backup: %s exists; a backup never overwrites a file", to)
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("models: backup: %w", err)
	}
	dsn := "file:" + strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path) + "?_busy_timeout=5000&mode=ro"
	db, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		return fmt.Errorf("models: backup: open %s: %w", path, err)
	}
	defer closeDB(db)
	if err := db.Exec("VACUUM INTO ?", to).Error; err != nil {
		return fmt.Errorf("models: backup to %s: %w", to, err)
	}
	return nil
}
