package handlers_test

import (
	"path/filepath"
	"strings"
	"testing"

	"gorm.io/driver/postgres"
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"

	"cacao/models/modeltest"
)

// newSiteDirect is newSite on a database the test may also change
// directly, with exec: for what no page can set up quickly (a hundred
// rated games).
func newSiteDirect(t *testing.T) (s *site, exec func(query string, args ...any)) {
	t.Helper()
	dsn := modeltest.DB(t)
	dialect := postgres.Open(dsn)
	if !strings.HasPrefix(dsn, "postgres") {
		dsn = filepath.Join(t.TempDir(), "site.db")
		dialect = sqlite.Open(dsn)
	}
	s = newSiteAt(t, dsn, nil)
	db, err := gorm.Open(dialect, &gorm.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if d, err := db.DB(); err == nil {
			d.Close()
		}
	})
	return s, func(query string, args ...any) {
		t.Helper()
		if err := db.Exec(query, args...).Error; err != nil {
			t.Fatalf("%s: %v", query, err)
		}
	}
}
