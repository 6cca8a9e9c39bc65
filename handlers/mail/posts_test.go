package mail_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cacao/handlers/hook/hooktest"
	"cacao/handlers/push/pushtest"
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

// A device or webhook whose posts fail OffAfterFailures times in a row,
// over OffAfter, is switched off: its news waiting is skipped, no more is
// queued for it, and its player is told; setting it again switches it
// back on. A post that goes through starts the count again.
func TestFailingTargetsAreSwitchedOff(t *testing.T) {
	ctx := context.Background()
	w := newOutboxWorld(t, "ana", "bob")
	ob, _ := w.pushOutbox()
	ob.Hooks.Timeout = 200 * time.Millisecond // the push sender's client too
	tp, svc := tarpit(t), pushtest.New(t)
	ana, bob := w.users["ana"], w.users["bob"]
	sub := svc.Subscribe()
	device := models.PushSub{Endpoint: tp.URL + "/ana/push", P256dh: sub.P256dh, Auth: sub.Auth, Device: "Firefox, Linux"}
	if err := w.store.AddPushSub(ana.ID, device); err != nil {
		t.Fatal(err)
	}
	if err := w.store.SetHook(ana.ID, tp.URL+"/ana/hook"); err != nil {
		t.Fatal(err)
	}
	// Bob's webhook fails but for one post in the middle.
	var fail atomic.Bool
	fail.Store(true)
	flaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fail.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	t.Cleanup(flaky.Close)
	if err := w.store.SetHook(bob.ID, flaky.URL); err != nil {
		t.Fatal(err)
	}
	if _, err := ob.RunOnce(ctx); err != nil { // the world's confirmation mails, out of the way
		t.Fatal(err)
	}
	w.queueTests(ana, 1)
	w.queueTests(bob, 1)
	step := models.OffAfter / (models.OffAfterFailures - 1)
	for try := 1; try <= models.OffAfterFailures; try++ {
		st, err := ob.PostOnce(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if try < models.OffAfterFailures && st.Failed != 3 {
			t.Fatalf("try %d: %+v; want ana's two posts and bob's failed", try, st)
		}
		if try == 2 { // bob's goes through once: his count starts again
			fail.Store(false)
			w.queueTests(bob, 1)
			if st, err := ob.PostOnce(ctx); err != nil || st.Sent != 1 {
				t.Fatalf("bob's post through: %+v, %v", st, err)
			}
			fail.Store(true)
		}
		if try == models.OffAfterFailures && (st.Off != 2 || st.Failed != 1) {
			t.Fatalf("try %d: %+v; want ana's device and webhook switched off, bob's failing on", try, st)
		}
		w.clock.Advance(step)
	}
	if tp.Taken() != 2*models.OffAfterFailures {
		t.Fatalf("the tarpit took %d posts; want %d", tp.Taken(), 2*models.OffAfterFailures)
	}
	// Ana's news for them is skipped, none more queued; she is told.
	if n, err := w.store.QueueTest(ana.ID); err != nil || n != 0 {
		t.Fatalf("test notices queued for %d of ana's targets (%v); want none", n, err)
	}
	if st, err := ob.PostOnce(ctx); err != nil || st.Failed != 1 || tp.Taken() != 2*models.OffAfterFailures || w.count(models.MailPending) != 1 {
		t.Fatalf("after switching off: %+v, %v, %d posts taken, %d pending; want bob's alone failing", st, err, tp.Taken(), w.count(models.MailPending))
	}
	notes, _, err := w.store.Notifications(ana.ID, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, n := range notes {
		texts = append(texts, n.Text)
	}
	if len(texts) != 2 || !slices.ContainsFunc(texts, func(s string) bool { return strings.HasPrefix(s, "Posts to your webhook are switched off") }) ||
		!slices.ContainsFunc(texts, func(s string) bool { return strings.HasPrefix(s, "Notices to one of your devices are switched off") }) {
		t.Fatalf("ana is told %q", texts)
	}
	if notes, _, _ := w.store.Notifications(bob.ID, 0, 10); len(notes) != 0 {
		t.Fatalf("bob, whose webhook went through once, is told %q", notes[0].Text)
	}
	// Set again, they are on.
	if err := w.store.AddPushSub(ana.ID, device); err != nil {
		t.Fatal(err)
	}
	if err := w.store.SetHook(ana.ID, tp.URL+"/ana/hook"); err != nil {
		t.Fatal(err)
	}
	if n, err := w.store.QueueTest(ana.ID); err != nil || n != 2 {
		t.Fatalf("test notices queued for %d of ana's targets set again (%v); want 2", n, err)
	}
}
