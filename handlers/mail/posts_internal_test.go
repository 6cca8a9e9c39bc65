package mail

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cacao/models"
)

// errGone is a database that fails.
var errGone = errors.New("mail: test: database gone")

// queue is a due list of posts (one player each), as DuePosts answers.
func queue(users ...uint) func(int, []uint) ([]models.Mail, error) {
	return func(limit int, skip []uint) ([]models.Mail, error) {
		var due []models.Mail
		for _, u := range users {
			if len(due) < limit && !slices.Contains(skip, u) {
				due = append(due, models.Mail{ID: u, UserID: u})
			}
		}
		return due, nil
	}
}

// TestLookFailingInNewRound: when the look for more posts of a new round
// fails, the players the round began with are not counted as served: the
// next start serves them first, before the players served in the last
// round.
func TestLookFailingInNewRound(t *testing.T) {
	p := (&Outbox{PostsAtOnce: 2}).posting()
	all := queue(1, 5, 6, 7)
	looks := 0
	p.due = func(limit int, skip []uint) ([]models.Mail, error) {
		if looks++; looks == 2 {
			return nil, errGone
		}
		return all(limit, skip)
	}
	var mu sync.Mutex
	var started []uint
	p.deliver = func(_ context.Context, m *models.Mail) (Stats, error) {
		mu.Lock()
		defer mu.Unlock()
		started = append(started, m.UserID)
		return Stats{Sent: 1}, nil
	}
	p.served = map[uint]bool{5: true, 6: true, 7: true} // this round so far
	if n, err := p.start(context.Background()); n != 0 || !errors.Is(err, errGone) {
		t.Fatalf("a start whose second look fails: %d started, %v", n, err)
	}
	if n, err := p.start(context.Background()); n != 2 || err != nil {
		t.Fatalf("the next start: %d started, %v", n, err)
	}
	p.drain()
	if !slices.Contains(started, 1) {
		t.Fatalf("the next start served %v; want player 1, whose new round's look failed", started)
	}
}

// TestPostsPauseAfterError: when posts end in errors at once (the
// database fails), Posts waits a while before it starts more, rather
// than start them again as fast as they fail.
func TestPostsPauseAfterError(t *testing.T) {
	p := (&Outbox{}).posting()
	p.due = queue(1)
	var tries atomic.Int32
	p.deliver = func(context.Context, *models.Mail) (Stats, error) {
		tries.Add(1)
		return Stats{}, errGone
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); p.run(ctx, time.Hour) }()
	time.Sleep(pauseAfterError / 4)
	if n := tries.Load(); n != 1 {
		cancel()
		<-done
		t.Fatalf("%d tries within a quarter of the pause after an error; want 1", n)
	}
	for deadline := time.Now().Add(pauseAfterError + 3*time.Second); tries.Load() < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no try after the pause")
		}
	}
	cancel()
	<-done
}
