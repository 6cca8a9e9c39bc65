package models_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"cacao/models"
)

// TestChat: the players write, the others count it unread until they
// read it; a stranger writes nothing; a message is at most 500
// characters, one every 2 seconds; muting counts nothing; the newest
// messages come first a page at a time.
func TestChat(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob, eve := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "eve")
	id := startDuel(t, s, ana, bob, 0)
	if _, err := s.Say(ana, id, "  hello <b>bob</b>  "); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Say(eve, id, "hi"); !errors.Is(err, models.ErrChatNotSeat) {
		t.Fatalf("a stranger wrote: %v", err)
	}
	if _, err := s.Say(ana, id, "again"); !errors.Is(err, models.ErrChatFast) {
		t.Fatalf("a second message at once: %v", err)
	}
	clock.Advance(models.ChatGap)
	for _, bad := range []string{" \n ", strings.Repeat("é", models.ChatMaxLength+1)} {
		if _, err := s.Say(ana, id, bad); !errors.Is(err, models.ErrInvalid) {
			t.Fatalf("%.10q: %v", bad, err)
		}
	}
	if _, err := s.Say(ana, id, strings.Repeat("é", models.ChatMaxLength)); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.ChatUnread(bob.ID); n != 2 {
		t.Fatalf("bob has %d unread; want 2", n)
	}
	if n, _ := s.ChatUnread(ana.ID); n != 0 {
		t.Fatalf("ana has %d unread of her own", n)
	}
	if g, _ := s.NextChat(bob.ID); g != id {
		t.Fatalf("bob's next chat: game %d", g)
	}
	msgs, more, err := s.Chat(id, 0)
	if err != nil || more || len(msgs) != 2 || msgs[0].Text != "hello <b>bob</b>" || msgs[0].Name != "ana" {
		t.Fatalf("the chat: %+v, %v, %v", msgs, more, err)
	}
	if err := s.ReadChat(bob.ID, id); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.ChatUnread(bob.ID); n != 0 {
		t.Fatalf("bob read the chat and has %d unread", n)
	}
	if err := s.MuteChat(bob.ID, id, true); err != nil {
		t.Fatal(err)
	}
	if err := s.MuteChat(eve.ID, id, true); !errors.Is(err, models.ErrChatNotSeat) {
		t.Fatalf("eve muted a game of others: %v", err)
	}
	clock.Advance(models.ChatGap)
	if _, err := s.Say(ana, id, "anyone?"); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.ChatUnread(bob.ID); n != 0 {
		t.Fatalf("bob muted the chat and has %d unread", n)
	}
	for i := 0; i < models.ChatShown; i++ {
		clock.Advance(models.ChatGap)
		if _, err := s.Say(bob, id, "spam"); err != nil {
			t.Fatal(err)
		}
	}
	page, more, _ := s.Chat(id, 0)
	if len(page) != models.ChatShown || !more || page[len(page)-1].Name != "bob" {
		t.Fatalf("the newest page: %d messages, more %v", len(page), more)
	}
	earlier, more, _ := s.Chat(id, page[0].ID)
	if len(earlier) != 3 || more || earlier[0].Text != "hello <b>bob</b>" {
		t.Fatalf("the page before: %d messages, more %v", len(earlier), more)
	}
	since, more, _ := s.ChatSince(id, ana.ID, t0, 5)
	if !more || len(since) != 5 || since[4].Name != "bob" { // bob's, not ana's own
		t.Fatalf("since the start, for ana: %d, more %v", len(since), more)
	}
	if _, more, _ := s.ChatSince(id, ana.ID, t0, models.ChatShown); more {
		t.Fatal("more than bob's 50 messages")
	}
}

// TestChatPerDay: 200 messages a day per player, in all games together.
func TestChatPerDay(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	a, b := startDuel(t, s, ana, bob, 0), startDuel(t, s, bob, ana, 0)
	for i := 0; i < models.ChatPerDay; i++ {
		clock.Advance(models.ChatGap)
		if _, err := s.Say(ana, []uint{a, b}[i%2], "hi"); err != nil {
			t.Fatal(i, err)
		}
	}
	clock.Advance(time.Minute)
	if _, err := s.Say(ana, a, "one more"); !errors.Is(err, models.ErrChatDay) {
		t.Fatalf("message %d of the day: %v", models.ChatPerDay+1, err)
	}
	clock.Advance(24 * time.Hour)
	if _, err := s.Say(ana, a, "a new day"); err != nil {
		t.Fatal(err)
	}
}

// TestChatReports: a report reaches the admins once per reader; hiding
// the message keeps it hidden, closes its reports and is audited; a
// reader reports at most ReportsPerDay messages a day.
func TestChatReports(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob, root := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "root")
	id := startDuel(t, s, ana, bob, 0)
	msg, err := s.Say(ana, id, "rude")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := s.ReportChat(bob.ID, id, msg.ID); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.ReportChat(bob.ID, id+1, msg.ID); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("a report through another game: %v", err)
	}
	reported, total, err := s.Reports(0, 10)
	if err != nil || total != 1 || len(reported) != 1 || reported[0].ID != msg.ID || reported[0].Reports != 1 {
		t.Fatalf("reports: %+v of %d, %v", reported, total, err)
	}
	if err := s.Moderate(root, msg.ID, true); err != nil {
		t.Fatal(err)
	}
	if msgs, _, _ := s.Chat(id, 0); !msgs[0].Hidden {
		t.Fatal("the message is not hidden")
	}
	if _, total, _ := s.Reports(0, 10); total != 0 {
		t.Fatalf("%d reports still open", total)
	}
	if lines, _, _ := s.AuditLog(0, 10); len(lines) != 1 || lines[0].Action != models.AuditHide || lines[0].GameID != id {
		t.Fatalf("the audit log: %+v", lines)
	}
	// One reader reports ReportsPerDay messages a day.
	for i := 1; i <= models.ReportsPerDay; i++ {
		clock.Advance(models.ChatGap)
		msg, err := s.Say(ana, id, fmt.Sprintf("rude %d", i))
		if err != nil {
			t.Fatal(err)
		}
		err = s.ReportChat(bob.ID, id, msg.ID)
		if i < models.ReportsPerDay && err != nil || i == models.ReportsPerDay && !errors.Is(err, models.ErrReportsDay) {
			t.Fatalf("bob's report %d of the day: %v", i+1, err)
		}
		if i == models.ReportsPerDay {
			clock.Advance(24 * time.Hour)
			if err := s.ReportChat(bob.ID, id, msg.ID); err != nil {
				t.Fatalf("bob's report the next day: %v", err)
			}
		}
	}
}

// TestDigestTellsOfChat: a digest user whom no game waits on gets a digest
// when a message waits unread, listing its game; none once it is read.
func TestDigestTellsOfChat(t *testing.T) {
	s, clock := openClocked(t)
	dana, erin := models.MustUser(t, s, "dana"), models.MustUser(t, s, "erin")
	for _, u := range []*models.User{dana, erin} {
		mustEmail(t, s, u, u.Username+"@example.com", models.MailDigest, true)
		if err := s.SetDigestHour(u.ID, 9); err != nil { // the clock reads 09:00
			t.Fatal(err)
		}
	}
	id := startDuel(t, s, dana, erin, 0) // dana to play: erin waits on nothing
	if ms := mailsOf(t, s, erin.ID, models.KindDigest); mustDigests(t, s) != 1 || len(ms) != 0 {
		t.Fatal("a digest for erin, whom nothing waits on")
	}
	if _, err := s.Say(dana, id, "good luck"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(24 * time.Hour)
	if n := mustDigests(t, s); n != 2 || len(mailsOf(t, s, erin.ID, models.KindDigest)) != 1 {
		t.Fatalf("%d digests the next day; want dana's and erin's", n)
	}
	ds := mailsOf(t, s, erin.ID, models.KindDigest)
	r, skip, err := s.MailRecipient(&ds[0])
	if err != nil || skip != "" || len(r.Waiting) != 0 || len(r.Chats) != 1 || r.Chats[0].Game.ID != id || r.Chats[0].ChatUnread != 1 {
		t.Fatalf("erin's digest: skip %q (%v), waiting %d, chats %+v", skip, err, len(r.Waiting), r.Chats)
	}
	if err := s.ReadChat(erin.ID, id); err != nil {
		t.Fatal(err)
	}
	if _, skip, _ := s.MailRecipient(&ds[0]); skip == "" {
		t.Fatal("erin's digest with the message read is still sent")
	}
}
