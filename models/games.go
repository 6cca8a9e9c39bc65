package models

import (
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"
	"gorm.io/gorm"

	"cacao/engine"
	"cacao/engine/bot"
)

// SeatOpen marks a seat offered to any player (or to whoever has the invite link).
const SeatOpen = "open"

// Game errors worded for players.
var (
	ErrNotOpen      = invalid("this game is not open for players")
	ErrAlreadyIn    = invalid("you already have a seat in this game")
	ErrNotActive    = invalid("this game is not being played")
	ErrBadSeatSpecs = invalid("a game has 2 to 4 seats, each open, for an invited player, or a bot (random or greedy)")
	ErrBadTurnLimit = invalid("the time per turn is none, 1 day, 3 days or 7 days")
	ErrNotInvited   = invalid("no seat in this game is kept for you")
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
	// stored are the seen marks of seats as the database holds them, where
	// the marks not yet written (overlaySeen) replaced them in Seats.
	stored []seenOf
}

// Event is one log entry as it played out: what was done and what every seat
// gained by it (resources after minus before).
type Event struct {
	Seq       int
	Kind      string
	Seat      int
	Turn      int
	At        time.Time
	Timeout   bool // played by the greedy bot when the seat's time ran out
	Auto      bool // decided at once by the seat's "always decide for me" policy
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

func randomToken() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b[:])
}

func randomUint64() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return binary.LittleEndian.Uint64(b[:])
}

// GameSpec is what a game is created with. Seats lists the seats besides
// the creator's: SeatOpen, a bot name, or "@name" to invite that user to a
// seat kept for them. TurnHours is the time limit per turn: 0 (none), 24,
// 72 or 168.
type GameSpec struct {
	Seats     []string
	TurnHours int
}

// TurnLimits are the time limits a game may have, in hours (0: none).
var TurnLimits = []int{0, 24, 72, 168}

// CreateGame creates a game whose first seat is the creator's. With no open
// seat the game starts at once; invited users are told.
func (s *Store) CreateGame(creator *User, spec GameSpec) (*Game, error) {
	others := spec.Seats
	if len(others) < 1 || len(others) > 3 {
		return nil, ErrBadSeatSpecs
	}
	if !slices.Contains(TurnLimits, spec.TurnHours) {
		return nil, ErrBadTurnLimit
	}
	g := &Game{Status: StatusOpen, NumPlayers: len(others) + 1, CreatorID: creator.ID, InviteToken: randomToken(), TurnHours: spec.TurnHours}
	uid := creator.ID
	g.Seats = append(g.Seats, Seat{Slot: 0, Index: -1, UserID: &uid, Name: creator.Username})
	err := s.w.Transaction(func(tx *gorm.DB) error {
		for i, o := range others {
			seat := Seat{Slot: i + 1, Index: -1}
			switch {
			case o == SeatOpen:
			case strings.HasPrefix(o, "@"):
				var u User
				err := userNamed(tx.Select("id", "username"), strings.TrimSpace(o[1:]), &u)
				if errors.Is(err, gorm.ErrRecordNotFound) {
					return invalid("nobody here is called “%s”", strings.TrimSpace(o[1:]))
				}
				if err != nil {
					return err
				}
				for _, other := range g.Seats {
					if other.UserID != nil && *other.UserID == u.ID || other.InvitedID != nil && *other.InvitedID == u.ID {
						return invalid("%s has a seat already", u.Username)
					}
				}
				seat.InvitedID = &u.ID
			default:
				b, ok := bot.ByName(o)
				if !ok {
					return ErrBadSeatSpecs
				}
				seat.Bot = b.Name()
				seat.Name = fmt.Sprintf("%s bot %d", b.Name(), i+1)
			}
			g.Seats = append(g.Seats, seat)
		}
		if err := tx.Create(g).Error; err != nil {
			return err
		}
		for _, seat := range g.Seats {
			if seat.InvitedID != nil {
				if err := s.notify(tx, *seat.InvitedID, g.ID, "invited", "%s invited you to game %d.", creator.Username, g.ID); err != nil {
					return err
				}
			}
		}
		return s.startIfFull(tx, g)
	})
	if err != nil {
		return nil, err
	}
	s.changed(g, g.Seats, true)
	return g, nil
}

// Join gives user a seat of game id (by id, or by invite token when token is
// not empty): the one kept for them if they were invited, else the first
// open seat kept for nobody.
func (s *Store) Join(id uint, token string, user *User) (*Game, error) {
	var g Game
	err := s.w.Transaction(func(tx *gorm.DB) error {
		if err := takeGame(tx, id, token, &g); err != nil {
			return err
		}
		if g.Status != StatusOpen {
			return ErrNotOpen
		}
		free := -1
		for i, seat := range g.Seats {
			if seat.UserID != nil && *seat.UserID == user.ID {
				return ErrAlreadyIn
			}
			if !seat.FreeFor(user.ID) {
				continue
			}
			if free < 0 || seat.InvitedID != nil && g.Seats[free].InvitedID == nil {
				free = i
			}
		}
		if free < 0 {
			return ErrNotOpen
		}
		uid := user.ID
		g.Seats[free].UserID, g.Seats[free].Name, g.Seats[free].InvitedID = &uid, user.Username, nil
		res := tx.Model(&Seat{}).Where("id = ? AND user_id IS NULL AND bot = ''", g.Seats[free].ID).
			Updates(map[string]any{"user_id": uid, "name": user.Username, "invited_id": nil})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected != 1 {
			return ErrConflict
		}
		if err := bumpVersion(tx, &g); err != nil {
			return err
		}
		return s.startIfFull(tx, &g)
	})
	if err != nil {
		return nil, err
	}
	s.changed(&g, g.Seats, true)
	return &g, nil
}

// Decline gives up the seat game id keeps for user: it becomes an open
// seat, and the game's creator is told.
func (s *Store) Decline(id uint, user *User) error {
	var g Game
	err := s.w.Transaction(func(tx *gorm.DB) error {
		if err := takeGame(tx, id, "", &g); err != nil {
			return err
		}
		if g.Status != StatusOpen {
			return ErrNotOpen
		}
		for i, seat := range g.Seats {
			if seat.Open() && seat.InvitedID != nil && *seat.InvitedID == user.ID {
				if err := tx.Model(&Seat{}).Where("id = ?", g.Seats[i].ID).Update("invited_id", nil).Error; err != nil {
					return err
				}
				g.Seats[i].InvitedID = nil
				if err := bumpVersion(tx, &g); err != nil {
					return err
				}
				return s.notify(tx, g.CreatorID, g.ID, "declined", "%s declined your invitation to game %d; their seat is open now.", user.Username, g.ID)
			}
		}
		return ErrNotInvited
	})
	if err != nil {
		return err
	}
	s.changed(&g, append(g.Seats, Seat{UserID: &user.ID}), true)
	return nil
}

func takeGame(tx *gorm.DB, id uint, token string, g *Game) error {
	q := tx.Preload("Seats", func(db *gorm.DB) *gorm.DB { return db.Order("slot") })
	var err error
	if token != "" {
		err = q.Where("invite_token = ?", token).Take(g).Error
	} else {
		err = q.Take(g, id).Error
	}
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return ErrNotFound
	}
	return err
}

// Deal decides what chance decides when a game starts: the play order
// (order[slot] is the engine seat of the seat offered at slot), the first
// player and the setup.
type Deal func(n int) (order []int, first int, setup engine.Setup)

// RandomDeal deals from the operating system's randomness.
func RandomDeal(n int) ([]int, int, engine.Setup) {
	r := engine.NewRand(randomUint64())
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := r.Intn(i + 1)
		order[i], order[j] = order[j], order[i]
	}
	su, _ := engine.NewSetup(n, randomUint64())
	return order, r.Intn(n), su
}

// startIfFull starts g when every seat is taken: random play order and first
// player, a fresh shuffle, and notifications for the people at the table.
func (s *Store) startIfFull(tx *gorm.DB, g *Game) error {
	for _, seat := range g.Seats {
		if seat.Open() {
			return nil
		}
	}
	n := len(g.Seats)
	d := s.Dealer
	if d == nil {
		d = RandomDeal
	}
	order, first, su := d(n)
	setup, err := engine.MarshalSetup(su)
	if err != nil {
		return err
	}
	now := s.now()
	g.Status, g.Setup, g.First, g.StartedAt = StatusActive, string(setup), first, &now
	for i := range g.Seats {
		g.Seats[i].Index = order[i]
		if err := tx.Model(&Seat{}).Where("id = ?", g.Seats[i].ID).Update("index", order[i]).Error; err != nil {
			return err
		}
	}
	if err := tx.Model(&Game{}).Where("id = ?", g.ID).Updates(map[string]any{"status": g.Status, "setup": g.Setup, "first": g.First, "started_at": now}).Error; err != nil {
		return err
	}
	for i := range g.Seats {
		seat := &g.Seats[i]
		if seat.UserID != nil {
			if err := s.notify(tx, *seat.UserID, g.ID, "started", "Game %d has started.", g.ID); err != nil {
				return err
			}
		}
		if seat.Index == g.First {
			if err := s.startWaiting(tx, g, seat, now, "turn", false); err != nil {
				return err
			}
		}
	}
	return nil
}

// bumpVersion moves game g on by one version, if it is still at g's. It
// counts the change in rev itself, which spares the games_rev trigger a
// second write of the row.
func bumpVersion(tx *gorm.DB, g *Game) error {
	at := tx.NowFunc()
	res, err := rawExec(tx, `UPDATE games SET version = ?, updated_at = ?, rev = rev + 1 WHERE id = ? AND version = ?`, g.Version+1, at, g.ID, g.Version)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return ErrConflict
	}
	g.Version++
	g.UpdatedAt = at
	return nil
}

// The statements of a commit (run for every move) are written out and run
// on tx's connection with the writer's prepared statements (see writePool),
// without GORM's building of each statement from the structs, which cost
// more than SQLite's running them. TestRawWritesMatchGORM keeps them in
// step with the structs.

// rawExec runs a statement that writes in tx.
func rawExec(tx *gorm.DB, query string, args ...any) (sql.Result, error) {
	res, err := tx.Statement.ConnPool.ExecContext(tx.Statement.Context, query, args...)
	if err != nil {
		if t, ok := tx.Dialector.(gorm.ErrorTranslator); ok && tx.Config.TranslateError {
			err = t.Translate(err)
		}
	}
	return res, err
}

// rawRow runs a query for one row in tx (or on db, with its prepared
// statements), without GORM's building of a statement. (Not through the
// pool's QueryRowContext: GORM's prepared one answers a statement that
// cannot be prepared with an empty sql.Row, whose Scan panics.)
func rawRow(tx *gorm.DB, query string, args ...any) oneRow {
	rows, err := tx.Statement.ConnPool.QueryContext(tx.Statement.Context, query, args...)
	return oneRow{rows, err}
}

// oneRow is what sql.Row is: the first row of a query, or why there is none.
type oneRow struct {
	rows *sql.Rows
	err  error
}

// Scan reads the row into dest; sql.ErrNoRows when there is none.
func (r oneRow) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	defer r.rows.Close()
	if !r.rows.Next() {
		if err := r.rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	if err := r.rows.Scan(dest...); err != nil {
		return err
	}
	return r.rows.Close()
}

// insertEntries stores log entries and sets their ids.
func insertEntries(tx *gorm.DB, entries []LogEntry) error {
	for i := range entries {
		e := &entries[i]
		res, err := rawExec(tx, `INSERT INTO log_entries (game_id, seq, kind, seat, turn, user_id, version, timeout, auto, data, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.GameID, e.Seq, e.Kind, e.Seat, e.Turn, e.UserID, e.Version, e.Timeout, e.Auto, e.Data, e.CreatedAt)
		if err != nil {
			return err
		}
		id, err := res.LastInsertId()
		if err != nil {
			return err
		}
		e.ID = uint(id)
	}
	return nil
}

// LoadGame returns a game with its seats, log and replayed position.
func (s *Store) LoadGame(id uint) (*Loaded, error) { return s.read(id) }

// read loads a game. Its log is read up to the version of the game row
// read, never past it, though a commit may land between the statements.
func (s *Store) read(id uint) (*Loaded, error) { return s.load(s.db, id) }

// load reads a game and its seats, and replays its log: from the stored
// replay of the game when there is one, applying only the entries appended
// since.
func (s *Store) load(db *gorm.DB, id uint) (*Loaded, error) {
	l := &Loaded{}
	var err error
	if l.Seats, err = s.readRows(db, id, &l.Game); err != nil {
		return nil, err
	}
	if l.Game.Status == StatusOpen {
		sort.Slice(l.Seats, func(a, b int) bool { return l.Seats[a].Slot < l.Seats[b].Slot })
		return l, nil
	}
	sort.Slice(l.Seats, func(a, b int) bool { return l.Seats[a].Index < l.Seats[b].Index })
	l.stored = s.overlaySeen(l.Seats)
	r := s.replays.get(id)
	if r != nil && r.version <= l.Game.Version {
		n := len(r.log)
		l.Log, l.Events, l.Play = r.log[:n:n], r.events[:n:n], r.play.Clone()
		if r.version == l.Game.Version {
			return l, nil
		}
		var more []LogEntry
		if err := db.Where("game_id = ? AND seq >= ? AND version <= ?", id, n, l.Game.Version).Order("seq").Find(&more).Error; err != nil {
			return nil, err
		}
		for _, e := range more {
			l.Log = append(l.Log, e)
			if err := l.apply(e); err != nil {
				return nil, fmt.Errorf("models: game %d does not replay: log entry %d: %w", id, e.Seq, err)
			}
		}
	} else {
		if err := db.Where("game_id = ? AND version <= ?", id, l.Game.Version).Order("seq").Find(&l.Log).Error; err != nil {
			return nil, err
		}
		if err := l.replay(); err != nil {
			return nil, fmt.Errorf("models: game %d does not replay: %w", id, err)
		}
	}
	s.remember(l)
	return l, nil
}

// readRows reads a game and its seats, or takes them from the rows kept
// when no commit has changed them since (see gameRows).
func (s *Store) readRows(db *gorm.DB, id uint, g *Game) ([]Seat, error) {
	gen := s.rows.gen(id)
	if kept, seats, ok := s.rows.get(id, gen); ok {
		*g = kept
		return seats, nil
	}
	seats, err := readGame(db, id, g)
	if err != nil {
		return nil, err
	}
	s.rows.put(gen, *g, seats)
	return seats, nil
}

// readGame reads a game and its seats with plain SQL: it runs for every
// page, and GORM's reflection would cost more than the queries.
// TestReadGameMatchesGORM keeps it in step with the structs.
func readGame(db *gorm.DB, id uint, g *Game) ([]Seat, error) {
	var setup sql.NullString
	var first sql.NullInt64
	var started, finished sql.NullTime
	err := rawRow(db, `SELECT id, status, num_players, creator_id, invite_token, setup, first, version, rev, turn_hours,
		created_at, updated_at, started_at, finished_at FROM games WHERE id = ?`, id).
		Scan(&g.ID, &g.Status, &g.NumPlayers, &g.CreatorID, &g.InviteToken, &setup, &first, &g.Version, &g.Rev, &g.TurnHours,
			&g.CreatedAt, &g.UpdatedAt, &started, &finished)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	g.Setup, g.First = setup.String, int(first.Int64)
	g.StartedAt, g.FinishedAt = timePtr(started), timePtr(finished)
	rows, err := db.Statement.ConnPool.QueryContext(db.Statement.Context, `SELECT id, game_id, slot, "index", user_id, bot, name, invited_id, waiting_since, deadline,
		remind_at, reminded, seen_seq, seen_at FROM seats WHERE game_id = ?`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var seats []Seat
	for rows.Next() {
		var st Seat
		var user, invited sql.NullInt64
		var bot, name sql.NullString
		var waiting, deadline, remind, seen sql.NullTime
		if err := rows.Scan(&st.ID, &st.GameID, &st.Slot, &st.Index, &user, &bot, &name, &invited, &waiting, &deadline,
			&remind, &st.Reminded, &st.SeenSeq, &seen); err != nil {
			return nil, err
		}
		st.UserID, st.InvitedID = uintPtr(user), uintPtr(invited)
		st.Bot, st.Name = bot.String, name.String
		st.WaitingSince, st.Deadline, st.RemindAt, st.SeenAt = timePtr(waiting), timePtr(deadline), timePtr(remind), timePtr(seen)
		seats = append(seats, st)
	}
	return seats, rows.Err()
}

func timePtr(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	return &t.Time
}

func uintPtr(n sql.NullInt64) *uint {
	if !n.Valid {
		return nil
	}
	u := uint(n.Int64)
	return &u
}

// remember stores the replay of l (committed data only).
func (s *Store) remember(l *Loaded) {
	n := len(l.Log)
	s.replays.put(&replay{id: l.Game.ID, version: l.Game.Version, log: l.Log[:n:n], events: l.Events[:n:n], play: l.Play.Clone()})
}

// replay rebuilds the position from the setup and the log.
func (l *Loaded) replay() error {
	su, err := engine.UnmarshalSetup([]byte(l.Game.Setup))
	if err != nil {
		return err
	}
	g, err := engine.NewGame(l.Names(), l.Game.First, su)
	if err != nil {
		return err
	}
	l.Play = g
	for _, e := range l.Log {
		if err := l.apply(e); err != nil {
			return fmt.Errorf("log entry %d: %w", e.Seq, err)
		}
	}
	return nil
}

// apply plays one log entry and records its event.
func (l *Loaded) apply(e LogEntry) error {
	s := l.Play.State()
	before := snapshot(s)
	ev := Event{Seq: e.Seq, Kind: e.Kind, Seat: e.Seat, Turn: e.Turn, At: e.CreatedAt, Timeout: e.Timeout, Auto: e.Auto}
	switch e.Kind {
	case KindTurn:
		t, err := engine.UnmarshalTurn([]byte(e.Data), s.Players())
		if err != nil {
			return err
		}
		out, err := l.Play.Play(t.Seat, t.Move)
		if err != nil {
			return err
		}
		ev.Placement, ev.Fills = out.Placement, append([]engine.Fill(nil), out.Fills...)
	case KindResolve:
		acts, err := engine.UnmarshalActs([]byte(e.Data))
		if err != nil {
			return err
		}
		if _, err := l.Play.Resolve(e.Seat, acts); err != nil {
			return err
		}
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
	for i, a := range before {
		b := s.Player(i)
		out[i] = engine.Gain{Seat: i, Gold: b.Gold - a.Gold, Fruit: b.Fruit - a.Fruit, Sun: b.Sun - a.Sun,
			WaterSteps: b.Water - a.Water, Water: b.WaterValue() - a.WaterValue()}
	}
	return out
}

// Actor says who submits a change: a user (UserID), a bot seat (Bot true,
// Seat its engine seat), or the deadline worker playing for a seat whose
// time ran out (Timeout true, Seat).
type Actor struct {
	UserID  uint
	Bot     bool
	Timeout bool
	Seat    int
}

// CommitTurn commits a turn made on version of game id by actor. It returns
// ErrConflict when the game moved on since version (the loser of a double
// submit), ErrForbidden when actor has no seat, an engine.ErrIllegal error
// when the move is illegal; in every error case nothing changes.
func (s *Store) CommitTurn(id uint, version int, actor Actor, m engine.Move) (*Loaded, error) {
	return s.commit(id, version, actor, func(l *Loaded, seat int, add func(LogEntry) error) error {
		e, err := turnEntry(l, seat, m)
		if err != nil {
			return err
		}
		return add(e)
	})
}

// CommitResolve resolves the batch at the head of actor's queue with acts.
func (s *Store) CommitResolve(id uint, version int, actor Actor, acts []engine.Act) (*Loaded, error) {
	return s.commit(id, version, actor, func(l *Loaded, seat int, add func(LogEntry) error) error {
		e, err := resolveEntry(l, seat, acts)
		if err != nil {
			return err
		}
		return add(e)
	})
}

// turnEntry checks seat's move on a copy of the position and returns its
// log entry, every choice explicit.
func turnEntry(l *Loaded, seat int, m engine.Move) (LogEntry, error) {
	m.Reactions = nil // live play: other players' batches join their queues
	out, err := l.Play.State().Clone().Play(seat, m)
	if err != nil {
		return LogEntry{}, err
	}
	data, err := engine.MarshalTurn(engine.RecordTurn{Seat: seat, Move: engine.Move{
		Placement: out.Placement, Fills: out.Fills, Acts: out.Acts,
	}})
	return LogEntry{Kind: KindTurn, Seat: seat, Turn: l.Play.State().Turns(), Data: string(data)}, err
}

// resolveEntry checks the resolution of seat's first pending batch.
func resolveEntry(l *Loaded, seat int, acts []engine.Act) (LogEntry, error) {
	q := l.Play.State().Player(seat).Queue()
	if len(q) == 0 {
		return LogEntry{}, &engine.IllegalError{Reason: "you have no pending choice", Format: "you have no pending choice"}
	}
	turn := q[0].Turn
	rs, err := l.Play.State().Clone().Resolve(seat, acts)
	if err != nil {
		return LogEntry{}, err
	}
	data, err := engine.MarshalActs(rs[0].Acts)
	return LogEntry{Kind: KindResolve, Seat: seat, Turn: turn, Data: string(data)}, err
}

// decideBest resolves every batch waiting for seat with the best-value
// choice (RULES.md section 7: the most gold, then the most fruit), each as
// its own log entry given to add. It returns how many it added.
func decideBest(l *Loaded, seat int, add func(LogEntry) error) (int, error) {
	n := 0
	for {
		p := l.Play.State().Player(seat)
		q := p.Queue()
		if len(q) == 0 {
			return n, nil
		}
		e, err := resolveEntry(l, seat, engine.BestActs(*p, q[0].Edges))
		if err != nil {
			return n, err
		}
		if err := add(e); err != nil {
			return n, err
		}
		n++
	}
}

// autoDeciders returns the seats of l with a choice waiting whose players'
// standing policy is "always decide for me", with their users.
func (s *Store) autoDeciders(l *Loaded) (seats []int, users []uint, err error) {
	st := l.Play.State()
	for i, seat := range l.Seats {
		if seat.UserID == nil || len(st.Player(i).Queue()) == 0 {
			continue
		}
		u, err := s.UserByID(*seat.UserID)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		if u.AutoDecide {
			seats, users = append(seats, i), append(users, u.ID)
		}
	}
	return seats, users, nil
}

// decideForPolicies resolves, with the best-value choice, every batch
// waiting for a player whose standing policy is "always decide for me",
// giving each entry to add with the player it was decided for. The engine's
// own policy flag stays off: the log, not a setting, says what was chosen,
// so replays never depend on it.
func (s *Store) decideForPolicies(l *Loaded, add func(e LogEntry, user uint) error) error {
	seats, users, err := s.autoDeciders(l)
	if err != nil {
		return err
	}
	for k, seat := range seats {
		if _, err := decideBest(l, seat, func(e LogEntry) error { return add(e, users[k]) }); err != nil {
			return err
		}
	}
	return nil
}

// errNothingToDecide refuses an empty commit: no choice waits for the
// seat, or its player no longer wants it decided for them.
var errNothingToDecide = fmt.Errorf("%w: no choice waits to be decided", ErrForbidden)

// decideNow resolves, with the best-value choice, what waits for user in
// game id if their policy says so, in a commit of its own (see
// SetAutoDecide). A game with nothing to decide is left alone.
func (s *Store) decideNow(id, user uint) error {
	_, err := s.commit(id, -1, Actor{UserID: user}, func(l *Loaded, seat int, add func(LogEntry) error) error {
		u, err := s.UserByID(user)
		if err != nil {
			return err
		}
		if !u.AutoDecide {
			return errNothingToDecide
		}
		n, err := decideBest(l, seat, func(e LogEntry) error { e.Auto = true; return add(e) })
		if err == nil && n == 0 {
			err = errNothingToDecide
		}
		return err
	})
	if errors.Is(err, errNothingToDecide) || errors.Is(err, ErrNotActive) || errors.Is(err, ErrConflict) {
		return nil // nothing to do, or the game's next commit decides it
	}
	return err
}

// errNotDue refuses a timeout for a seat whose deadline has not passed (or
// was already played: the seat is no longer waited on).
var errNotDue = fmt.Errorf("%w: that seat's time has not run out", ErrForbidden)

// commit runs change in one transaction on the freshly loaded game, after
// checking who acts and on which version. change appends log entries with
// add, which stores and plays each; the version grows by one.
func (s *Store) commit(id uint, version int, actor Actor, change func(l *Loaded, seat int, add func(LogEntry) error) error) (*Loaded, error) {
	for attempt := 0; ; attempt++ {
		l, err := s.tryCommit(id, version, actor, change)
		if errors.Is(err, errMoved) {
			if version >= 0 || attempt >= 5 {
				return nil, ErrConflict
			}
			continue // a worker or a bot: try again on the new position
		}
		return l, err
	}
}

// errMoved says the game changed between reading it and writing.
var errMoved = errors.New("models: the game moved while the change was prepared")

// tryCommit prepares the change on the game as read (the replay cache makes
// that cheap), outside the write transaction, so that the transaction, which
// every writer waits for, only checks that the game is still at the version
// read and writes.
func (s *Store) tryCommit(id uint, version int, actor Actor, change func(l *Loaded, seat int, add func(LogEntry) error) error) (*Loaded, error) {
	now := s.now()
	l, err := s.read(id)
	if err != nil {
		return nil, err
	}
	if l.Game.Status != StatusActive {
		return nil, ErrNotActive
	}
	seat := actor.Seat
	switch {
	case actor.Timeout:
		if seat < 0 || seat >= len(l.Seats) {
			return nil, ErrForbidden
		}
		if d := l.Seats[seat].Deadline; d == nil || d.After(now) {
			return nil, errNotDue
		}
	case actor.Bot:
		if seat < 0 || seat >= len(l.Seats) || l.Seats[seat].Bot == "" {
			return nil, ErrForbidden
		}
	default:
		if seat = l.SeatOf(actor.UserID); seat < 0 {
			return nil, ErrForbidden
		}
	}
	if version >= 0 && l.Game.Version != version {
		return nil, ErrConflict
	}
	read := l.Game.Version
	prevCur := l.Play.State().Current()
	var entries []LogEntry
	put := func(e LogEntry, timeout bool, user *uint) error {
		e.GameID, e.Seq, e.CreatedAt, e.Timeout, e.Version, e.UserID = id, len(l.Log), now, timeout, read+1, user
		l.Log = append(l.Log, e)
		entries = append(entries, e)
		return l.apply(e)
	}
	add := func(e LogEntry) error {
		var user *uint
		if !actor.Bot && !actor.Timeout {
			uid := actor.UserID
			user = &uid
		}
		return put(e, actor.Timeout, user)
	}
	if err := change(l, seat, add); err != nil {
		return nil, err
	}
	// Players who told us to always decide for them have what now waits
	// for them resolved in the same commit, each resolution explicit.
	if err := s.decideForPolicies(l, func(e LogEntry, user uint) error { e.Auto = true; return put(e, false, &user) }); err != nil {
		return nil, err
	}
	var keep bool
	var gen rowsGen
	err = s.w.Transaction(func(tx *gorm.DB) error {
		var curVersion, curRev int
		var curStatus string
		if err := rawRow(tx, `SELECT version, status, rev FROM games WHERE id = ?`, id).Scan(&curVersion, &curStatus, &curRev); err != nil {
			return err
		}
		if curVersion != read || curStatus != StatusActive {
			return errMoved
		}
		// The rows as read are the rows now (rev counts every change to
		// them), so once the commit's own writes are applied to them they
		// are the committed rows, kept for the next loads (see keepRows).
		keep = curRev == l.Game.Rev
		gen = s.rows.gen(id)
		if actor.Timeout {
			// A vacation may have moved the deadline since it was read.
			var st Seat
			if err := tx.Select("id", "deadline").Take(&st, l.Seats[seat].ID).Error; err != nil {
				return err
			}
			if st.Deadline == nil || st.Deadline.After(now) {
				return errNotDue
			}
		}
		if err := insertEntries(tx, entries); err != nil {
			if errors.Is(err, gorm.ErrDuplicatedKey) {
				return errMoved
			}
			return err
		}
		// The game as committed is shown without reading it again: its log
		// carries the new entries' ids as a load would.
		for i, e := range entries {
			l.Log[len(l.Log)-len(entries)+i].ID = e.ID
		}
		if err := bumpVersion(tx, &l.Game); err != nil {
			return errMoved
		}
		if err := s.afterChange(tx, l, seat, prevCur, now); err != nil {
			return err
		}
		if keep {
			return rawRow(tx, `SELECT rev FROM games WHERE id = ?`, id).Scan(&l.Game.Rev)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if keep {
		s.keepRows(l, rowsGen{gen.epoch, gen.gen + 1})
	}
	s.remember(l)
	s.changed(&l.Game, l.Seats, false)
	return l, nil
}

// keepRows keeps the rows of l, a game just committed, as the rows of
// generation g, the one its commit began (the writer's connection, held
// through the commit, let no other change in between; should one have come
// since, the rows are not kept). A commit's rows are its read rows with its
// own writes applied, the seen marks as stored, and times as a read gives
// them back: the next load need not read them.
func (s *Store) keepRows(l *Loaded, g rowsGen) {
	game, seats := l.Game, append([]Seat(nil), l.Seats...)
	for _, o := range l.stored {
		for i := range seats {
			if seats[i].ID == o.id {
				seats[i].SeenSeq, seats[i].SeenAt = o.seq, o.at
			}
		}
	}
	game.CreatedAt, game.UpdatedAt = asRead(game.CreatedAt), asRead(game.UpdatedAt)
	game.StartedAt, game.FinishedAt = asReadPtr(game.StartedAt), asReadPtr(game.FinishedAt)
	for i := range seats {
		st := &seats[i]
		st.WaitingSince, st.Deadline, st.RemindAt, st.SeenAt = asReadPtr(st.WaitingSince), asReadPtr(st.Deadline), asReadPtr(st.RemindAt), asReadPtr(st.SeenAt)
	}
	s.rows.put(g, game, seats)
	if s.checkKept != nil {
		s.checkKept(game, seats)
	}
}

// asRead returns t as the driver reads it back once stored: written in
// its first timestamp format, parsed in UTC.
func asRead(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	r, err := time.ParseInLocation(sqlite3.SQLiteTimestampFormats[0], t.Format(sqlite3.SQLiteTimestampFormats[0]), time.UTC)
	if err != nil {
		return t
	}
	return r
}

func asReadPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	r := asRead(*t)
	return &r
}

// afterChange updates who is waited on (and their clocks), finishes the
// game when it is over and every choice is made, and notifies people.
// acted is the seat that made the change; prevCur the player whose turn it
// was before.
func (s *Store) afterChange(tx *gorm.DB, l *Loaded, acted, prevCur int, now time.Time) error {
	st := l.Play.State()
	for i := range l.Seats {
		seat := &l.Seats[i]
		choosing := len(st.Player(i).Queue()) > 0
		myTurn := !st.Over() && st.Current() == i
		kind := "turn"
		if choosing {
			kind = map[bool]string{false: "reaction", true: turnAndChoice}[myTurn]
		}
		var err error
		switch waiting := choosing || myTurn; {
		case waiting && seat.WaitingSince == nil:
			err = s.startWaiting(tx, &l.Game, seat, now, kind, choosing)
		case waiting && !choosing && seat.Deadline != nil && waitLimit(&l.Game, false) == 0:
			// Only the turn is left (its choices were made, perhaps in
			// someone else's commit), and here a turn has no clock.
			err = clearDeadline(tx, seat)
		case waiting && i == acted:
			err = s.startWaiting(tx, &l.Game, seat, now, "", choosing) // a fresh clock for what is left, no news
		case waiting && myTurn && prevCur != i && seat.Deadline != nil && !seat.Deadline.After(now):
			// An overdue choice stays overdue: its timeout plays it, and the turn.
		case waiting && myTurn && prevCur != i && choosing && l.Game.TurnHours == 0 && seat.Deadline != nil:
			// Without a turn limit the turn has no clock; the choice that
			// waited keeps the deadline counted from when it reached the head.
			if seat.UserID != nil {
				err = s.notify(tx, *seat.UserID, l.Game.ID, "turn", "It is your turn in game %d.", l.Game.ID)
			}
		case waiting && myTurn && prevCur != i:
			err = s.startWaiting(tx, &l.Game, seat, now, "turn", choosing)
		case !waiting && seat.WaitingSince != nil:
			err = stopWaiting(tx, seat)
		}
		if err != nil {
			return err
		}
	}
	if st.Over() && !st.Pending() && l.Game.Status == StatusActive {
		at := tx.NowFunc()
		l.Game.Status, l.Game.FinishedAt, l.Game.UpdatedAt = StatusFinished, &now, at
		if _, err := rawExec(tx, `UPDATE games SET status = ?, finished_at = ?, updated_at = ? WHERE id = ?`, StatusFinished, now, at, l.Game.ID); err != nil {
			return err
		}
		res := st.Score()
		for i, seat := range l.Seats {
			if seat.UserID == nil {
				continue
			}
			place := 1
			for _, sc := range res.Scores {
				if sc.Total > res.Scores[i].Total || sc.Total == res.Scores[i].Total && sc.Fruit > res.Scores[i].Fruit {
					place++
				}
			}
			if err := s.notify(tx, *seat.UserID, l.Game.ID, "finished", "Game %d is over: you placed %d of %d.", l.Game.ID, place, len(l.Seats)); err != nil {
				return err
			}
		}
	}
	return nil
}

// DriveBots lets the bots of game id play until a person must act or the
// game ends. Each bot action is its own commit, like a person's.
func (s *Store) DriveBots(id uint) error {
	_, err := s.DriveBotsFrom(id, nil)
	return err
}

// DriveBotsFrom is DriveBots starting from the game as just committed (l,
// or nil to load it), and returns the game as the bots left it, so that a
// move's answer need not read the game again. A game as committed is a
// load's equal but for the columns the database keeps (Rev, UpdatedAt).
func (s *Store) DriveBotsFrom(id uint, l *Loaded) (*Loaded, error) {
	r := engine.NewRand(randomUint64())
	for step := 0; step < 1000; step++ {
		if l == nil || step > 0 {
			var err error
			if l, err = s.LoadGame(id); err != nil {
				return nil, err
			}
		}
		if l.Game.Status != StatusActive {
			return l, nil
		}
		st := l.Play.State()
		// A choice left waiting for a player who wants it decided for them
		// (their policy changed while this game's last commit was
		// prepared) is decided now.
		auto, users, err := s.autoDeciders(l)
		if err != nil {
			return nil, err
		}
		if len(auto) > 0 {
			if err := s.decideNow(id, users[0]); err != nil {
				return nil, err
			}
			continue
		}
		acted := false
		for i, seat := range l.Seats {
			if seat.Bot == "" || len(st.Player(i).Queue()) == 0 {
				continue
			}
			b, _ := bot.ByName(seat.Bot)
			if _, err := s.CommitResolve(id, l.Game.Version, Actor{Bot: true, Seat: i}, b.Resolve(st, i, r)); err != nil {
				return nil, err
			}
			acted = true
			break
		}
		if acted {
			continue
		}
		cur := st.Current()
		if st.Over() || l.Seats[cur].Bot == "" {
			return l, nil
		}
		b, _ := bot.ByName(l.Seats[cur].Bot)
		m, err := b.Move(st, r)
		if err != nil {
			return nil, err
		}
		m.Fills = append([]engine.Fill(nil), m.Fills...)
		if _, err := s.CommitTurn(id, l.Game.Version, Actor{Bot: true, Seat: cur}, m); err != nil {
			return nil, err
		}
	}
	return nil, errors.New("models: bots did not stop")
}

// GameSummary is a line of a games list.
type GameSummary struct {
	Game         Game
	Seats        []Seat
	MySeat       int
	WaitingOnMe  bool
	WaitingSince *time.Time
	Deadline     *time.Time // when my time for it runs out (nil: no limit)
}

// MyGames lists the games user has a seat in: those waiting on them first,
// oldest wait first, then the others, most recently changed first. Of the
// finished games it takes the latest, at most finished of them (all when
// finished < 0), and it says how many finished games the user has in all
// (0 when finished is 0: then it reads none of them).
// It reads the games and their seats in a few statements whatever their
// number (one per game made the home page of a seasoned player slow).
func (s *Store) MyGames(userID uint, finished int) ([]GameSummary, int, error) {
	mine := s.db.Model(&Seat{}).Select("game_id").Where("user_id = ?", userID)
	var games []Game
	if err := s.db.Preload("Seats").Where("status <> ? AND id IN (?)", StatusFinished, mine).Find(&games).Error; err != nil {
		return nil, 0, err
	}
	var total int64
	if finished != 0 {
		if err := s.db.Model(&Game{}).Where("status = ? AND id IN (?)", StatusFinished, mine).Count(&total).Error; err != nil {
			return nil, 0, err
		}
	}
	if finished != 0 && total > 0 {
		var done []Game
		// finished_at is written from the store's clock in UTC: its text
		// sorts as the time.
		q := s.db.Preload("Seats").Where("status = ? AND id IN (?)", StatusFinished, mine).Order("finished_at DESC, id DESC")
		if finished > 0 {
			q = q.Limit(finished)
		}
		if err := q.Find(&done).Error; err != nil {
			return nil, 0, err
		}
		// A game that finished between the reads is listed once, finished.
		listed := make(map[uint]int, len(games))
		for i, g := range games {
			listed[g.ID] = i
		}
		for _, g := range done {
			if i, ok := listed[g.ID]; ok {
				games[i] = g
				continue
			}
			games = append(games, g)
		}
	}
	out := make([]GameSummary, 0, len(games))
	for _, g := range games {
		i := UserSeat(g.Seats, userID)
		if i < 0 {
			continue
		}
		me := g.Seats[i]
		gs := GameSummary{Game: g, Seats: g.Seats, MySeat: me.Index, WaitingSince: me.WaitingSince, Deadline: me.Deadline}
		gs.WaitingOnMe = me.WaitingSince != nil && g.Status == StatusActive
		sortSeats(gs.Seats, g.Status)
		out = append(out, gs)
	}
	sort.SliceStable(out, func(a, b int) bool {
		x, y := out[a], out[b]
		if x.WaitingOnMe != y.WaitingOnMe {
			return x.WaitingOnMe
		}
		if x.WaitingOnMe {
			return x.WaitingSince.Before(*y.WaitingSince)
		}
		if !x.Game.UpdatedAt.Equal(y.Game.UpdatedAt) {
			return x.Game.UpdatedAt.After(y.Game.UpdatedAt)
		}
		return x.Game.ID > y.Game.ID
	})
	return out, int(total), nil
}

// UserSeat is the position in seats of user's seat, or -1.
func UserSeat(seats []Seat, userID uint) int {
	for i, seat := range seats {
		if seat.UserID != nil && *seat.UserID == userID {
			return i
		}
	}
	return -1
}

// Invitations lists the open games that keep a seat for user, newest first.
func (s *Store) Invitations(userID uint) ([]GameSummary, error) {
	var games []Game
	err := s.db.Preload("Seats").Where("status = ? AND id IN (?)", StatusOpen,
		s.db.Model(&Seat{}).Select("game_id").Where("invited_id = ?", userID)).Order("created_at desc").Find(&games).Error
	if err != nil {
		return nil, err
	}
	return summaries(games), nil
}

// Vacations returns when the vacations of those of users who are on
// vacation end.
func (s *Store) Vacations(users []uint) (map[uint]time.Time, error) {
	out := map[uint]time.Time{}
	if len(users) == 0 {
		return out, nil
	}
	var us []User
	if err := s.db.Select("id", "vacation_until").Where("id IN ? AND vacation_until > ?", users, s.now()).Find(&us).Error; err != nil {
		return nil, err
	}
	for _, u := range us {
		out[u.ID] = *u.VacationUntil
	}
	return out, nil
}

// GameVersion returns a game's current version.
func (s *Store) GameVersion(id uint) (int, error) {
	var g Game
	err := s.db.Select("id", "version").Take(&g, id).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return 0, ErrNotFound
	}
	return g.Version, err
}

// GameByInvite returns the game an invite token opens, with its seats.
func (s *Store) GameByInvite(token string) (*Game, error) {
	var g Game
	err := s.db.Preload("Seats").Where("invite_token = ?", token).Take(&g).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	sortSeats(g.Seats, g.Status)
	return &g, nil
}

// OpenGames lists games with an open seat, newest first.
func (s *Store) OpenGames() ([]GameSummary, error) {
	var games []Game
	if err := s.db.Preload("Seats").Where("status = ?", StatusOpen).Order("created_at desc").Limit(100).Find(&games).Error; err != nil {
		return nil, err
	}
	return summaries(games), nil
}

// summaries lists games for someone without a seat in them.
func summaries(games []Game) []GameSummary {
	out := make([]GameSummary, 0, len(games))
	for _, g := range games {
		sortSeats(g.Seats, g.Status)
		out = append(out, GameSummary{Game: g, Seats: g.Seats, MySeat: -1})
	}
	return out
}

func sortSeats(seats []Seat, status string) {
	sort.Slice(seats, func(a, b int) bool {
		if status == StatusOpen {
			return seats[a].Slot < seats[b].Slot
		}
		return seats[a].Index < seats[b].Index
	})
}

// Notifications returns a user's newest notifications and the unread count.
func (s *Store) Notifications(userID uint, limit int) ([]Notification, int64, error) {
	var ns []Notification
	if err := s.db.Where("user_id = ?", userID).Order("id desc").Limit(limit).Find(&ns).Error; err != nil {
		return nil, 0, err
	}
	unread, err := s.Unread(userID)
	return ns, unread, err
}

// Unread counts a user's unread notifications.
func (s *Store) Unread(userID uint) (int64, error) {
	u, err := s.UserByID(userID)
	if err != nil {
		return 0, err
	}
	return int64(u.Unread), nil
}

// MarkRead marks all of a user's notifications read.
func (s *Store) MarkRead(userID uint) error {
	return s.w.Model(&Notification{}).Where("user_id = ? AND read = ?", userID, false).Update("read", true).Error
}
