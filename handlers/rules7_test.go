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

// autoBox matches the "always decide for me" checkbox, checked or not.
const autoBox = `input[type="checkbox"][name="auto"][value="on"]`

// autoDecideOf reads name's standing policy from the store.
func (s *site) autoDecideOf(name string) bool {
	s.t.Helper()
	u, err := s.store.Authenticate(name, "secret-"+name)
	if err != nil {
		s.t.Fatal(err)
	}
	return u.AutoDecide
}

// TestSettingsAutoDecide: the settings page has a "Choices" section whose
// checkbox sets and clears the standing policy "always decide for me"; a
// post without the CSRF token, or without a session, changes nothing.
func TestSettingsAutoDecide(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	code, body := ana.get("/settings")
	if code != http.StatusOK || !viewtest.HasText(t, body, "h2#choices-h", "Choices") || !viewtest.Has(t, body, `form[action="/settings/auto"]`) {
		t.Fatalf("the settings page has no Choices section (%d)", code)
	}
	if !viewtest.Has(t, body, autoBox+":not([checked])") ||
		!strings.HasPrefix(viewtest.Text(t, body, "label:has("+autoBox+")"), "Always decide for me: when my workers are activated on someone else's turn") {
		t.Fatal("the Choices section lacks the unchecked “always decide for me” checkbox")
	}

	code, body = ana.post("/settings/auto", url.Values{"auto": {"on"}})
	if code != http.StatusOK || !strings.Contains(body, "Saved.") || !viewtest.Has(t, body, autoBox+"[checked]") {
		t.Fatalf("turning the policy on: %d; want the settings again, saved, the box checked", code)
	}
	if !s.autoDecideOf("ana") {
		t.Fatal("the policy was not stored")
	}

	// Forged or anonymous posts do not clear it.
	for _, tok := range []string{"", "forged"} {
		if code, _ := ana.post("/settings/auto", url.Values{"_csrf": {tok}}); code != http.StatusForbidden && code != http.StatusBadRequest {
			t.Errorf("a post with CSRF token %q: %d; want 400 or 403", tok, code)
		}
	}
	if code, _ := s.client("anon").post("/settings/auto", nil); code != http.StatusUnauthorized {
		t.Errorf("an anonymous post: %d; want 401", code)
	}
	if !s.autoDecideOf("ana") {
		t.Fatal("a refused post cleared the policy")
	}

	code, body = ana.post("/settings/auto", nil) // the box unchecked
	if code != http.StatusOK || !viewtest.Has(t, body, autoBox+":not([checked])") {
		t.Fatalf("clearing the policy: %d; want the settings again, the box unchecked", code)
	}
	if s.autoDecideOf("ana") {
		t.Fatal("the policy was not cleared")
	}
	ana.get("/settings")
	for _, tok := range []string{"", "forged"} {
		ana.post("/settings/auto", url.Values{"_csrf": {tok}, "auto": {"on"}})
	}
	if s.autoDecideOf("ana") {
		t.Fatal("a forged post set the policy")
	}
}

// TestAutoDecideFromSettings: a player with a choice waiting turns the
// policy on in the settings; the choice is made at once with the best-value
// choice and logged as theirs, and the game page no longer asks for it.
// Later choices never wait for them.
func TestAutoDecideFromSettings(t *testing.T) {
	// A fixed deal and fixed moves, in which a choice waits for a player
	// not to move and more come after the policy is on.
	const seed = 5
	s := newSite(t, models.WithDealer(func(n int) ([]int, int, engine.Setup) {
		su, _ := engine.NewSetup(n, seed)
		return []int{0, 1, 2, 3}[:n], 0, su
	}))
	players := []*client{s.signup("ana"), s.signup("bob"), s.signup("carl")}
	id := players[0].createGame("open", "open", "none")
	for _, c := range players[1:] {
		if code, _ := c.post(fmt.Sprintf("/games/%d/join", id), nil); code != http.StatusOK {
			t.Fatalf("join: %d", code)
		}
	}
	byName := map[string]*client{}
	for _, c := range players {
		byName[c.name] = c
	}
	r := engine.NewRand(seed)
	// Play (everyone making their choices with the defaults when it is
	// their turn) until a player not to move has a choice waiting.
	var holder *client
	var l *models.Loaded
	for step := 0; holder == nil; step++ {
		_, l = s.seatOf(id, "ana")
		if step == 200 || l.Game.Status != models.StatusActive {
			t.Fatal("no choice waited for a player not to move in this game")
		}
		st := l.Play.State()
		for i, seat := range l.Seats {
			if i != st.Current() && len(st.Player(i).Queue()) > 0 {
				holder = byName[seat.Name]
			}
		}
		if holder == nil {
			byName[l.Seats[st.Current()].Name].act(id, r)
		}
	}
	seat, _ := s.seatOf(id, holder.name)
	page := fmt.Sprintf("/games/%d", id)
	if _, body := holder.get(page); !viewtest.Has(t, body, fmt.Sprintf(`form[action="/games/%d/resolve"]`, id)) {
		t.Fatal("the game page does not ask for the waiting choice")
	}
	g := l.Play.Clone()
	for len(g.State().Player(seat).Queue()) > 0 {
		if _, err := g.ResolveBest(seat); err != nil {
			t.Fatal(err)
		}
	}
	want := *g.State().Player(seat)

	holder.get("/settings")
	if code, _ := holder.post("/settings/auto", url.Values{"auto": {"on"}}); code != http.StatusOK {
		t.Fatalf("turning the policy on: %d", code)
	}
	_, after := s.seatOf(id, holder.name)
	got := *after.Play.State().Player(seat)
	if len(got.Queue()) != 0 || got.Gold != want.Gold || got.Fruit != want.Fruit {
		t.Fatalf("after turning the policy on: %d batches wait, gold %d fruit %d; want none, the best-value gold %d fruit %d",
			len(got.Queue()), got.Gold, got.Fruit, want.Gold, want.Fruit)
	}
	added := after.Log[len(l.Log):]
	if len(added) == 0 {
		t.Fatal("no resolution was logged")
	}
	for _, e := range added {
		if e.Kind != models.LogResolve || e.Seat != seat || e.Timeout || e.UserID == nil {
			t.Fatalf("entry %+v: want the player's resolution", e)
		}
	}
	if _, body := holder.get(page); viewtest.Has(t, body, fmt.Sprintf(`[action="/games/%d/resolve"]`, id)) {
		t.Fatal("the game page still asks for the choice")
	}

	// The game goes on; no choice ever waits for the holder again.
	checkedSince := false
	for step := 0; step < 300; step++ {
		_, l = s.seatOf(id, "ana")
		if l.Game.Status != models.StatusActive {
			break
		}
		st := l.Play.State()
		if n := len(st.Player(seat).Queue()); n > 0 {
			t.Fatalf("%d batches wait for %s, who asked to have choices made at once", n, holder.name)
		}
		cur := st.Current()
		if st.Over() {
			for i := range l.Seats {
				if len(st.Player(i).Queue()) > 0 {
					cur = i
				}
			}
		}
		mover := l.Seats[cur].Name
		byName[mover].act(id, r)
		// A choice made at once for the holder on someone else's turn is
		// not a move of theirs: "since your last move" still tells that
		// turn, and the log says the choice was made for them.
		_, now := s.seatOf(id, holder.name)
		if last := now.Log[len(now.Log)-1]; mover != holder.name && last.Seat == seat && now.Game.Status == models.StatusActive {
			if !last.Auto {
				t.Fatalf("the choice made for %s is not marked as made by their policy: %+v", holder.name, last)
			}
			_, body := holder.get(page)
			if !strings.Contains(viewtest.Text(t, body, "main #since"), mover+" placed") {
				t.Fatalf("after %s's turn and the choice made for %s, the since panel does not tell %s's move", mover, holder.name, mover)
			}
			if !strings.Contains(body, holder.name+" (decided at once, as they asked)") {
				t.Fatal("the log does not say the choice was made by the player's policy")
			}
			checkedSince = true
		}
	}
	if !checkedSince {
		t.Fatal("no choice was made for the holder on another's turn after the policy was on: the test no longer covers the since panel")
	}
	if l.Game.Status != models.StatusFinished {
		t.Fatal("the game did not finish")
	}
	later := 0
	for _, e := range l.Log[len(after.Log):] {
		if e.Seat == seat && e.Kind == models.LogResolve {
			later++
		}
	}
	if later == 0 {
		t.Fatal("no later choice was made for the player: the test no longer covers choices after the policy is on")
	}
}
