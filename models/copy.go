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
// columns' defaults would otherwise replace); then it checks that every
// table counts the same rows in both. progress is told each table copied.
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
			if to.pg && tx.Migrator().HasColumn(t, "id") && n > 0 {
				name := tableName(tx, t)
				err := tx.Exec(fmt.Sprintf("SELECT setval(pg_get_serial_sequence('%s', 'id'), (SELECT MAX(id) FROM %s))", name, name)).Error
				if err != nil {
					return err
				}
			}
			if progress != nil {
				progress(tableName(from.db, t), n)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, t := range tables {
		var a, b int64
		if err := from.db.Model(t).Count(&a).Error; err != nil {
			return err
		}
		if err := to.db.Model(t).Count(&b).Error; err != nil {
			return err
		}
		if a != b {
			return fmt.Errorf("models: %s has %d rows here and %d in the copy", tableName(from.db, t), a, b)
		}
	}
	return nil
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
