//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// siteLock takes the lock that says a site runs on the SQLite file db: an
// exclusive lock of the whole file (flock, apart from SQLite's own locks,
// which it does not touch). serve holds it while it runs; migrate takes it
// to be sure that nothing writes while it copies. release gives it back,
// as does the end of the process.
func siteLock(db string) (release func(), err error) {
	f, err := os.Open(db)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s", errSiteRuns, db)
		}
		return nil, err
	}
	return func() { f.Close() }, nil
}
