package models

import (
	"errors"
	"fmt"
	"reflect"

	"gorm.io/gorm"
	"gorm.io/gorm/schema"
)

// ErrNotEmpty refuses to copy a site into a database that holds one.
var ErrNotEmpty = errors.New("models: the database to copy into is not empty")

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
		return nil
	})
	return err
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
