package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"cacao/views/viewtest"
)

// TestBotAccounts: Settings makes an account a bot account once its owner
// ticks that it stays one; the owner lets others seat it; the new-table
// form then offers it beside the site's bots; seated so, it is marked bot
// on the game page, on its profile and in the API, and plays through the
// API. Another account without the tick, or a closed bot, is refused in
// the reader's language and nothing changes.
func TestBotAccounts(t *testing.T) {
	s := newSite(t)
	ana, rob := s.signup("ana"), s.signup("rob")
	_, page := rob.get("/settings")
	if !viewtest.HasText(t, page, "h2#bot-h", "Bot account") || !viewtest.Has(t, page, `form[action="/settings/bot"] input[name="sure"][required]`) {
		t.Fatalf("the settings' bot account:\n%s", viewtest.Show(t, page, `section[aria-labelledby="bot-h"]`))
	}
	code, page := rob.post("/settings/bot", url.Values{})
	if code != http.StatusUnprocessableEntity || !says(t, page, "main .error", "Tick the box first") {
		t.Fatalf("marked without the tick: %d", code)
	}
	if u, _ := s.store.UserNamed("rob"); u.BotAccount {
		t.Fatal("marked without the tick")
	}
	code, page = rob.post("/settings/bot", url.Values{"sure": {"on"}})
	if code != http.StatusOK || !says(t, page, `[role="status"]`, "This is a bot account now") ||
		!viewtest.Has(t, page, `form[action="/settings/bot/open"] input[name="open"]:not([checked])`) {
		t.Fatalf("marked: %d\n%s", code, viewtest.Show(t, page, `section[aria-labelledby="bot-h"]`))
	}
	_, page = ana.get("/")
	if viewtest.Has(t, page, `option[value="~rob"]`) {
		t.Fatal("the form offers a bot its owner keeps closed")
	}
	code, page = ana.post("/games", url.Values{"seat": {"~rob"}})
	if code != http.StatusUnprocessableEntity || !says(t, page, "main .error", "rob is not a bot others may seat") {
		t.Fatalf("a closed bot seated: %d", code)
	}
	if code, page = rob.post("/settings/bot/open", url.Values{"open": {"on"}}); code != http.StatusOK ||
		!viewtest.Has(t, page, `form[action="/settings/bot/open"] input[name="open"][checked]`) {
		t.Fatalf("opened: %d", code)
	}
	_, page = ana.get("/")
	if !viewtest.HasText(t, page, `select#seat2 optgroup option[value="~rob"]`, "rob (bot)") {
		t.Fatalf("the form's seats:\n%s", viewtest.Show(t, page, "select#seat2"))
	}
	if _, page := rob.get("/"); viewtest.Has(t, page, `option[value="~rob"]`) {
		t.Fatal("rob's own form offers to seat rob")
	}
	if _, data := rob.get("/settings/data"); !strings.Contains(data, `"bot_account": true`) || !strings.Contains(data, `"others_may_seat_my_bot": true`) {
		t.Fatalf("rob's data:\n%.600s", data)
	}
	id := ana.createGame("~rob")
	_, page = ana.get(fmt.Sprintf("/games/%d", id))
	if !says(t, page, "main", "rob (bot)") {
		t.Fatalf("the game page does not mark the bot account:\n%.3000s", page)
	}
	_, page = ana.get("/users/rob")
	if !viewtest.HasText(t, page, "h1", "rob (bot)") || !says(t, page, "main", "A bot account: a program plays it through the API.") ||
		!viewtest.Has(t, page, `form[action="/users/rob/follow"]`) {
		t.Fatalf("rob's profile:\n%s", viewtest.Show(t, page, "main"))
	}
	rob.withToken()
	var acct struct {
		Name    string
		Bot     bool
		BotOpen bool `json:"bot_open"`
	}
	if code, body := rob.api("GET", "/api/v1/account", nil, &acct); code != http.StatusOK || !acct.Bot || !acct.BotOpen {
		t.Fatalf("the API's account: %d %s", code, body)
	}
	var g struct {
		Players []struct {
			Name       string
			BotAccount bool `json:"bot_account"`
		}
	}
	if code, body := ana.withToken().api("GET", fmt.Sprintf("/api/v1/games/%d", id), nil, &g); code != http.StatusOK || len(g.Players) != 2 {
		t.Fatalf("the game in the API: %d %s", code, body)
	}
	for _, p := range g.Players {
		if p.BotAccount != (p.Name == "rob") {
			t.Fatalf("the API's players: %+v", g.Players)
		}
	}
	for i := 0; i < 4 && !rob.apiStep(id); i++ {
		ana.apiStep(id)
	}
	if seat, _ := s.seatOf(id, "rob"); s.turnsBy(id, seat) == 0 {
		t.Fatal("the bot account did not play through the API")
	}
	// The notices name it marked too, in the reader's language.
	code, page = rob.post("/games", url.Values{"seat": {"invite"}, "invite": {"ana"}})
	if code != http.StatusOK {
		t.Fatalf("rob invites ana: %d", code)
	}
	if _, page := ana.getLang("/notifications", "de"); !says(t, page, "main", "rob (Bot) hat dich zu Spiel") {
		t.Fatalf("ana's notices:\n%s", viewtest.Show(t, page, "main"))
	}
	// Invited by name, the bot declines through the API: the notice marks it.
	code, page = ana.post("/games", url.Values{"seat": {"invite"}, "invite": {"rob"}})
	table := gameIDRE.FindStringSubmatch(page)
	if code != http.StatusOK || table == nil {
		t.Fatalf("ana invites rob: %d", code)
	}
	if code, body := rob.api("POST", "/api/v1/games/"+table[1]+"/decline", nil, nil); code/100 != 2 {
		t.Fatalf("rob declines: %d %s", code, body)
	}
	if _, page := ana.get("/notifications"); !says(t, page, "main", "rob (bot) declined your invitation to game "+table[1]) {
		t.Fatalf("ana's notices:\n%s", viewtest.Show(t, page, "main"))
	}
}
