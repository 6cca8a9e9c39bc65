package lowcpu_test

import (
	"sync"
	"syscall"
	"testing"

	"cacao/models/lowcpu"
)

// schedIdle is Linux's SCHED_IDLE.
const schedIdle = 5

// schedPolicy is the calling thread's scheduling policy
// (sched_getscheduler).
func schedPolicy() int {
	p, _, _ := syscall.RawSyscall(syscall.SYS_SCHED_GETSCHEDULER, uintptr(syscall.Gettid()), 0, 0)
	return int(p)
}

// Each level runs its work at its priority (Linux's getpriority answers
// 20 - nice), and the caller's thread keeps its own.
func TestThreadsRunAtTheirLevel(t *testing.T) {
	for _, tc := range []struct {
		name   string
		level  lowcpu.Level
		prio   int
		policy int
	}{
		{"idle", lowcpu.Idle, 1, schedIdle},
		{"low", lowcpu.Low, 10, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mine, _ := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
			myPolicy := schedPolicy()
			run, stop := lowcpu.Threads(1, tc.level)
			defer stop()
			var prio, policy int
			run(func() {
				prio, _ = syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
				policy = schedPolicy()
			})
			if prio != tc.prio || policy != tc.policy {
				t.Errorf("work ran at getpriority %d, policy %d; want %d, %d", prio, policy, tc.prio, tc.policy)
			}
			if now, _ := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid()); now != mine || schedPolicy() != myPolicy {
				t.Errorf("the caller's thread was lowered too (getpriority %d, policy %d)", now, schedPolicy())
			}
		})
	}
}

// n threads run n pieces of work at once, and run returns only once its
// own has finished.
func TestThreadsRunNAtOnce(t *testing.T) {
	run, stop := lowcpu.Threads(3, lowcpu.Low)
	defer stop()
	arrived := make(chan int)
	release := make(chan struct{})
	var wg sync.WaitGroup
	done := make([]bool, 3)
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(func() { arrived <- i; <-release; done[i] = true })
			if !done[i] {
				t.Errorf("run %d returned before its work finished", i)
			}
		}()
	}
	for range 3 {
		<-arrived // all three run together, or this waits for ever
	}
	close(release)
	wg.Wait()
}
