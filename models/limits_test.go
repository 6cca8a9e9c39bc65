package models_test

import (
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cacao/models"
	"cacao/models/modeltest"
)

// A bucket lets Burst tries through, then one an Every; a back-off lets
// Burst through, then waits twice as long each try, and forgets a run after
// a quiet Every; a day later the rows are pruned.
func TestLimits(t *testing.T) {
	s, clock := openClocked(t)
	bucket := models.LimitKey{Key: "bucket", Rule: models.LimitRule{Burst: 2, Every: time.Minute}}
	backoff := models.LimitKey{Key: "backoff", Rule: models.LimitRule{Burst: 2, Every: time.Hour, Backoff: time.Second}}
	wait := func(k models.LimitKey) time.Duration {
		t.Helper()
		d, err := s.LimitWait(k)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	spend := func(k models.LimitKey) {
		t.Helper()
		if err := s.LimitSpend(k); err != nil {
			t.Fatal(err)
		}
	}
	spend(bucket)
	spend(bucket)
	if d := wait(bucket); d != time.Minute {
		t.Fatalf("an empty bucket waits %v", d)
	}
	clock.Advance(30 * time.Second)
	if d := wait(bucket); d != 30*time.Second {
		t.Fatalf("half refilled it waits %v", d)
	}
	for i, want := range []time.Duration{0, 0, time.Second, 2 * time.Second, 4 * time.Second} {
		if d := wait(backoff); d != want {
			t.Fatalf("after %d tries the back-off waits %v, want %v", i, d, want)
		}
		spend(backoff)
	}
	clock.Advance(time.Hour)
	if d := wait(backoff); d != 0 {
		t.Fatalf("a quiet hour later it waits %v", d)
	}
	if err := s.LimitForget(bucket); err != nil || wait(bucket) != 0 {
		t.Fatalf("forgotten, the bucket waits %v (%v)", wait(bucket), err)
	}
	clock.Advance(25 * time.Hour)
	if n, err := s.PruneLimits(); err != nil || n != 1 {
		t.Fatalf("pruned %d (%v); want the back-off's row", n, err)
	}
}

// Two instances on one PostgreSQL database count the same tries.
func TestPostgresSharesLimits(t *testing.T) {
	stores := twoInstances(t)
	k := models.LimitKey{Key: "signup:192.0.2.1", Rule: models.LimitRule{Burst: 3, Every: time.Hour}}
	for i := range 3 {
		if err := stores[i%2].LimitSpend(k); err != nil {
			t.Fatal(err)
		}
	}
	for i, s := range stores {
		if d, err := s.LimitWait(k); err != nil || d < 59*time.Minute {
			t.Fatalf("instance %d lets a fourth try wait %v (%v)", i, d, err)
		}
	}
}

// TestLimitTakeAtOnce: tries taken at once (one step each: the check and
// the count) get no more through than the burst.
func TestLimitTakeAtOnce(t *testing.T) {
	s := models.MustOpen(t)
	k := models.LimitKey{Key: "create:1", Rule: models.LimitRule{Burst: 5, Every: time.Hour}}
	var wg sync.WaitGroup
	var passed atomic.Int32
	for range 30 {
		wg.Go(func() {
			d, err := s.LimitTake(k)
			if err != nil {
				t.Error(err)
			}
			if d == 0 {
				passed.Add(1)
			}
		})
	}
	wg.Wait()
	if passed.Load() != 5 {
		t.Fatalf("%d of 30 tries at once passed a burst of 5", passed.Load())
	}
}

// TestLimitTakeRefusedReads: a take that must wait is refused by a read
// alone: it does not wait for a writer busy with the key's row (on SQLite
// the one writer, ahead of game moves), nor change the row. (A file
// database: an in-memory one reads on its one writing connection.)
func TestLimitTakeRefusedReads(t *testing.T) {
	path := modeltest.DB(t)
	if path == ":memory:" {
		path = filepath.Join(t.TempDir(), "limits.db")
	}
	clock := modeltest.NewClock(t0, 0)
	s := openFile(t, path, clock)
	k := models.LimitKey{Key: "login:192.0.2.1", Rule: models.LimitRule{Burst: 1, Every: time.Minute}}
	if d, err := s.LimitTake(k); err != nil || d != 0 {
		t.Fatalf("the first take: wait %v (%v)", d, err)
	}
	var before models.Limit
	if err := models.DB(s).Where("key = ?", k.Key).Take(&before).Error; err != nil {
		t.Fatal(err)
	}
	clock.Advance(15 * time.Second)
	busy := models.DB(s).Begin()
	if err := busy.Exec("UPDATE limits SET tries = tries WHERE key = ?", k.Key).Error; err != nil {
		t.Fatal(err)
	}
	refused := make(chan time.Duration, 1)
	go func() {
		d, err := s.LimitTake(k)
		if err != nil {
			t.Error(err)
		}
		refused <- d
	}()
	select {
	case d := <-refused:
		busy.Rollback()
		if d != 45*time.Second {
			t.Errorf("a take on an empty bucket a quarter refilled waits %v", d)
		}
	case <-time.After(5 * time.Second):
		busy.Rollback()
		<-refused
		t.Error("a refused take waited for the writer")
	}
	var after models.Limit
	if err := models.DB(s).Where("key = ?", k.Key).Take(&after).Error; err != nil || after.Tokens != before.Tokens || !after.Last.Equal(before.Last) {
		t.Fatalf("a refused take changed the row from %+v to %+v (%v)", before, after, err)
	}
}
