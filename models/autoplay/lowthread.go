package autoplay

import "runtime"

// lowThread starts a goroutine on a thread of its own at the lowest
// priority (yieldToPages) and returns think, which runs a search there and
// waits for it, and done, which ends the goroutine and its thread. Only
// searches run there: a load or commit on a thread that gets the CPU last
// would hold the database from every other player.
func lowThread() (think thinker, done func()) {
	work := make(chan func())
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		yieldToPages()
		for f := range work {
			f()
		}
	}()
	think = func(f func()) {
		finished := make(chan struct{})
		work <- func() { defer close(finished); f() }
		<-finished
	}
	return think, func() { close(work) }
}
