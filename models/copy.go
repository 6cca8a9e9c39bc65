package models

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/schema"
)

// ErrNotEmpty refuses to copy a site into a database that holds one.
var ErrNotEmpty = errors.New("models: the database to copy into is not empty")

// ErrNameClash refuses to copy a site with names that differ only in
// capitals, which PostgreSQL's index keeps apart no more than a sign-up
// does: its message lists them.
var ErrNameClash = errors.New("models: accounts whose names differ only in capitals")

// ErrCopyBehind refuses a copy in which a game's version is behind its
// log: the site wrote while it was copied.
var ErrCopyBehind = errors.New("models: a game's version is behind its log in the copy")

// copyBatch is how many rows a statement of Copy writes.
const copyBatch = 500

// Copy copies every table of the site in from into to, a new database
// (an empty PostgreSQL database, say: ErrNotEmpty otherwise), in one
// transaction, each row as it is (ids, times, and zero values that the
// columns' defaults would otherwise replace), checking that every table
// counts in the copy the rows read. progress is told each table
// copied.
// Nothing may write to from meanwhile: stop the site first.
func Copy(from, to *Store, progress func(table string, rows int64)) error {
	for _, t := range tables {
		var n int64
		if err := to.db.Model(t).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("%w: %s has %d rows", ErrNotEmpty, tableName(to.db, t), n)
		}
	}
	if err := nameClashes(from.db); err != nil {
		return err
	}
	err := to.w.Transaction(func(tx *gorm.DB) error {
		for _, t := range tables {
			sch, err := schemaOf(from.db, t)
			if err != nil {
				return err
			}
			rows := reflect.New(reflect.SliceOf(reflect.TypeOf(t).Elem())).Interface()
			var n int64
			err = from.db.Model(t).FindInBatches(rows, copyBatch, func(_ *gorm.DB, batch int) error {
				rv := reflect.ValueOf(rows).Elem()
				n += int64(rv.Len())
				// As maps: a struct's zero values would take the columns'
				// defaults.
				maps := make([]map[string]any, rv.Len())
				for i := range maps {
					maps[i] = map[string]any{}
					for _, f := range sch.Fields {
						if f.DBName != "" {
							maps[i][f.DBName], _ = f.ValueOf(tx.Statement.Context, rv.Index(i))
						}
					}
				}
				return tx.Table(sch.Table).Create(&maps).Error
			}).Error
			if err != nil {
				return fmt.Errorf("models: copying %s: %w", sch.Table, err)
			}
			var m int64
			if err := tx.Table(sch.Table).Count(&m).Error; err != nil {
				return err
			}
			if m != n {
				return fmt.Errorf("models: %s has %d rows here and %d in the copy", sch.Table, n, m)
			}
			if to.pg && n > 0 && tx.Migrator().HasColumn(t, "id") {
				if err := resetSequence(tx, sch.Table); err != nil {
					return err
				}
			}
			if progress != nil {
				progress(tableName(from.db, t), n)
			}
		}
		return versionsCover(tx)
	})
	return err
}

// nameClashes lists, as ErrNameClash, the accounts of db whose names
// differ only in capitals.
func nameClashes(db *gorm.DB) error {
	var users []User
	err := db.Select("id", "username").Where("lower(username) IN (?)",
		db.Model(&User{}).Select("lower(username)").Group("lower(username)").Having("COUNT(*) > 1")).Order("lower(username), id").Find(&users).Error
	if err != nil || len(users) == 0 {
		return err
	}
	groups := map[string][]string{}
	var order []string
	for _, u := range users {
		k := strings.ToLower(u.Username)
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], u.Username)
	}
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = strings.Join(groups[k], " and ")
	}
	return fmt.Errorf("%w: %s", ErrNameClash, strings.Join(parts, "; "))
}

// versionsCover refuses, as ErrCopyBehind, a copy in which a game's
// version is behind the newest version its log entries were written at.
func versionsCover(tx *gorm.DB) error {
	var behind []struct {
		ID      uint
		Version int
		Logged  int
	}
	err := tx.Table("games").Select("games.id, games.version, MAX(log_entries.version) AS logged").
		Joins("JOIN log_entries ON log_entries.game_id = games.id").Group("games.id, games.version").
		Having("MAX(log_entries.version) > games.version").Order("games.id").Limit(20).Scan(&behind).Error
	if err != nil || len(behind) == 0 {
		return err
	}
	parts := make([]string, len(behind))
	for i, b := range behind {
		parts[i] = fmt.Sprintf("game %d at version %d, its log at %d", b.ID, b.Version, b.Logged)
	}
	return fmt.Errorf("%w: %s", ErrCopyBehind, strings.Join(parts, "; "))
}

// tableName is the table of model t.
func tableName(db *gorm.DB, t any) string {
	sch, err := schemaOf(db, t)
	if err != nil {
		return fmt.Sprintf("%T", t)
	}
	return sch.Table
}

// schemaOf is model t's schema.
func schemaOf(db *gorm.DB, t any) (*schema.Schema, error) {
	st := &gorm.Statement{DB: db}
	if err := st.Parse(t); err != nil {
		return nil, err
	}
	return st.Schema, nil
}

// resetSequence moves table's id sequence (PostgreSQL) past its rows,
// which came with their ids.
func resetSequence(tx *gorm.DB, table string) error {
	return tx.Exec(fmt.Sprintf("SELECT setval(pg_get_serial_sequence('%s', 'id'), (SELECT MAX(id) FROM %s))", table, table)).Error
}
