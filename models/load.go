package models

import (
	"fmt"
	"time"

	"cacao/engine"
)

// Loaded is a game with its seats, its log and its position replayed from
// them. Seats are in play order once the game has started (in offered order
// before). Play is nil while the game is open.
type Loaded struct {
	Game   Game
	Seats  []Seat
	Log    []LogEntry
	Play   *engine.Game
	Events []Event
	// record: the game is a record's (FromRecord), whose turns resolve
	// the reactions they do not list at once, as a record's replay does.
	record bool
}

// Event is one log entry as it played out: what was done and what every seat
// gained by it (resources after minus before).
type Event struct {
	Seq       int
	Kind      string
	Seat      int
	Turn      int
	At        time.Time
	Timeout   bool // played by the stand-in bot when the seat's time ran out
	Auto      bool // decided at once by the seat's "always decide for me" policy
	Stand     bool // played by the stand-in bot for an abandoned seat
	By        int  // for LogAbandon, the seat that handed the seat over; -1 after timeouts
	Placement engine.Placement
	Fills     []engine.Fill
	Gains     []engine.Gain
}

// SeatOf returns the engine seat of a user in this game, or -1.
func (l *Loaded) SeatOf(userID uint) int {
	i := UserSeat(l.Seats, userID)
	if i < 0 || l.Game.Status == StatusOpen {
		return i
	}
	return l.Seats[i].Index
}

// Names lists the seats' names in play order.
func (l *Loaded) Names() []string {
	out := make([]string, len(l.Seats))
	for i, s := range l.Seats {
		out[i] = s.Name
	}
	return out
}

// LoadGame returns a game with its seats, log and replayed position: from
// the game's stored replay when there is one (see replays), applying only
// the entries appended since. The log is read up to the version of the game
// row read, never past it, though a commit may land between the statements.
func (s *Store) LoadGame(id uint) (*Loaded, error) {
	l := &Loaded{}
	if err := s.db.Take(&l.Game, id).Error; err != nil {
		return nil, notFound(err)
	}
	if err := s.db.Where("game_id = ?", id).Find(&l.Seats).Error; err != nil {
		return nil, err
	}
	sortSeats(l.Seats, l.Game.Status)
	if l.Game.Status == StatusOpen {
		return l, nil
	}
	from := 0
	if r := s.replays.get(id); r != nil && r.version <= l.Game.Version {
		n := len(r.log)
		l.Log, l.Events, l.Play = r.log[:n:n], r.events[:n:n], r.play.Clone()
		if r.version == l.Game.Version {
			return l, nil
		}
		from = n
	} else if err := l.start(); err != nil {
		return nil, fmt.Errorf("models: game %d does not replay: %w", id, err)
	}
	var more []LogEntry
	if err := s.db.Where("game_id = ? AND seq >= ? AND version <= ?", id, from, l.Game.Version).Order("seq").Find(&more).Error; err != nil {
		return nil, err
	}
	for _, e := range more {
		l.Log = append(l.Log, e)
		if err := l.apply(e); err != nil {
			return nil, fmt.Errorf("models: game %d does not replay: log entry %d: %w", id, e.Seq, err)
		}
	}
	s.remember(l)
	return l, nil
}

// copy returns l with a position, seats and log of its own (to append to
// and change without changing l's).
func (l *Loaded) copy() *Loaded {
	c := *l
	n := len(l.Log)
	c.Log, c.Events = l.Log[:n:n], l.Events[:n:n]
	c.Seats = append([]Seat(nil), l.Seats...)
	if l.Play != nil {
		c.Play = l.Play.Clone()
	}
	return &c
}

// remember stores the replay of l (committed data only).
func (s *Store) remember(l *Loaded) {
	n := len(l.Log)
	s.replays.put(&replay{id: l.Game.ID, version: l.Game.Version, log: l.Log[:n:n], events: l.Events[:n:n], play: l.Play.Clone()})
}

// start sets up the position the log is played from.
func (l *Loaded) start() error {
	su, err := engine.UnmarshalSetup([]byte(l.Game.Setup))
	if err != nil {
		return err
	}
	l.Play, err = engine.NewGame(l.Names(), l.Game.First, su)
	return err
}

// apply plays one log entry and records its event.
func (l *Loaded) apply(e LogEntry) error {
	s := l.Play.State()
	before := snapshot(s)
	ev := Event{Seq: e.Seq, Kind: e.Kind, Seat: e.Seat, Turn: e.Turn, At: e.CreatedAt, Timeout: e.Timeout, Auto: e.Auto, Stand: e.Stand}
	switch e.Kind {
	case LogTurn:
		t, err := engine.UnmarshalTurn([]byte(e.Data), s.Players())
		if err != nil {
			return err
		}
		if l.record && t.Move.Reactions == nil {
			t.Move.Reactions = map[int][]engine.Act{}
		}
		out, err := l.Play.Play(t.Seat, t.Move)
		if err != nil {
			return err
		}
		ev.Placement, ev.Fills = out.Placement, append([]engine.Fill(nil), out.Fills...)
	case LogResolve:
		acts, err := engine.UnmarshalActs([]byte(e.Data))
		if err != nil {
			return err
		}
		if _, err := l.Play.Resolve(e.Seat, acts); err != nil {
			return err
		}
	case LogResign, LogBack:
		// Nothing changes in the position, only who plays the seat.
	case LogAbandon:
		by, err := handedBy(e.Data)
		if err != nil {
			return err
		}
		ev.By = by
	default:
		return fmt.Errorf("unknown log entry kind %q", e.Kind)
	}
	ev.Gains = gains(before, s)
	l.Events = append(l.Events, ev)
	return nil
}

func snapshot(s *engine.State) []engine.Player {
	out := make([]engine.Player, s.Players())
	for i := range out {
		out[i] = *s.Player(i)
	}
	return out
}

func gains(before []engine.Player, s *engine.State) []engine.Gain {
	out := make([]engine.Gain, len(before))
	for i := range before {
		out[i] = engine.GainOf(i, &before[i], s.Player(i))
	}
	return out
}
