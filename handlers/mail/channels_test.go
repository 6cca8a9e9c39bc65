package mail_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"cacao/handlers/hook"
	"cacao/handlers/mail"
	"cacao/handlers/mail/mailtest"
	"cacao/handlers/push"
	"cacao/handlers/push/pushtest"
	"cacao/models"
)

// pushOutbox is w's outbox with push to the loopback service and webhooks
// on this machine allowed.
func (w *outboxWorld) pushOutbox() (*mail.Outbox, push.Keys) {
	w.t.Helper()
	keys, err := push.LoadKeys(w.store)
	if err != nil {
		w.t.Fatal(err)
	}
	ob := w.outbox(mailtest.Start(w.t))
	ob.Hooks = hook.Client(true)
	ob.Push = &push.Sender{Keys: keys, Subscriber: "webmaster@cacao.test", Client: ob.Hooks}
	return ob, keys
}

// subscribe registers a device of u's at svc.
func (w *outboxWorld) subscribe(u *models.User, svc *pushtest.Service) pushtest.Sub {
	w.t.Helper()
	sub := svc.Subscribe()
	if err := w.store.AddPushSub(u.ID, models.PushSub{Endpoint: sub.Endpoint, P256dh: sub.P256dh, Auth: sub.Auth, Device: "Firefox, Linux"}); err != nil {
		w.t.Fatal(err)
	}
	return sub
}

// A push goes through the outbox to each of the player's devices,
// encrypted for it (RFC 8291) and signed with the site's key, only for the
// news they chose for push; a device the push service says is gone is
// forgotten.
func TestPushThroughOutbox(t *testing.T) {
	ctx := context.Background()
	w := newOutboxWorld(t, "ana", "bob")
	ob, keys := w.pushOutbox()
	svc := pushtest.New(t)
	ana := w.users["ana"]
	phone, laptop := w.subscribe(ana, svc), w.subscribe(ana, svc)
	if err := w.store.SetChoices(ana.ID, models.Choices{models.ChanPush: models.NewsInvitation, models.ChanMail: 0}); err != nil {
		t.Fatal(err)
	}
	id := w.twoPlayerGame("bob", "ana", 1) // ana is told it started; bob moved, so it is her turn (not chosen for push)
	if _, err := ob.PostOnce(ctx); err != nil {
		t.Fatal(err)
	}
	w.clock.Advance(mailDelay)
	if _, err := ob.PostOnce(ctx); err != nil {
		t.Fatal(err)
	}
	msgs := svc.Wait(t, 2, 5*time.Second)
	if len(msgs) != 2 || msgs[0].Endpoint == msgs[1].Endpoint {
		t.Fatalf("%d pushes; want one to each of ana's two devices: %+v", len(msgs), msgs)
	}
	for _, m := range msgs {
		var got push.Message
		if err := json.Unmarshal(m.Payload, &got); err != nil {
			t.Fatalf("payload %q: %v", m.Payload, err)
		}
		want := push.Message{Title: "Cacao", Body: "Game 1 has started.", URL: outboxBase + "/games/1", Tag: "game-1"}
		if got != want || m.VAPIDKey != keys.Public || m.Subject != "mailto:webmaster@cacao.test" || m.TTL != "86400" {
			t.Fatalf("push %+v: %+v", m, got)
		}
	}
	if errs := svc.Errors(); len(errs) != 0 {
		t.Fatalf("the push service refused: %v", errs)
	}
	_ = id
	// The phone's subscription expired: that push is dropped, and the
	// phone forgotten; the laptop still gets its test.
	svc.Gone(phone.Endpoint)
	if n, err := w.store.QueueTest(ana.ID); err != nil || n != 2 {
		t.Fatalf("test notices to %d devices: %v", n, err)
	}
	st, err := ob.PostOnce(ctx)
	if err != nil || st.Sent != 1 || st.Skipped != 1 {
		t.Fatalf("with one device gone: %+v, %v", st, err)
	}
	subs, _ := w.store.PushSubs(ana.ID)
	if len(subs) != 1 || subs[0].Endpoint != laptop.Endpoint {
		t.Fatalf("after the 410 ana's devices are %+v", subs)
	}
	if got := svc.Messages(); len(got) != 3 || got[2].Endpoint != laptop.Endpoint {
		t.Fatalf("the laptop's test push did not come: %d pushes", len(got))
	}
}

// Quiet hours hold pushes as they hold mail.
func TestPushWaitsOutQuietHours(t *testing.T) {
	ctx := context.Background()
	w := newOutboxWorld(t, "ana") // 09:00 UTC
	ob, _ := w.pushOutbox()
	svc := pushtest.New(t)
	ana := w.users["ana"]
	w.subscribe(ana, svc)
	if err := w.store.SetQuietHours(ana.ID, 8, 10); err != nil {
		t.Fatal(err)
	}
	if _, err := w.store.QueueTest(ana.ID); err != nil {
		t.Fatal(err)
	}
	if st, err := ob.PostOnce(ctx); err != nil || st.Held != 1 || len(svc.Messages()) != 0 {
		t.Fatalf("in quiet hours: %+v, %v, %d pushes", st, err, len(svc.Messages()))
	}
	w.clock.Advance(time.Hour)
	if st, err := ob.PostOnce(ctx); err != nil || st.Sent != 1 {
		t.Fatalf("after quiet hours: %+v, %v", st, err)
	}
	svc.Wait(t, 1, 5*time.Second)
}

// hookServer records the posts it gets.
type hookServer struct {
	*httptest.Server
	mu    sync.Mutex
	posts []*http.Request
	data  []string
}

func newHookServer(t *testing.T) *hookServer {
	h := &hookServer{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.posts, h.data = append(h.posts, r), append(h.data, string(b))
		h.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hookServer) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.posts)
}

// A webhook gets the news chosen for it as JSON signed with the player's
// key, at most HooksPerHour an hour (the rest waits); a webhook on a
// private address is refused when the site does not allow them.
func TestHookThroughOutbox(t *testing.T) {
	ctx := context.Background()
	w := newOutboxWorld(t, "ana", "bob")
	ob, _ := w.pushOutbox()
	srv := newHookServer(t)
	ana := w.users["ana"]
	if err := w.store.SetHook(ana.ID, srv.URL+"/cacao"); err != nil {
		t.Fatal(err)
	}
	w.twoPlayerGame("bob", "ana", 0)
	if st, err := ob.PostOnce(ctx); err != nil || srv.count() != 1 {
		t.Fatalf("the start: %+v, %v, %d posts", st, err, srv.count())
	}
	fresh, _ := w.store.UserByID(ana.ID)
	r, body := srv.posts[0], srv.data[0]
	if r.Header.Get("X-Cacao-Signature") != hook.Sign(fresh.HookSecret, r.Header.Get("X-Cacao-Timestamp"), []byte(body)) || len(fresh.HookSecret) != 32 {
		t.Fatalf("the post is not signed with ana's key: %v", r.Header)
	}
	var ev struct {
		Event, Text, URL string
		Game             uint
	}
	if err := json.Unmarshal([]byte(body), &ev); err != nil || ev.Event != "invitation" || ev.Game != 1 || ev.Text != "Game 1 has started." || ev.URL != outboxBase+"/games/1" {
		t.Fatalf("the post: %s (%v)", body, err)
	}
	// Past the hour's limit the rest waits.
	for range mail.HooksPerHour + 2 {
		if _, err := w.store.QueueTest(ana.ID); err != nil {
			t.Fatal(err)
		}
	}
	st, err := ob.PostOnce(ctx)
	if err != nil || srv.count() != mail.HooksPerHour || st.Held != 3 {
		t.Fatalf("over the limit: %+v, %v, %d posts", st, err, srv.count())
	}
	if !strings.Contains(srv.data[1], `"event":"test","game":0,"title":"Cacao: A test notice"`) {
		t.Fatalf("a test post: %s", srv.data[1])
	}
	w.clock.Advance(time.Hour)
	if _, err := ob.PostOnce(ctx); err != nil || srv.count() != mail.HooksPerHour+3 {
		t.Fatalf("an hour later %d posts, %v", srv.count(), err)
	}
	// The site's own client refuses this machine: the post is given up.
	ob.Hooks = hook.Client(false)
	if _, err := w.store.QueueTest(ana.ID); err != nil {
		t.Fatal(err)
	}
	if st, err := ob.PostOnce(ctx); err != nil || st.Skipped != 1 || srv.count() != mail.HooksPerHour+3 {
		t.Fatalf("to a private address: %+v, %v", st, err)
	}
}

// A digest tells the other news its reader chose for it, each line with
// its time and a link to its game.
func TestDigestTellsOtherNews(t *testing.T) {
	w := newOutboxWorld(t, "ana")
	ob := w.outbox(mailtest.Start(t))
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	m := &models.Mail{ID: 9, UserID: w.users["ana"].ID, Kind: models.KindDigest}
	r := models.Recipient{User: *w.users["ana"], To: "ana@example.test", News: []models.Mail{
		{GameID: 4, Kind: "finished", Text: "Game 4 is over: you won.", Format: "Game %d is over: you won.", Args: "[4]", CreatedAt: at}}}
	msg := ob.Compose(m, r)
	if msg.Subject != "Cacao: news of your games" || !strings.Contains(msg.Body, "News since the last daily email:\n\n- Game 4 is over: you won. (Tue 1 Dec, 10:00 UTC)\n  http://cacao.test/m/go?t=") {
		t.Fatalf("a digest of news: %q\n%s", msg.Subject, msg.Body)
	}
}
