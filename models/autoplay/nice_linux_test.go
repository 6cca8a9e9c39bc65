package autoplay_test

import (
	"context"
	"syscall"
	"testing"

	"cacao/models/autoplay"
)

// A search thinks on a thread of the lowest priority (nice 19), so that
// it takes only the time the pages leave; the caller's thread keeps its
// own.
func TestRunnerThinksAtLowestPriority(t *testing.T) {
	s := open(t)
	rn := autoplay.NewRunner(s, nil, autoplay.WithSlots(1))
	defer rn.Close()
	// Linux's getpriority answers 20 - nice: 1 is nice 19.
	var got int
	if err := rn.Think(context.Background(), 1, func() { got, _ = syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid()) }); err != nil {
		t.Fatal(err)
	}
	if got != 1 {
		t.Errorf("a search thinks at getpriority %d; want 1 (nice 19)", got)
	}
	if mine, _ := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid()); mine == 1 {
		t.Errorf("the caller's thread was lowered too")
	}
}
