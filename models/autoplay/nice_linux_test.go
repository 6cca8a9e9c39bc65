package autoplay_test

import (
	"context"
	"os"
	"sync"
	"syscall"
	"testing"

	"cacao/models"
	"cacao/models/autoplay"
	"cacao/models/modeltest"
)

// A search thinks on a thread of the lowest priority (SCHED_IDLE, nice
// 19), so that it takes only the time the pages leave and gives the core
// up at once when a page's thread wakes; the caller's thread keeps its
// own.
func TestRunnerThinksAtLowestPriority(t *testing.T) {
	s := open(t)
	rn := autoplay.NewRunner(s, nil, autoplay.WithSlots(1))
	defer rn.Close()
	// Linux's getpriority answers 20 - nice: 1 is nice 19.
	var got, policy int
	if err := rn.Think(context.Background(), 1, func() {
		got, _ = syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
		policy = schedPolicy()
	}); err != nil {
		t.Fatal(err)
	}
	if got != 1 {
		t.Errorf("a search thinks at getpriority %d; want 1 (nice 19)", got)
	}
	if policy != schedIdle {
		t.Errorf("a search thinks under scheduling policy %d; want SCHED_IDLE (%d)", policy, schedIdle)
	}
	if mine, _ := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid()); mine == 1 || schedPolicy() == schedIdle {
		t.Errorf("the caller's thread was lowered too")
	}
}

// schedIdle is Linux's SCHED_IDLE.
const schedIdle = 5

// schedPolicy is the calling thread's scheduling policy
// (sched_getscheduler).
func schedPolicy() int {
	p, _, _ := syscall.RawSyscall(syscall.SYS_SCHED_GETSCHEDULER, uintptr(syscall.Gettid()), 0, 0)
	return int(p)
}

// A bot's move in the background searches at the lowest priority but
// commits at the site's: a commit on a thread that gets the CPU last would
// hold the database from every other player's move.
func TestRunnerCommitsAtSitePriority(t *testing.T) {
	if os.Getenv(modeltest.BackendEnv) == "postgres" {
		t.Skip("on PostgreSQL the change is told on the listener's thread, not the committer's")
	}
	var mu sync.Mutex
	var commits []int // getpriority of each commit's thread
	s := open(t, models.WithChangeListener(func(models.Change) {
		p, _ := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
		mu.Lock()
		commits = append(commits, p)
		mu.Unlock()
	}))
	ana, _ := s.CreateUser("ana", "password-ana")
	id := hardGame(t, s, ana, 1)
	rn := autoplay.NewRunner(s, nil, autoplay.WithSlots(1))
	defer rn.Close()
	mu.Lock()
	commits = nil
	mu.Unlock()
	if _, err := rn.Bots(id, nil); err != nil {
		t.Fatal(err)
	}
	rn.Wait()
	mu.Lock()
	defer mu.Unlock()
	if len(commits) == 0 {
		t.Fatal("the hard bot did not move")
	}
	for _, p := range commits {
		if p == 1 {
			t.Fatalf("a bot's move was committed at nice 19 (getpriority of the commits: %v)", commits)
		}
	}
}
