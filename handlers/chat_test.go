package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"cacao/engine"
	"cacao/models"
	"cacao/views/viewtest"
)

// TestChatOnTheGamePage: a player writes with a plain form; the text is
// shown escaped and its link as text; the other player sees the count in
// the header until they open the game; a watcher reads but has no form and
// cannot write; refusals say why in the chat and keep the text.
func TestChatOnTheGamePage(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	eve := s.signup("eve")
	game := fmt.Sprintf("/games/%d", id)
	said := `<script>alert(1)</script> see https://evil.example/x`
	code, page := ana.post(game+"/chat", url.Values{"text": {said}})
	if code != http.StatusOK || !viewtest.Has(t, page, "#chat") {
		t.Fatalf("ana's message: %d", code)
	}
	// The message is a paragraph's text: neither a script nor a link.
	if !viewtest.HasText(t, page, "#chat p.said", said) || viewtest.Has(t, page, `script:contains("alert")`) || viewtest.Has(t, page, `[href^="https://evil"]`) {
		t.Fatalf("the message is not shown as text:\n%s", viewtest.Show(t, page, "#chat p.said"))
	}
	if _, home := bob.get("/"); !viewtest.HasText(t, home, `a[href="/chat"]`, "Chat (1)") || !viewtest.HasText(t, home, `a[href$="#chat"]`, "1 new message") {
		t.Fatal("bob's home does not count the message")
	}
	if code, page := bob.get("/chat"); code != http.StatusOK || !viewtest.HasText(t, page, "h1", fmt.Sprintf("Game %d", id)) {
		t.Fatalf("/chat does not open the game with the unread message: %d", code)
	}
	if _, home := bob.get("/"); viewtest.Has(t, home, `[href="/chat"]`) {
		t.Fatal("the message is still unread once bob opened the game")
	}

	_, watched := eve.get(game)
	if !viewtest.HasText(t, watched, "#chat p.said", said) || viewtest.Has(t, watched, "#chat-text") || strings.Contains(watched, "Mute this chat") {
		t.Fatal("a watcher's page of the chat")
	}
	if code, body := eve.post(game+"/chat", url.Values{"text": {"let me in"}}); code != http.StatusUnprocessableEntity ||
		!strings.Contains(body, "Only the players of this game write in its chat") {
		t.Fatalf("eve wrote: %d", code)
	}

	ana.get(game)
	code, panel := ana.htmx("POST", game+"/chat", url.Values{"text": {"quick <b>again</b>"}})
	if code != http.StatusUnprocessableEntity || !strings.Contains(panel, "Wait a moment before your next message") ||
		viewtest.Text(t, panel, "textarea#chat-text") != "quick <b>again</b>" || strings.Contains(panel, "<html") {
		t.Fatalf("a message too soon: %d\n%s", code, panel)
	}
	s.clock.Advance(models.ChatGap)
	code, panel = ana.htmx("POST", game+"/chat", url.Values{"text": {strings.Repeat("a", models.ChatMaxLength+1)}})
	if code != http.StatusUnprocessableEntity || !strings.Contains(panel, "A message has at most 500 characters") {
		t.Fatalf("a message too long: %d", code)
	}
	code, panel = ana.htmx("POST", game+"/chat", url.Values{"text": {"gl hf"}})
	if code != http.StatusOK || !strings.Contains(panel, "gl hf") || !viewtest.HasText(t, panel, "textarea#chat-text[autofocus]", "") {
		t.Fatalf("a message through htmx: %d\n%s", code, panel)
	}
	msgs, _, _ := s.store.Chat(id, 0)
	if len(msgs) != 2 {
		t.Fatalf("%d messages stored; want 2", len(msgs))
	}
}

// TestChatLiveRefetch: the refetch a new message triggers shows it, reads
// it out to the others, and takes the header's count; the page that
// follows the chat names its newest message.
func TestChatLiveRefetch(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	game := fmt.Sprintf("/games/%d", id)
	_, page := bob.get(game)
	if !viewtest.Has(t, page, `[sse-connect$="&chat=0"]`) || !viewtest.Has(t, page, `[hx-trigger="sse:chat"][data-live-version="0"]`) {
		t.Fatalf("the game page does not follow its chat:\n%s", viewtest.Show(t, page, "[sse-connect], [hx-trigger]"))
	}
	if _, panel := ana.htmx("POST", game+"/chat", url.Values{"text": {"hello bob"}}); !strings.Contains(panel, "hello bob") {
		t.Fatalf("the game's first message, sent through htmx, is not in the chat it answers with:\n%s", panel)
	}
	msgs, _, _ := s.store.Chat(id, 0)
	_, frag := bob.htmx("GET", game+"/chat?after=0", nil)
	if !viewtest.HasText(t, frag, "#announce p", "ana says: hello bob") || !viewtest.Has(t, frag, fmt.Sprintf(`[data-live-version="%d"]`, msgs[0].ID)) ||
		!viewtest.Has(t, frag, "span#chat-unread:empty") || strings.Contains(frag, "<html") {
		t.Fatalf("bob's refetch:\n%s", frag)
	}
	if _, frag := ana.htmx("GET", game+"/chat?after=0", nil); strings.Contains(frag, "says:") {
		t.Fatal("ana's own message is read out to her")
	}
}

// TestChatMuteAndReport: a muted chat shows and counts nothing until shown
// again; a report thanks the reader and reaches the admins' list once.
func TestChatMuteAndReport(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	game := fmt.Sprintf("/games/%d", id)
	ana.post(game+"/chat", url.Values{"text": {"you will lose"}})
	bob.get(game)
	_, page := bob.post(game+"/chat/mute", url.Values{"muted": {"1"}})
	if !strings.Contains(page, "You muted this game&#39;s chat") || strings.Contains(page, "you will lose") || !strings.Contains(page, "Show the chat again") {
		t.Fatalf("bob's muted chat:\n%s", page)
	}
	s.clock.Advance(models.ChatGap)
	ana.post(game+"/chat", url.Values{"text": {"still here"}})
	if _, home := bob.get("/"); viewtest.Has(t, home, `[href="/chat"]`) {
		t.Fatal("a muted chat counts unread")
	}
	_, page = bob.post(game+"/chat/mute", url.Values{"muted": {"0"}})
	if !strings.Contains(page, "still here") {
		t.Fatal("the chat shown again")
	}
	msgs, _, _ := s.store.Chat(id, 0)
	for i := 0; i < 2; i++ {
		_, page = bob.post(game+"/chat/report", url.Values{"msg": {fmt.Sprint(msgs[0].ID)}})
		if !strings.Contains(page, "Thank you: the admins will read the message you reported.") {
			t.Fatal("no thanks for the report")
		}
	}
	if code, _ := bob.post(game+"/chat/report", url.Values{"msg": {"x"}}); code != http.StatusUnprocessableEntity {
		t.Fatalf("a report of no message: %d", code)
	}
	if _, n, _ := s.store.Reports(0, 10); n != 1 {
		t.Fatalf("%d reported messages; want 1", n)
	}
	if code, _ := s.client("anon").get(game + "/chat"); code != http.StatusOK {
		t.Fatalf("an anonymous visitor: %d", code)
	}
}

// TestAdminHidesAReportedMessage: the admins list a reported message
// (escaped) with its game; hidden, it shows no text to anyone and leaves
// the list; the audit log says so.
func TestAdminHidesAReportedMessage(t *testing.T) {
	s := newSite(t)
	root := s.signup("root")
	if _, err := s.store.SetAdmin("root", true); err != nil {
		t.Fatal(err)
	}
	id, ana, bob := s.anaAndBob()
	game := fmt.Sprintf("/games/%d", id)
	ana.post(game+"/chat", url.Values{"text": {"<i>rude</i>"}})
	msgs, _, _ := s.store.Chat(id, 0)
	bob.get(game)
	bob.post(game+"/chat/report", url.Values{"msg": {fmt.Sprint(msgs[0].ID)}})
	_, list := root.get("/admin/reports")
	if !viewtest.HasText(t, list, ".reports p.said", "<i>rude</i>") || !viewtest.Has(t, list, fmt.Sprintf(`.reports a[href="%s#m%d"]`, game, msgs[0].ID)) || !strings.Contains(list, "reported by 1 player") {
		t.Fatalf("the admins' list:\n%s", list)
	}
	_, list = root.post(fmt.Sprintf("/admin/reports/%d", msgs[0].ID), url.Values{"action": {"hide"}})
	if !strings.Contains(list, "The message is hidden.") || strings.Contains(list, "rude") {
		t.Fatal("the list after hiding")
	}
	if _, page := bob.get(game); strings.Contains(page, "rude") || !strings.Contains(page, "(hidden by an admin)") {
		t.Fatal("the hidden message is still shown")
	}
	if _, audit := root.get("/admin/audit"); !strings.Contains(audit, "chat message hidden") {
		t.Fatal("the audit log does not tell of it")
	}
}

// TestChatSinceLastMove: the since panel of the player to move shows what
// the other wrote meanwhile (not their own messages); once they have
// moved, those messages are no longer new to the panel.
func TestChatSinceLastMove(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	game := fmt.Sprintf("/games/%d", id)
	mover, other := ana, bob
	if seat, l := s.seatOf(id, "bob"); l.Play.State().Current() == seat {
		mover, other = bob, ana
	}
	other.post(game+"/chat", url.Values{"text": {"your move, friend"}})
	s.clock.Advance(models.ChatGap)
	mover.post(game+"/chat", url.Values{"text": {"thinking"}})
	_, page := mover.get(game)
	since := viewtest.Text(t, page, "#since")
	if !strings.Contains(since, "your move, friend") || strings.Contains(since, "thinking") || !viewtest.Has(t, page, `#since a[href="#chat"]`) {
		t.Fatalf("the since panel:\n%s", viewtest.Show(t, page, "#since"))
	}
	if !mover.act(id, engine.NewRand(1)) {
		t.Fatal("the player to move could not")
	}
	if _, page := mover.get(game); viewtest.Has(t, page, ".since-chat") {
		t.Fatal("messages from before the move are still in the since panel")
	}
}
