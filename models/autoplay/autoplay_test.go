package autoplay_test

import (
	"reflect"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"cacao/engine"
	"cacao/models"
	"cacao/models/autoplay"
	"cacao/models/modeltest"
)

func open(t *testing.T, opts ...models.Option) *models.Store {
	t.Helper()
	s, err := models.Open(modeltest.DB(t), append([]models.Option{models.WithPasswordCost(bcrypt.MinCost), models.WithBots(autoplay.Kinds()...)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestGameAgainstBotToTheEnd: a person and a greedy bot play a whole game
// through the store; the log replays to the same result as the record.
func TestGameAgainstBotToTheEnd(t *testing.T) {
	s := open(t)
	ana, err := s.CreateUser("ana", "password-ana")
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != models.StatusActive {
		t.Fatalf("a game with only a bot to wait for is %s; want active", g.Status)
	}
	for i := 0; i < 200; i++ {
		l, err := autoplay.Bots(s, g.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		if l.Game.Status == models.StatusFinished {
			st := l.Play.State()
			if !st.Over() || st.Pending() || st.Turns() != 22 {
				t.Fatalf("finished game: over %v pending %v turns %d", st.Over(), st.Pending(), st.Turns())
			}
			// The position from the log equals a replay of the exported record.
			data, _ := l.Play.Record().Encode()
			rec, err := engine.DecodeRecord(data)
			if err != nil {
				t.Fatal(err)
			}
			st2, err := engine.Replay(rec)
			if err != nil || !reflect.DeepEqual(st2.Score(), st.Score()) {
				t.Fatalf("record replays to %v (%v); log gives %v", st2.Score(), err, st.Score())
			}
			ns, unread, _ := s.Notifications(ana.ID, 0, 50)
			if unread == 0 || ns[0].Kind != "finished" {
				t.Fatalf("no game-over notification: %+v", ns)
			}
			return
		}
		// The bots stopped: it is ana's turn or choice.
		st := l.Play.State()
		seat := l.SeatOf(ana.ID)
		if len(st.Player(seat).Queue()) > 0 {
			_, err = s.CommitResolve(g.ID, l.Game.Version, models.Actor{UserID: ana.ID}, nil)
		} else if st.Current() != seat {
			t.Fatalf("the bots stopped on seat %d's turn, not ana's (%d)", st.Current(), seat)
		} else {
			legal := st.LegalPlacements(nil)
			_, err = s.CommitTurn(g.ID, l.Game.Version, models.Actor{UserID: ana.ID}, engine.Move{Placement: legal[len(legal)/2]})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("the game did not end")
}

// TestBotsOnlyPlayBots: a game whose turn is a person's is left as it is.
func TestBotsOnlyPlayBots(t *testing.T) {
	s := open(t)
	ana, _ := s.CreateUser("ana", "password-ana")
	bob, _ := s.CreateUser("bob", "password-bob")
	g, err := s.CreateGame(ana, models.GameSpec{Seats: []string{models.SeatOpen}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Join(g.ID, "", bob); err != nil {
		t.Fatal(err)
	}
	before, _ := s.LoadGame(g.ID)
	after, err := autoplay.Bots(s, g.ID, nil)
	if err != nil || after.Game.Version != before.Game.Version {
		t.Fatalf("bots moved in a game of people: version %d → %d, %v", before.Game.Version, after.Game.Version, err)
	}
}
