// Package lowcpu runs work that needs a core for a long while and holds
// nothing another request waits on (a bot's search, a password hash) on
// threads of their own, at a lower priority than the threads that serve
// the pages: when the cores are busy, the pages go first.
//
// A locked thread still needs one of the Go runtime's Ps (GOMAXPROCS) to
// run; a program that adds a P for each such thread (cacao serve does)
// keeps the cores' Ps for the pages. Never run a database transaction
// there: a commit on a thread that gets the CPU last holds the database
// from every other player.
package lowcpu

import "runtime"

// Level is how far below the pages a thread runs.
type Level int

const (
	// Idle takes only the time nothing else wants (SCHED_IDLE, nice 19):
	// the bots' searches, which may take seconds.
	Idle Level = iota
	// Low runs behind the pages but ahead of Idle (nice 10, about a tenth
	// of a core's time when a page's thread wants it too): password
	// hashes, which a person waits for.
	Low
)

// Threads starts n goroutines, each on a thread of its own at level, and
// returns run, which runs f on one of them once it is free and returns
// when f has, and stop, which ends them once the runs under way are
// done. run must not be called after stop.
func Threads(n int, level Level) (run func(f func()), stop func()) {
	work := make(chan func())
	for range max(n, 1) {
		go func() {
			runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
			lower(level)
			for f := range work {
				f()
			}
		}()
	}
	run = func(f func()) {
		finished := make(chan struct{})
		work <- func() { defer close(finished); f() }
		<-finished
	}
	return run, func() { close(work) }
}
