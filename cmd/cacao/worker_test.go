package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"cacao/handlers"
	"cacao/handlers/hook"
	"cacao/handlers/hook/hooktest"
	"cacao/handlers/mail"
	"cacao/handlers/mail/mailtest"
	"cacao/handlers/push"
	"cacao/handlers/push/pushtest"
	"cacao/models"
	"cacao/models/autoplay"
	"cacao/models/modeltest"
)

// TestWorkerDoesNotWaitForPosts: eight players each point ten devices and
// a webhook at a server that takes posts and never answers. While their
// posts hang, an honest player's confirmation mail goes, a seat whose time
// ran out is played, and another player's webhook gets its post: none of
// them waits for the hanging posts, and no player has two posts hanging
// at once.
func TestWorkerDoesNotWaitForPosts(t *testing.T) {
	clock := modeltest.NewClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), time.Millisecond)
	store, err := models.Open(modeltest.DB(t), models.WithClock(clock.Now), models.WithPasswordCost(bcrypt.MinCost), models.WithBots(autoplay.Kinds()...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	tarpit, err := hooktest.NewTarpit()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tarpit.Close() })
	svc := pushtest.New(t) // for the subscriptions' keys
	user := func(name string) *models.User {
		u, err := store.CreateUser(name, "secret-"+name)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	const tarpitUsers, devices = 8, 10
	for i := range tarpitUsers {
		u := user(fmt.Sprintf("tarpit%d", i))
		for d := range devices {
			sub := svc.Subscribe()
			endpoint := fmt.Sprintf("%s/u%d/push/%d", tarpit.URL, u.ID, d)
			if err := store.AddPushSub(u.ID, models.PushSub{Endpoint: endpoint, P256dh: sub.P256dh, Auth: sub.Auth}); err != nil {
				t.Fatal(err)
			}
		}
		if err := store.SetHook(u.ID, fmt.Sprintf("%s/u%d/hook", tarpit.URL, u.ID)); err != nil {
			t.Fatal(err)
		}
		if n, err := store.QueueTest(u.ID); err != nil || n != devices+1 {
			t.Fatalf("test notices for %d targets (%v)", n, err)
		}
	}
	// A seat whose time runs out while the posts hang.
	ana, bob := user("ana"), user("bob")
	g, err := store.CreateGame(ana, models.GameSpec{Seats: []string{models.SeatOpen}, TurnHours: 24})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Join(g.ID, "", bob); err != nil {
		t.Fatal(err)
	}
	// A player whose webhook answers, posted to after the hanging ones.
	var answered atomic.Int32
	good := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		answered.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(good.Close)
	carl := user("carl")
	if err := store.SetHook(carl.ID, good.URL); err != nil {
		t.Fatal(err)
	}
	if _, err := store.QueueTest(carl.ID); err != nil {
		t.Fatal(err)
	}

	smtp := mailtest.Start(t)
	signer, err := handlers.LinkSigner(store)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := push.LoadKeys(store)
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	client := hook.Client(true) // the site's client, loopback allowed
	bots := autoplay.NewRunner(store, logger)
	t.Cleanup(bots.Close)
	w := &Worker{Store: store, Bots: bots, Every: 50 * time.Millisecond, Log: logger,
		Outbox: &mail.Outbox{Store: store, Signer: signer, BaseURL: "http://cacao.test", Log: logger,
			Mailer: mail.NewSMTP(mail.SMTPConfig{Host: smtp.Host(), Port: smtp.Port(), From: "cacao@example.test"}),
			Push:   &push.Sender{Keys: keys, Subscriber: "webmaster@cacao.test", Client: client}, Hooks: client}}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { defer close(stopped); w.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-stopped })

	// waitFor polls cond for up to bound, well below the client's timeout
	// (10 s): the hanging posts are still hanging when it holds.
	const bound = 3 * time.Second
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(bound)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("%s did not happen within %v while posts hang (held: %v)", what, bound, tarpit.Held())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor("the tarpit taking posts", func() bool { return tarpit.Taken() > 0 })

	// Now the honest player signs up with an address, and bob's time runs out.
	dave := user("dave")
	if _, err := store.SetEmail(dave.ID, "dave@example.test", models.MailEach); err != nil {
		t.Fatal(err)
	}
	clock.Advance(25 * time.Hour)
	before, err := store.LoadGame(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	waitFor("dave's confirmation mail", func() bool {
		return slices.ContainsFunc(smtp.Messages(), func(m mailtest.Received) bool { return slices.Contains(m.To, "dave@example.test") })
	})
	waitFor("the timed-out seat played", func() bool {
		due, err := store.DueTimeouts(10)
		return err == nil && len(due) == 0
	})
	if after, err := store.LoadGame(g.ID); err != nil || after.Game.Version <= before.Game.Version {
		t.Fatalf("the game did not move on when the time ran out (%v)", err)
	}
	waitFor("carl's webhook post", func() bool { return answered.Load() == 1 })
	waitFor("the worker's log line", func() bool {
		return strings.Contains(logs.String(), `"msg":"worker","timeouts":1`) && strings.Contains(logs.String(), `"mail_sent":1`)
	})

	held := tarpit.Held()
	perUser := map[string]int{}
	for path, n := range held {
		perUser[strings.Split(path, "/")[1]] += n
	}
	if len(perUser) != tarpitUsers {
		t.Fatalf("posts of %d players hang; want one of each of the %d: %v", len(perUser), tarpitUsers, held)
	}
	for u, n := range perUser {
		if n != 1 {
			t.Fatalf("%d posts of player %s hang at once; want one at a time: %v", n, u, held)
		}
	}
}
