package models

import (
	"errors"
	"fmt"
	"sort"

	"gorm.io/gorm"
)

// Refusals of a rematch.
var (
	ErrRematchNotOver = invalid("a rematch is offered once the game is finished")
	ErrRematchNotMine = invalid("only the players of this game may ask for a rematch")
)

// Rematch proposes for user, a player of finished game oldID, a new game
// with the same players and time limit, its play order turned by one (the
// old game's second player moves first). user sits at once, the bots too,
// and the bot accounts whose owners still let others seat them; the other
// players are invited (as by name), a seat whose account is gone is open. The game starts once everyone has accepted. A game has one
// rematch: when it has one already, that game is returned.
func (s *Store) Rematch(user *User, oldID uint) (*Game, error) {
	var old Game
	if err := takeGame(s.db, oldID, "", &old); err != nil {
		return nil, err
	}
	if !PlayedBy(old.Seats, user.ID) {
		return nil, ErrRematchNotMine
	}
	if old.RematchID != nil {
		var g Game
		if err := takeGame(s.db, *old.RematchID, "", &g); err != nil {
			return nil, err
		}
		return &g, nil
	}
	if old.Status != StatusFinished {
		return nil, ErrRematchNotOver
	}
	// The new play order: the old one from its second player on.
	n := len(old.Seats)
	seats := append([]Seat(nil), old.Seats...)
	sort.Slice(seats, func(a, b int) bool {
		return (seats[a].Index-old.First-1+2*n)%n < (seats[b].Index-old.First-1+2*n)%n
	})
	g := &Game{Status: StatusOpen, NumPlayers: n, CreatorID: user.ID, InviteToken: randomToken(), TurnHours: old.TurnHours, StandIn: old.StandIn,
		Private: old.Private, RematchOf: old.ID}
	robots := map[int]uint{} // the bot accounts' slots: seated again if their owners still let others
	for slot, o := range seats {
		seat := Seat{Slot: slot, Index: -1}
		switch p := o.Player(); {
		case p != nil && *p == user.ID:
			uid := user.ID
			seat.UserID, seat.Name, seat.Guest, seat.Robot = &uid, user.Username, user.Guest, user.BotAccount
		case p != nil && o.Robot && !user.Guest:
			robots[slot] = *p
		case p != nil:
			invitee := *p
			seat.InvitedID = &invitee
		case o.Bot != "":
			seat.Bot, seat.Name = o.Bot, fmt.Sprintf("%s bot %d", o.Bot, slot+1)
		}
		g.Seats = append(g.Seats, seat)
	}
	err := s.transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, user.ID); err != nil { // before the bots' rows, as CreateGame
			return err
		}
		for slot, id := range robots {
			st := &g.Seats[slot]
			if err := openBotID(tx, user.ID, id, st); errors.Is(err, ErrInvalid) && !errors.Is(err, ErrBlocked) {
				st.InvitedID = &id // closed, banned or busy: invited, as a person is
			} else if err != nil {
				return err
			}
		}
		var invites []Invitation
		for _, st := range g.Seats {
			if st.InvitedID != nil {
				invites = append(invites, Invitation{CreatorID: user.ID, InviteeID: *st.InvitedID, CreatedAt: s.now()})
			}
		}
		if err := s.checkTableLimits(tx, user.ID, len(invites)); err != nil {
			return err
		}
		for _, inv := range invites {
			if err := s.checkInvitee(tx, user.ID, inv.InviteeID); err != nil {
				return err
			}
		}
		if len(invites) > 0 {
			if err := tx.Create(&invites).Error; err != nil {
				return err
			}
		}
		if err := tx.Create(g).Error; err != nil {
			return err
		}
		// One rematch a game: a proposal made meanwhile wins.
		res := tx.Model(&Game{}).Where("id = ? AND rematch_id IS NULL", old.ID).
			Updates(map[string]any{"rematch_id": g.ID, "version": gorm.Expr("version + 1")})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected != 1 {
			return errMoved
		}
		p, err := peopleIn(tx, g.Seats)
		if err != nil {
			return err
		}
		for _, seat := range g.Seats {
			if seat.InvitedID != nil {
				if err := s.notify(tx, p, *seat.InvitedID, g.ID, KindInvited, "%s proposes a rematch of game %d: game %d.", user.Username, old.ID, g.ID); err != nil {
					return err
				}
			}
		}
		return s.startIfFull(tx, g)
	})
	if err == errMoved {
		return s.Rematch(user, oldID)
	}
	if err != nil {
		return nil, err
	}
	old.Version++
	s.changed(&old, nil, false) // the old game's page links to it
	s.changed(g, g.Seats, !g.Private)
	return g, nil
}
