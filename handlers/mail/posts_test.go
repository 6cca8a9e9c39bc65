package mail_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"cacao/handlers/hook/hooktest"
	"cacao/models"
)

// tarpit starts a server that takes posts and never answers.
func tarpit(t *testing.T) *hooktest.Tarpit {
	t.Helper()
	tp, err := hooktest.NewTarpit()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tp.Close() })
	return tp
}

// queueTests puts n test notices in the outbox for each of u's devices
// and their webhook.
func (w *outboxWorld) queueTests(u *models.User, n int) {
	w.t.Helper()
	for range n {
		if _, err := w.store.QueueTest(u.ID); err != nil {
			w.t.Fatal(err)
		}
	}
}

// Players take turns at the posts: with one post at a time, a player with
// three due gets one, then the player with one due gets theirs, then the
// first the rest.
func TestPostsTakeTurnsAcrossPlayers(t *testing.T) {
	w := newOutboxWorld(t, "ana", "bob")
	ob, _ := w.pushOutbox()
	ob.PostsAtOnce = 1
	srv := newHookServer(t)
	ana, bob := w.users["ana"], w.users["bob"]
	for _, u := range []*models.User{ana, bob} {
		if err := w.store.SetHook(u.ID, srv.URL+"/"+u.Username); err != nil {
			t.Fatal(err)
		}
	}
	w.queueTests(ana, 3)
	w.queueTests(bob, 1)
	if st, err := ob.PostOnce(context.Background()); err != nil || st.Sent != 4 {
		t.Fatalf("%+v, %v; want the 4 posts sent", st, err)
	}
	var order []string
	for _, r := range srv.posts {
		order = append(order, strings.TrimPrefix(r.URL.Path, "/"))
	}
	if want := []string{"ana", "bob", "ana", "ana"}; !slices.Equal(order, want) {
		t.Fatalf("posts went to %v; want %v", order, want)
	}
}

// A webhook that never answers holds up no other player's post, and its
// player's next post does not start while one hangs.
func TestHangingPostHoldsUpNoOtherPlayer(t *testing.T) {
	w := newOutboxWorld(t, "ana", "bob")
	ob, _ := w.pushOutbox()
	ob.PostsAtOnce = 2
	tp, srv := tarpit(t), newHookServer(t)
	ana, bob := w.users["ana"], w.users["bob"]
	if err := w.store.SetHook(ana.ID, tp.URL+"/ana"); err != nil {
		t.Fatal(err)
	}
	if err := w.store.SetHook(bob.ID, srv.URL); err != nil {
		t.Fatal(err)
	}
	w.queueTests(ana, 3)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); ob.Posts(ctx, 20*time.Millisecond) }()
	defer func() { cancel(); <-done }()
	waitUntil(t, "ana's post hanging", func() bool { return tp.Held()["/ana"] == 1 })
	w.queueTests(bob, 2)
	waitUntil(t, "bob's posts", func() bool { return srv.count() == 2 })
	if n := tp.Held()["/ana"]; n != 1 || tp.Taken() != 1 {
		t.Fatalf("%d of ana's posts hang, %d taken; want her first alone", n, tp.Taken())
	}
}

// waitUntil polls cond for a few seconds, well below a post's timeout.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within 3s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
