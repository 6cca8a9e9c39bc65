package models

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"gorm.io/gorm"

	"cacao/engine"
)

// SeatOpen marks a seat offered to any player (or to whoever has the invite link).
const SeatOpen = "open"

// Game errors worded for players.
var (
	ErrNotOpen      = invalid("this game is not open for players")
	ErrAlreadyIn    = invalid("you already have a seat in this game")
	ErrPrivate      = invalid("this table is private: its seats are taken through its invitation link")
	ErrNotActive    = invalid("this game is not being played")
	ErrBadSeatSpecs = invalid("a game has 2 to 4 seats, each open, for an invited player, or a bot (easy, medium or hard)")
	ErrBadStandIn   = invalid("the bot that stands in for a player is the easy, medium or hard one")
	ErrBadTurnLimit = invalid("the time per turn is none, 1 day, 3 days or 7 days")
	ErrNotInvited   = invalid("no seat in this game is kept for you")
)

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
// the creator's: SeatOpen, a bot name, "@name" to invite that user to a
// seat kept for them, or "~name" to seat the bot account of that name
// (its owner lets others seat it: botaccounts.go). TurnHours is the time limit per turn: 0 (none), 24,
// 72 or 168.
type GameSpec struct {
	Seats     []string
	TurnHours int
	Private   bool // not listed in the lobby (Game.Private)
	// StandIn is the bot that plays for a person out of time, resigned or
	// away ("": DefaultStandIn).
	StandIn string
	// FormKey names the form the table is made from (a random key the
	// page gives it, "": none): the same form sent twice (a double click,
	// a second tab) makes one table, and the second gets it too.
	FormKey string
}

// TurnLimits are the time limits a game may have, in hours (0: none).
func TurnLimits() []int { return []int{0, 24, 72, 168} }

// CreateGame creates a game whose first seat is the creator's. With no open
// seat the game starts at once; invited users are told.
func (s *Store) CreateGame(creator *User, spec GameSpec) (*Game, error) {
	others := spec.Seats
	if len(others) < 1 || len(others) > 3 {
		return nil, ErrBadSeatSpecs
	}
	if !slices.Contains(TurnLimits(), spec.TurnHours) {
		return nil, ErrBadTurnLimit
	}
	if creator.Guest {
		// A guest plays bots (and the seats they are invited to), at a
		// table no lobby lists.
		for _, o := range others {
			if !slices.Contains(s.opts.bots, o) {
				return nil, ErrGuestTable
			}
		}
		spec.Private = true
	}
	if spec.StandIn == "" {
		spec.StandIn = DefaultStandIn
	} else if !slices.Contains(s.opts.bots, spec.StandIn) {
		return nil, ErrBadStandIn
	}
	if len(spec.FormKey) > 64 {
		return nil, ErrBadSeatSpecs // no page's
	}
	g := &Game{Status: StatusOpen, NumPlayers: len(others) + 1, CreatorID: creator.ID, InviteToken: randomToken(), TurnHours: spec.TurnHours, Private: spec.Private, StandIn: spec.StandIn}
	if spec.FormKey != "" {
		g.FormKey = &spec.FormKey
	}
	uid := creator.ID
	g.Seats = append(g.Seats, Seat{Slot: 0, Index: -1, UserID: &uid, Name: creator.Username, Guest: creator.Guest, Robot: creator.BotAccount})
	n := 0
	for _, o := range others {
		if strings.HasPrefix(o, "@") {
			n++
		}
	}
	var made *Game // the table this form made already
	err := s.transaction(func(tx *gorm.DB) error {
		if g.FormKey != nil {
			// Read with the creator's row locked: a second sending of the
			// form waits for the first, then finds its table.
			if err := lockUser(tx, creator.ID); err != nil {
				return err
			}
			id, err := formGame(tx, creator.ID, *g.FormKey)
			if err != nil {
				return err
			}
			if id != 0 {
				made = &Game{}
				return takeGame(tx, id, "", made)
			}
		}
		if err := s.checkTableLimits(tx, creator.ID, n); err != nil {
			return err
		}
		var err error
		if g.Seats[0].Robot, err = isBot(tx, creator.ID); err != nil { // the creator's row is locked: as it is now
			return err
		}
		var invites []Invitation
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
				if err := s.checkInvitee(tx, creator.ID, u.ID); err != nil {
					return err
				}
				seat.InvitedID = &u.ID
				invites = append(invites, Invitation{CreatorID: creator.ID, InviteeID: u.ID, CreatedAt: s.now()})
			case strings.HasPrefix(o, "~"):
				if err := openBot(tx, creator.ID, strings.TrimSpace(o[1:]), &seat); err != nil {
					return err
				}
				for _, other := range g.Seats {
					if other.UserID != nil && *other.UserID == *seat.UserID || other.InvitedID != nil && *other.InvitedID == *seat.UserID {
						return invalid("%s has a seat already", seat.Name)
					}
				}
			default:
				if !slices.Contains(s.opts.bots, o) {
					return ErrBadSeatSpecs
				}
				seat.Bot = o
				seat.Name = fmt.Sprintf("%s bot %d", o, i+1)
			}
			g.Seats = append(g.Seats, seat)
		}
		if len(invites) > 0 {
			if err := tx.Create(&invites).Error; err != nil {
				return err
			}
		}
		if err := tx.Create(g).Error; err != nil {
			return err
		}
		p, err := peopleIn(tx, g.Seats)
		if err != nil {
			return err
		}
		open := false
		for _, seat := range g.Seats {
			if seat.InvitedID != nil {
				if err := s.notify(tx, p, *seat.InvitedID, g.ID, KindInvited, "%s invited you to game %d.", creator.Username, g.ID); err != nil {
					return err
				}
			}
			open = open || seat.Open() && seat.InvitedID == nil
		}
		if open && !g.Private {
			if err := s.tellFollowers(tx, g, creator); err != nil {
				return err
			}
		}
		return s.startIfFull(tx, g)
	})
	if err != nil {
		return nil, err
	}
	if made != nil {
		return made, nil
	}
	s.changed(g, g.Seats, !g.Private) // a private table is in no lobby
	return g, nil
}

// FormGame is the game creator made from the form of key (0: none; see
// GameSpec.FormKey).
func (s *Store) FormGame(creator uint, key string) (uint, error) {
	if key == "" {
		return 0, nil
	}
	return formGame(s.db, creator, key)
}

// formGame is FormGame read in db.
func formGame(db *gorm.DB, creator uint, key string) (uint, error) {
	var ids []uint
	err := db.Model(&Game{}).Where("creator_id = ? AND form_key = ?", creator, key).Limit(1).Pluck("id", &ids).Error
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	return ids[0], nil
}

// Join gives user a seat of game id (by id, or by invite token when token is
// not empty): the one kept for them if they were invited, else the first
// open seat kept for nobody (of a private table, only through its token).
func (s *Store) Join(id uint, token string, user *User) (*Game, error) {
	var g Game
	err := s.transaction(func(tx *gorm.DB) error {
		if err := takeGame(tx, id, token, &g); err != nil {
			return err
		}
		// Another join of the table waits, then this one reads it as it
		// left it.
		if err := lockGame(tx, g.ID); err != nil {
			return err
		}
		if err := takeGame(tx, g.ID, "", &g); err != nil {
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
		if g.Private && token == "" && g.Seats[free].InvitedID == nil {
			return ErrPrivate
		}
		// A guest sits where they were invited: a seat kept for them, or
		// one of a private table through its link (no stranger from the
		// lobby sits there).
		if user.Guest && g.Seats[free].InvitedID == nil && (token == "" || !g.Private) {
			return ErrGuestPublic
		}
		// The joiner's row, locked, says whether they are a bot account
		// now (MarkBot waits for it, or it for MarkBot).
		if err := lockUser(tx, user.ID); err != nil {
			return err
		}
		robot, err := isBot(tx, user.ID)
		if err != nil {
			return err
		}
		uid := user.ID
		st := &g.Seats[free]
		st.UserID, st.Name, st.InvitedID, st.Guest, st.Robot = &uid, user.Username, nil, user.Guest, robot
		res := tx.Model(&Seat{}).Where("id = ? AND user_id IS NULL AND bot = ''", st.ID).
			Updates(map[string]any{"user_id": uid, "name": user.Username, "invited_id": nil, "guest": user.Guest, "robot": robot})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected != 1 {
			return ErrConflict
		}
		if err := bumpVersion(tx, &g, s.now()); err != nil {
			return ErrConflict // another change of the table came first
		}
		return s.startIfFull(tx, &g)
	})
	if err != nil {
		return nil, err
	}
	s.changed(&g, g.Seats, !g.Private)
	return &g, nil
}

// Decline gives up the seat game id keeps for user: it becomes an open
// seat, and the game's creator is told.
func (s *Store) Decline(id uint, user *User) error {
	var g Game
	err := s.transaction(func(tx *gorm.DB) error {
		if err := takeGame(tx, id, "", &g); err != nil {
			return err
		}
		if g.Status != StatusOpen {
			return ErrNotOpen
		}
		if freed, err := s.freeKeptSeat(tx, &g, user.ID); err != nil || !freed {
			if err == nil {
				err = ErrNotInvited
			}
			return err
		}
		p, err := peopleIn(tx, nil, g.CreatorID, user.ID) // the decliner too: their name is marked
		if err != nil {
			return err
		}
		return s.notify(tx, p, g.CreatorID, g.ID, KindDeclined, "%s declined your invitation to game %d; their seat is open now.", user.Username, g.ID)
	})
	if err != nil {
		return err
	}
	s.changed(&g, append(g.Seats, Seat{UserID: &user.ID}), !g.Private)
	return nil
}

func takeGame(tx *gorm.DB, id uint, token string, g *Game) error {
	*g = Game{} // read again (Join), its seats are not added twice
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
	order, first, su := s.opts.deal(len(g.Seats))
	if g.RematchOf != 0 || g.TournamentID != 0 { // the order its seats were offered in (Rematch, a tournament's pairing)
		for i, seat := range g.Seats {
			order[i] = seat.Slot
		}
		first = 0
	}
	setup, err := engine.MarshalSetup(su)
	if err != nil {
		return err
	}
	p, err := peopleIn(tx, g.Seats)
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
		if seat.UserID != nil && g.TournamentID == 0 { // a tournament's round tells its own news (startRound)
			if err := s.notify(tx, p, *seat.UserID, g.ID, KindStarted, "Game %d has started.", g.ID); err != nil {
				return err
			}
		}
		if seat.Index == g.First {
			if err := s.startWaiting(tx, p, g, seat, now, KindTurn, false); err != nil {
				return err
			}
		}
	}
	return nil
}
