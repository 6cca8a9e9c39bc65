package mail_test

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"cacao/engine"
	"cacao/handlers"
	"cacao/handlers/mail"
	"cacao/handlers/mail/mailtest"
	"cacao/models"
	"cacao/models/autoplay"
	"cacao/models/modeltest"

	"golang.org/x/crypto/bcrypt"
)

// outboxWorld is a store with players who want an email for each event.
type outboxWorld struct {
	t      *testing.T
	store  *models.Store
	clock  *modeltest.Clock
	signer *mail.Signer
	users  map[string]*models.User
	byAddr map[string]*models.User
}

const outboxBase = "http://cacao.test"

// mailDelay holds "your turn" mail back in these tests.
const mailDelay = 5 * time.Minute

func newOutboxWorld(t *testing.T, names ...string) *outboxWorld {
	t.Helper()
	clock := modeltest.NewClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), time.Millisecond)
	deal := func(n int) ([]int, int, engine.Setup) {
		su, _ := engine.NewSetup(n, 5)
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		return order, 0, su
	}
	store, err := models.Open(modeltest.DB(t), models.WithClock(clock.Now), models.WithMailDelay(mailDelay), models.WithDealer(deal),
		models.WithPasswordCost(bcrypt.MinCost))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	signer, err := handlers.LinkSigner(store)
	if err != nil {
		t.Fatal(err)
	}
	w := &outboxWorld{t: t, store: store, clock: clock, signer: signer, users: map[string]*models.User{}, byAddr: map[string]*models.User{}}
	for _, name := range names {
		u, err := store.CreateUser(name, "secret-"+name)
		if err != nil {
			t.Fatal(err)
		}
		addr := name + "@example.test"
		if _, err := store.SetEmail(u.ID, addr, models.MailEach); err != nil {
			t.Fatal(err)
		}
		if err := store.VerifyEmail(u.ID, addr); err != nil {
			t.Fatal(err)
		}
		w.users[name], w.byAddr[addr] = u, u
	}
	return w
}

// outbox is one delivery worker over srv.
func (w *outboxWorld) outbox(srv *mailtest.Server) *mail.Outbox {
	return &mail.Outbox{
		Store:   w.store,
		Mailer:  mail.NewSMTP(mail.SMTPConfig{Host: srv.Host(), Port: srv.Port(), From: "cacao@example.test"}),
		Signer:  w.signer,
		BaseURL: outboxBase,
	}
}

// twoPlayerGame has creator open a game, joiner take the open seat (both
// are told it started; the first player that it is their turn), and the
// two make steps moves or choices.
func (w *outboxWorld) twoPlayerGame(creator, joiner string, steps int) uint {
	w.t.Helper()
	g, err := w.store.CreateGame(w.users[creator], models.GameSpec{Seats: []string{models.SeatOpen}})
	if err != nil {
		w.t.Fatal(err)
	}
	if _, err := w.store.Join(g.ID, "", w.users[joiner]); err != nil {
		w.t.Fatal(err)
	}
	players := []*models.User{w.users[creator], w.users[joiner]}
	for step := 0; step < steps; step++ {
		l, err := w.store.LoadGame(g.ID)
		if err != nil {
			w.t.Fatal(err)
		}
		st := l.Play.State()
		moved := false
		for _, u := range players { // a waiting choice first
			if len(st.Player(l.SeatOf(u.ID)).Queue()) > 0 {
				if _, err := w.store.CommitResolve(g.ID, l.Game.Version, models.Actor{UserID: u.ID}, nil); err != nil {
					w.t.Fatal(err)
				}
				moved = true
				break
			}
		}
		for _, u := range players {
			if !moved && l.SeatOf(u.ID) == st.Current() {
				legal := st.LegalPlacements(nil)
				if _, err := w.store.CommitTurn(g.ID, l.Game.Version, models.Actor{UserID: u.ID}, engine.Move{Placement: legal[len(legal)/2]}); err != nil {
					w.t.Fatal(err)
				}
				moved = true
			}
		}
		if !moved {
			w.t.Fatalf("nobody could move in game %d", g.ID)
		}
		w.clock.Advance(time.Minute)
	}
	return g.ID
}

// due lists the outbox rows due now, by id.
func (w *outboxWorld) due() map[uint]models.Mail {
	w.t.Helper()
	ms, err := w.store.DueMail(1000)
	if err != nil {
		w.t.Fatal(err)
	}
	out := map[uint]models.Mail{}
	for _, m := range ms {
		out[m.ID] = m
	}
	return out
}

func (w *outboxWorld) count(status string) int {
	w.t.Helper()
	n, err := w.store.MailCount(status)
	if err != nil {
		w.t.Fatal(err)
	}
	return int(n)
}

var (
	messageIDRE = regexp.MustCompile(`^<outbox-(\d+)@cacao>$`)
	goLinkRE    = regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(outboxBase) + `/m/go\?t=(\S+)\r?$`)
)

// delivered is one received message as the player's mail client reads it.
type delivered struct {
	row     uint
	to      string
	subject string
	hdr     map[string]string
	body    string
}

// received parses msgs and counts how often each outbox row arrived.
func received(t *testing.T, msgs []mailtest.Received) ([]delivered, map[uint]int) {
	t.Helper()
	var out []delivered
	times := map[uint]int{}
	for _, r := range msgs {
		h, subject, body := parse(t, r.Data)
		m := messageIDRE.FindStringSubmatch(h.Get("Message-ID"))
		if m == nil {
			t.Fatalf("received a message with Message-ID %q; want <outbox-N@cacao>", h.Get("Message-ID"))
		}
		var id uint
		fmt.Sscan(m[1], &id)
		times[id]++
		if to, err := h.AddressList("To"); err != nil || len(r.To) != 1 || len(to) != 1 || to[0].Address != r.To[0] {
			t.Fatalf("message %d: envelope to %v, header To %q; want one recipient", id, r.To, h.Get("To"))
		}
		out = append(out, delivered{row: id, to: r.To[0], subject: subject, body: body, hdr: map[string]string{
			"List-Unsubscribe":      h.Get("List-Unsubscribe"),
			"List-Unsubscribe-Post": h.Get("List-Unsubscribe-Post"),
		}})
	}
	return out, times
}

// TestOutboxDeliversEachMessageOnceThroughOutage: while the mail server
// refuses mail nothing is lost and retries wait out the backoff; once it
// is back every message arrives exactly once, to its player's address,
// with working one-click links and nothing of the hidden game state; two
// workers at once still send each message once.
func TestOutboxDeliversEachMessageOnceThroughOutage(t *testing.T) {
	ctx := context.Background()
	w := newOutboxWorld(t, "ana", "bob", "carl", "dave")
	game := w.twoPlayerGame("ana", "bob", 5)
	if _, err := w.store.CreateGame(w.users["ana"], models.GameSpec{Seats: []string{"@carl"}}); err != nil {
		t.Fatal(err)
	}
	w.clock.Advance(mailDelay + time.Second)

	rows := w.due()
	kinds := map[models.Kind]int{}
	for _, m := range rows {
		kinds[m.Kind]++
	}
	if kinds["turn"] == 0 || kinds["started"] != 2 || kinds["invited"] != 1 {
		t.Fatalf("outbox kinds %v: want turn, 2 started and 1 invited", kinds)
	}
	if pending := w.count(models.MailPending); pending != len(rows) {
		t.Fatalf("%d pending rows, %d due after the mail delay", pending, len(rows))
	}

	srv := mailtest.Start(t)
	ob := w.outbox(srv)

	// The outage: every attempt is refused, nothing is lost.
	srv.SetFail(true)
	before := w.store.Clock()
	st, err := ob.RunOnce(ctx)
	after := w.store.Clock()
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed == 0 || st.Sent != 0 || st.Failed+st.Skipped != len(rows) {
		t.Fatalf("during the outage: %+v for %d due rows; want all failed or skipped, none sent", st, len(rows))
	}
	if n := len(srv.Messages()); n != 0 {
		t.Fatalf("the server accepted %d messages while refusing mail", n)
	}
	if srv.Attempts() != st.Failed {
		t.Fatalf("%d attempts at the server, %d failed sends", srv.Attempts(), st.Failed)
	}
	pending := w.count(models.MailPending)
	if pending != st.Failed {
		t.Fatalf("%d rows pending after %d failed sends", pending, st.Failed)
	}
	if len(w.due()) != 0 {
		t.Fatal("a failed message is due again at once")
	}
	attempts := srv.Attempts()
	if st, err := ob.RunOnce(ctx); err != nil || st != (mail.Stats{}) || srv.Attempts() != attempts {
		t.Fatalf("an immediate second run did %+v (%v), %d server attempts; want nothing before the backoff", st, err, srv.Attempts()-attempts)
	}

	// Each failed row waits Backoff(1), not the claim lease, and keeps why.
	w.clock.Advance(models.Backoff(1) + time.Second)
	retry := w.due()
	if len(retry) != pending {
		t.Fatalf("%d rows due after Backoff(1); want the %d that failed", len(retry), pending)
	}
	for id, m := range retry {
		if m.Attempts != 1 || m.NextAttempt.Before(before.Add(models.Backoff(1))) || m.NextAttempt.After(after.Add(models.Backoff(1))) {
			t.Fatalf("row %d after one failure: attempts %d, next %v; want 1 and %v..%v", id, m.Attempts, m.NextAttempt, before.Add(models.Backoff(1)), after.Add(models.Backoff(1)))
		}
		if !strings.Contains(m.LastError, "451") {
			t.Fatalf("row %d keeps last error %q; want the server's refusal", id, m.LastError)
		}
	}
	// A second failure waits twice as long.
	if st, err := ob.RunOnce(ctx); err != nil || st.Failed != pending {
		t.Fatalf("second failing run: %+v (%v)", st, err)
	}
	w.clock.Advance(models.Backoff(1) + time.Second)
	if n := len(w.due()); n != 0 {
		t.Fatalf("%d rows due again after Backoff(1); the second failure must wait Backoff(2)", n)
	}
	w.clock.Advance(models.Backoff(2) - models.Backoff(1))
	for id, m := range w.due() {
		if m.Attempts != 2 {
			t.Fatalf("row %d: %d attempts after two failures", id, m.Attempts)
		}
	}

	// The server is back: everything due is delivered, once.
	srv.SetFail(false)
	for round := 0; w.count(models.MailPending) > 0; round++ {
		if round == 10 {
			t.Fatalf("%d rows still pending after %d runs", w.count(models.MailPending), round)
		}
		if _, err := ob.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		w.clock.Advance(time.Hour)
	}
	msgs, times := received(t, srv.Messages())
	sent := w.count(models.MailSent)
	if sent == 0 || len(times) != sent || len(msgs) != sent {
		t.Fatalf("%d messages received for %d distinct rows; %d rows sent", len(msgs), len(times), sent)
	}
	for id, n := range times {
		if n != 1 {
			t.Errorf("row %d delivered %d times", id, n)
		}
		if _, ok := rows[id]; !ok {
			t.Errorf("row %d was delivered but never queued", id)
		}
	}
	if got := sent + w.count(models.MailSkipped); got != len(rows) || w.count(models.MailFailed) != 0 {
		t.Fatalf("%d rows sent or skipped, %d failed; want all %d queued rows settled", got, w.count(models.MailFailed), len(rows))
	}
	w.clock.Advance(24 * time.Hour)
	if st, err := ob.RunOnce(ctx); err != nil || st.Sent != 0 || len(srv.Messages()) != sent {
		t.Fatalf("a later run sent again: %+v (%v), %d messages", st, err, len(srv.Messages()))
	}

	// What arrived: to the row's player, with one-click links that work
	// for that player only, and nothing of the hidden game state.
	l, err := w.store.LoadGame(game)
	if err != nil {
		t.Fatal(err)
	}
	now := w.store.Clock()
	for _, d := range msgs {
		row := rows[d.row]
		u := w.byAddr[d.to]
		if u == nil || u.ID != row.UserID {
			t.Fatalf("row %d for user %d went to %q", d.row, row.UserID, d.to)
		}
		unsub := strings.TrimSuffix(strings.TrimPrefix(d.hdr["List-Unsubscribe"], "<"), ">")
		if !strings.HasPrefix(unsub, outboxBase+"/m/unsubscribe?t=") || d.hdr["List-Unsubscribe-Post"] != "List-Unsubscribe=One-Click" {
			t.Fatalf("row %d: List-Unsubscribe %q, List-Unsubscribe-Post %q", d.row, d.hdr["List-Unsubscribe"], d.hdr["List-Unsubscribe-Post"])
		}
		pu, err := url.Parse(unsub)
		if err != nil {
			t.Fatal(err)
		}
		if cl, err := w.signer.Verify(pu.Query().Get("t"), mail.PurposeUnsub, now); err != nil || cl.User != row.UserID {
			t.Fatalf("row %d: unsubscribe link is for user %d (%v); want %d", d.row, cl.User, err, row.UserID)
		}
		if !strings.Contains(d.body, unsub) {
			t.Fatalf("row %d: the body has no unsubscribe link:\n%s", d.row, d.body)
		}
		m := goLinkRE.FindStringSubmatch(d.body)
		if m == nil {
			t.Fatalf("row %d: no one-click link to the game in the body:\n%s", d.row, d.body)
		}
		tok, err := url.QueryUnescape(m[1])
		if err != nil {
			t.Fatal(err)
		}
		cl, err := w.signer.Verify(tok, mail.PurposeGo, now)
		if err != nil || cl.User != row.UserID || cl.Game != row.GameID || cl.Game == 0 {
			t.Fatalf("row %d: go link claims %+v (%v); want user %d, game %d", d.row, cl, err, row.UserID, row.GameID)
		}
		low := strings.ToLower(d.body)
		if strings.Contains(d.body, l.Game.Setup) || strings.Contains(low, "setup") || strings.Contains(low, "pile") ||
			strings.Contains(d.body, `"workers"`) || strings.Contains(d.body, `"jungle"`) {
			t.Fatalf("row %d shows hidden game state:\n%s", d.row, d.body)
		}
	}

	// Two workers at once, on fresh news: each message still goes once.
	w.twoPlayerGame("bob", "carl", 2)
	w.twoPlayerGame("dave", "ana", 2)
	if _, err := w.store.CreateGame(w.users["dave"], models.GameSpec{Seats: []string{"@bob"}}); err != nil {
		t.Fatal(err)
	}
	w.clock.Advance(mailDelay + time.Second)
	fresh := w.due()
	if len(fresh) < 5 {
		t.Fatalf("only %d fresh rows queued", len(fresh))
	}
	sentBefore, seen := w.count(models.MailSent), len(srv.Messages())
	workers := []*mail.Outbox{w.outbox(srv), w.outbox(srv)}
	stats := make([]mail.Stats, len(workers))
	errs := make([]error, len(workers))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, o := range workers {
		wg.Go(func() {
			<-start
			stats[i], errs[i] = o.RunOnce(ctx)
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("worker %d: %v", i, err)
		}
	}
	_, times = received(t, srv.Messages()[seen:])
	newlySent := w.count(models.MailSent) - sentBefore
	if stats[0].Sent+stats[1].Sent != newlySent || len(times) != newlySent || newlySent == 0 {
		t.Fatalf("workers sent %d+%d, %d distinct messages arrived, %d rows newly sent", stats[0].Sent, stats[1].Sent, len(times), newlySent)
	}
	for id, n := range times {
		if n != 1 {
			t.Errorf("row %d delivered %d times by two workers", id, n)
		}
		if _, ok := fresh[id]; !ok {
			t.Errorf("row %d delivered by the workers was not among the fresh rows", id)
		}
	}
	if p := w.count(models.MailPending); p != 0 {
		t.Fatalf("%d rows left pending by two workers", p)
	}
}

// hookMailer runs hook once, before its first send: a second worker
// running in the middle of the first one's run.
type hookMailer struct {
	mail.Mailer
	once sync.Once
	hook func()
}

func (h *hookMailer) Send(ctx context.Context, m mail.Message) error {
	h.once.Do(h.hook)
	return h.Mailer.Send(ctx, m)
}

// TestOutboxWorkerWithStaleListSendsNothingTwice: a worker whose list of
// due rows was read before another worker delivered them claims none of
// them again (the interleaving the concurrent test can only hope for).
func TestOutboxWorkerWithStaleListSendsNothingTwice(t *testing.T) {
	ctx := context.Background()
	w := newOutboxWorld(t, "ana", "bob", "carl")
	w.twoPlayerGame("ana", "bob", 3)
	if _, err := w.store.CreateGame(w.users["bob"], models.GameSpec{Seats: []string{"@carl"}}); err != nil {
		t.Fatal(err)
	}
	w.clock.Advance(mailDelay + time.Second)
	srv := mailtest.Start(t)
	first, second := w.outbox(srv), w.outbox(srv)
	var inner mail.Stats
	var innerErr error
	first.Mailer = &hookMailer{Mailer: first.Mailer, hook: func() { inner, innerErr = second.RunOnce(ctx) }}
	outer, err := first.RunOnce(ctx)
	if err != nil || innerErr != nil {
		t.Fatalf("runs: %v, %v", err, innerErr)
	}
	if outer.Sent != 1 || inner.Sent == 0 {
		t.Fatalf("first worker sent %d (want only the row it held), second %d", outer.Sent, inner.Sent)
	}
	_, times := received(t, srv.Messages())
	sent := w.count(models.MailSent)
	if len(times) != sent || outer.Sent+inner.Sent != sent || w.count(models.MailPending) != 0 {
		t.Fatalf("%d distinct messages, %d+%d sent by the workers, %d rows sent, %d pending", len(times), outer.Sent, inner.Sent, sent, w.count(models.MailPending))
	}
	for id, n := range times {
		if n != 1 {
			t.Errorf("row %d delivered %d times", id, n)
		}
	}
}

// TestOutboxSkipsTurnMailFromAnEndedWait: a "your turn" mail still pending
// when the wait it announced has ended (the player's time ran out and the
// greedy bot played for them) is not sent when their turn comes round
// again. After an outage the player gets one "your turn" mail for the turn
// that waits, not one for every turn the outage swallowed (MailRecipient:
// skip a "your turn" that is no longer theirs).
func TestOutboxSkipsTurnMailFromAnEndedWait(t *testing.T) {
	ctx := context.Background()
	w := newOutboxWorld(t, "ana", "bob")
	ana, bob := w.users["ana"], w.users["bob"]
	g, err := w.store.CreateGame(ana, models.GameSpec{Seats: []string{models.SeatOpen}, TurnHours: 24})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.store.Join(g.ID, "", bob); err != nil {
		t.Fatal(err)
	}
	// anaActs makes ana's pending choice or her turn.
	anaActs := func() *models.Loaded {
		t.Helper()
		l, err := w.store.LoadGame(g.ID)
		if err != nil {
			t.Fatal(err)
		}
		st, seat := l.Play.State(), l.SeatOf(ana.ID)
		if len(st.Player(seat).Queue()) > 0 {
			l, err = w.store.CommitResolve(g.ID, l.Game.Version, models.Actor{UserID: ana.ID}, nil)
		} else if st.Current() == seat {
			legal := st.LegalPlacements(nil)
			l, err = w.store.CommitTurn(g.ID, l.Game.Version, models.Actor{UserID: ana.ID}, engine.Move{Placement: legal[0]})
		} else {
			t.Fatal("nothing waits on ana")
		}
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	bobWaits := func(l *models.Loaded) bool {
		seat := l.SeatOf(bob.ID)
		return l.Seats[seat].WaitingSince != nil && l.Play.State().Current() == seat
	}
	if l := anaActs(); !bobWaits(l) {
		t.Fatal("after ana's first turn, the game does not wait on bob")
	}

	// The mail server is down when bob's "your turn" is due.
	srv := mailtest.Start(t)
	ob := w.outbox(srv)
	srv.SetFail(true)
	w.clock.Advance(mailDelay + time.Second)
	if st, err := ob.RunOnce(ctx); err != nil || st.Failed == 0 {
		t.Fatalf("run during the outage: %+v (%v)", st, err)
	}
	// Bob's time runs out; the bot plays for him; ana moves; bob's turn again.
	w.clock.Advance(25 * time.Hour)
	if n, err := autoplay.Timeouts(w.store); err != nil || n != 1 {
		t.Fatalf("timeouts: %d (%v); want bob's", n, err)
	}
	l := anaActs()
	for step := 0; !bobWaits(l); step++ {
		if step == 5 {
			t.Fatal("the game does not come back to bob")
		}
		l = anaActs()
	}

	srv.SetFail(false)
	w.clock.Advance(mailDelay + time.Second)
	for round := 0; w.count(models.MailPending) > 0; round++ {
		if round == 10 {
			t.Fatal("mail still pending after 10 runs")
		}
		if _, err := ob.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		w.clock.Advance(time.Hour)
	}
	msgs, _ := received(t, srv.Messages())
	var turns []string
	for _, d := range msgs {
		if w.byAddr[d.to] == bob && strings.Contains(d.subject, "your turn") {
			turns = append(turns, fmt.Sprintf("row %d: %s", d.row, d.subject))
		}
	}
	if len(turns) != 1 {
		t.Fatalf("bob got %d \"your turn\" mails for the one turn that waits on him:\n%s", len(turns), strings.Join(turns, "\n"))
	}
}

// TestDigestListsUnreadChats: a digest tells of the games waiting and of
// those whose chat has messages unread, each with its link; one with only
// messages says so in its subject.
func TestDigestListsUnreadChats(t *testing.T) {
	w := newOutboxWorld(t, "ana", "bob")
	ob := w.outbox(mailtest.Start(t))
	g := models.Game{ID: 7}
	seats := []models.Seat{{Name: "ana"}, {Name: "bob"}}
	m := &models.Mail{ID: 1, UserID: w.users["ana"].ID, Kind: models.KindDigest}
	r := models.Recipient{User: *w.users["ana"], To: "ana@example.test", Chats: []models.GameSummary{{Game: g, Seats: seats, ChatUnread: 3}}}
	msg := ob.Compose(m, r)
	if msg.Subject != "Cacao: new messages at your tables" || !strings.Contains(msg.Body, "- Game 7 (ana, bob): 3 new messages:\n  http://cacao.test/m/go?t=") ||
		strings.Contains(msg.Body, "waiting for you") {
		t.Fatalf("a digest of messages only: %q\n%s", msg.Subject, msg.Body)
	}
	r.Waiting = []models.GameSummary{{Game: models.Game{ID: 8}, Seats: seats}}
	msg = ob.Compose(m, r)
	if msg.Subject != "Cacao: 1 game waiting for you" || !strings.Contains(msg.Body, "Game 8 (ana, bob)") || !strings.Contains(msg.Body, "New messages in the chat of these games:") {
		t.Fatalf("a digest of a game and messages: %q\n%s", msg.Subject, msg.Body)
	}
}

// A digest's times are in its reader's time zone, which they name.
func TestDigestInReadersTimeZone(t *testing.T) {
	w := newOutboxWorld(t, "ana")
	ob := w.outbox(mailtest.Start(t))
	ana := *w.users["ana"]
	ana.TimeZone = "Asia/Tehran"
	since := time.Date(2026, 12, 1, 21, 0, 0, 0, time.UTC) // 00:30 on the 2nd in Tehran
	m := &models.Mail{ID: 1, UserID: ana.ID, Kind: models.KindDigest}
	r := models.Recipient{User: ana, To: "ana@example.test", Waiting: []models.GameSummary{{Game: models.Game{ID: 8}, Seats: []models.Seat{{Name: "ana"}}, WaitingSince: &since}}}
	if msg := ob.Compose(m, r); !strings.Contains(msg.Body, "waiting since Wed 2 Dec, 00:30 +0330") {
		t.Fatalf("the digest in Tehran:\n%s", msg.Body)
	}
}

// Quiet hours hold mail until they end, in the reader's time zone, without
// counting a try; a password reset they asked for goes at once.
func TestOutboxHoldsMailInQuietHours(t *testing.T) {
	ctx := context.Background()
	w := newOutboxWorld(t, "ana", "bob") // the clock reads 09:00 UTC: 12:30 in Tehran
	srv := mailtest.Start(t)
	ob := w.outbox(srv)
	ana := w.users["ana"]
	if err := w.store.SetTimeZone(ana.ID, "Asia/Tehran"); err != nil {
		t.Fatal(err)
	}
	if err := w.store.SetQuietHours(ana.ID, 12, 14); err != nil { // 08:30 to 10:30 UTC
		t.Fatal(err)
	}
	w.twoPlayerGame("bob", "ana", 0) // both told it started
	if err := w.store.RequestReset("ana"); err != nil {
		t.Fatal(err)
	}
	st, err := ob.RunOnce(ctx)
	if err != nil {
		t.Fatal(err)
	}
	toAna := func() (n int, reset bool) {
		for _, m := range srv.Messages() {
			if slices.Contains(m.To, "ana@example.test") {
				n++
				reset = reset || strings.Contains(m.Data, "Subject: Cacao: set a new password")
			}
		}
		return n, reset
	}
	if n, reset := toAna(); n != 1 || !reset || st.Held == 0 {
		t.Fatalf("in her quiet hours ana got %d messages (the reset: %v), %d held; want the reset alone", n, reset, st.Held)
	}
	w.clock.Advance(89 * time.Minute) // 10:29 UTC: 13:59 in Tehran
	ob.RunOnce(ctx)
	if n, _ := toAna(); n != 1 {
		t.Fatalf("before her quiet hours ended ana got %d messages", n)
	}
	w.clock.Advance(time.Minute) // 14:00 in Tehran
	if st, err := ob.RunOnce(ctx); err != nil || st.Sent == 0 {
		t.Fatalf("once her quiet hours ended: %+v, %v", st, err)
	}
	if n, _ := toAna(); n < 2 {
		t.Fatal("the held mail did not go when her quiet hours ended")
	}
	for _, m := range w.due() {
		t.Fatalf("mail %d still due", m.ID)
	}
}

// TestQuietHoursOffReleasesHeldNews: news held by quiet hours goes at the
// next pass once the player turns their quiet hours off, not when the old
// ones would have ended.
func TestQuietHoursOffReleasesHeldNews(t *testing.T) {
	ctx := context.Background()
	w := newOutboxWorld(t, "ana", "bob") // the clock reads 09:00 UTC
	srv := mailtest.Start(t)
	ob := w.outbox(srv)
	ana := w.users["ana"]
	if err := w.store.SetQuietHours(ana.ID, 8, 12); err != nil {
		t.Fatal(err)
	}
	w.twoPlayerGame("bob", "ana", 0)
	toAna := func() int {
		n := 0
		for _, m := range srv.Messages() {
			if slices.Contains(m.To, "ana@example.test") {
				n++
			}
		}
		return n
	}
	if st, err := ob.RunOnce(ctx); err != nil || st.Held == 0 || toAna() != 0 {
		t.Fatalf("in her quiet hours: %+v, %v, %d messages to ana", st, err, toAna())
	}
	if err := w.store.SetQuietHours(ana.ID, 0, 0); err != nil {
		t.Fatal(err)
	}
	w.clock.Advance(time.Second)
	if st, err := ob.RunOnce(ctx); err != nil || st.Sent == 0 || toAna() == 0 {
		t.Fatalf("her quiet hours turned off, the held news did not go: %+v, %v", st, err)
	}
}
