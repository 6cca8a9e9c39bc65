package models

import (
	"errors"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"cacao/models/pairing"
)

// TourFormat is how a tournament pairs its rounds. Every format is in
// tourFormats.
type TourFormat string

// The formats of tournaments.
const (
	Swiss      TourFormat = "swiss"       // players of like points meet, no two twice while avoidable
	RoundRobin TourFormat = "round-robin" // everyone meets everyone (at tables of two; as evenly as may be at three or four)
)

// tourFormat is what a format's tournament does.
type tourFormat struct {
	// chosenRounds: the creator says how many rounds; else the count of
	// players at the start decides (pairing.RoundRobinRounds).
	chosenRounds bool
}

// tourFormats is every format there is.
var tourFormats = map[TourFormat]tourFormat{
	Swiss:      {chosenRounds: true},
	RoundRobin: {},
}

// Known reports whether f is a format of tourFormats.
func (f TourFormat) Known() bool { _, ok := tourFormats[f]; return ok }

// ChosenRounds reports whether a tournament of format f plays the rounds
// its creator chose (Swiss), rather than as many as its players need.
func (f TourFormat) ChosenRounds() bool { return tourFormats[f].chosenRounds }

// TourFormats are the formats, in the order a form offers them.
func TourFormats() []TourFormat { return []TourFormat{Swiss, RoundRobin} }

// TourState is where a tournament stands.
type TourState string

// The states of a tournament.
const (
	TourSignup    TourState = "signup"    // players sign up until SignupUntil
	TourRunning   TourState = "running"   // its rounds are played
	TourFinished  TourState = "finished"  // every round played: the standings are final
	TourCancelled TourState = "cancelled" // fewer than MinTourPlayers signed up
)

// Tournament is an event the site runs by itself (tourrounds.go): players
// sign up until SignupUntil, then each round's tables are paired and
// started, with TurnHours a turn, and the next is paired when the last
// game of a round is over, or RoundDays after it started at the latest
// (the stand-in bot finishes what is left).
type Tournament struct {
	ID     uint       `gorm:"primaryKey"`
	Name   string     `gorm:"size:60;not null"`
	Format TourFormat `gorm:"size:16;not null"`
	// Multi: tables of three or four (pairing.Multi); else of two.
	Multi     bool `gorm:"not null;default:false"`
	TurnHours int  `gorm:"not null"`
	RoundDays int  `gorm:"not null"`
	// Rounds is how many rounds are played: chosen for Swiss (and cut to
	// what a round robin of the players would have at the start), set at
	// the start for round robin.
	Rounds     int `gorm:"not null;default:0"`
	MaxPlayers int `gorm:"not null"`
	// Private tournaments are for the players their creator invited
	// (Entrant rows not Joined yet), listed to them alone.
	Private   bool      `gorm:"not null;default:false"`
	CreatorID uint      `gorm:"index;not null;uniqueIndex:idx_tournaments_form_key,priority:1"`
	State     TourState `gorm:"size:16;index;not null"`
	// FormKey is the key of the form that opened it (TourSpec.FormKey,
	// nil: none), one tournament a key and creator.
	FormKey     *string `gorm:"size:64;uniqueIndex:idx_tournaments_form_key,priority:2"`
	SignupUntil time.Time
	// Round is the round being played (0 before the start); RoundEnds,
	// when its time is over.
	Round      int `gorm:"not null;default:0"`
	RoundEnds  *time.Time
	CreatedAt  time.Time
	StartedAt  *time.Time
	FinishedAt *time.Time
}

// Size is the size of t's tables, for pairing.
func (t *Tournament) Size() pairing.Size {
	if t.Multi {
		return pairing.Multi
	}
	return pairing.Two
}

// Entrant is a player of a tournament: signed up (Joined), or invited to a
// private one and not yet. Seed is their place in the order of ratings at
// the start (1 first); WithdrawnAfter, the round after which they were
// withdrawn (0: they play on); Place, their place in the final standings
// (0 until the tournament is finished).
type Entrant struct {
	TournamentID   uint `gorm:"primaryKey;autoIncrement:false"`
	UserID         uint `gorm:"primaryKey;autoIncrement:false;index"`
	Joined         bool `gorm:"not null;default:false"`
	Seed           int  `gorm:"not null;default:0"`
	WithdrawnAfter int  `gorm:"not null;default:0"`
	Place          int  `gorm:"not null;default:0"`
	CreatedAt      time.Time
}

// TourBye is a player who sat a round out: it counts as a win.
type TourBye struct {
	TournamentID uint `gorm:"primaryKey;autoIncrement:false"`
	Round        int  `gorm:"primaryKey;autoIncrement:false"`
	UserID       uint `gorm:"primaryKey;autoIncrement:false"`
}

// The rules of tournaments: how many players at least and at most (a
// private one at most MaxPrivatePlayers), how many private ones a player
// may have in sign-up or running at once (MaxOwnTournaments), the rounds a
// Swiss tournament may choose, and the times offered.
const (
	MinTourPlayers    = 3
	MaxTourPlayers    = 64
	MaxPrivatePlayers = 16
	MaxOwnTournaments = 2
	MaxSwissRounds    = 9
)

// TourTurnHours are the times per turn a tournament may have (a
// tournament's turns always have one: a no-show times out).
func TourTurnHours() []int { return []int{24, 72, 168} }

// TourRoundDays are the lengths a tournament's rounds may have, in days.
func TourRoundDays() []int { return []int{7, 14, 21, 30} }

// TourSignupDays are how long sign-up may stay open, in days.
func TourSignupDays() []int { return []int{1, 2, 3, 7, 14} }

// Refusals of tournaments, worded for players.
var (
	ErrTourName       = invalid("a tournament's name has 3 to 60 characters")
	ErrTourFormat     = invalid("a tournament is Swiss or a round robin, at tables of two or of three or four")
	ErrTourTurn       = invalid("a tournament's time per turn is 1 day, 3 days or 7 days")
	ErrTourRoundDays  = invalid("a tournament's round lasts 7, 14, 21 or 30 days")
	ErrTourSignup     = invalid("sign-up stays open 1, 2, 3, 7 or 14 days")
	ErrTourRounds     = invalid("a Swiss tournament has 1 to %d rounds", MaxSwissRounds)
	ErrTourPlayers    = invalid("a tournament takes %d to %d players", MinTourPlayers, MaxTourPlayers)
	ErrTourPrivateMax = invalid("a private tournament takes %d to %d players, you included", MinTourPlayers, MaxPrivatePlayers)
	ErrTourPublic     = invalid("only admins open tournaments for everyone: yours is private, for the players you invite")
	ErrTourGuest      = invalid("guests do not play tournaments: make an account to take part")
	ErrTourMany       = invalid("you have %d private tournaments not over yet: wait until one ends before you open another", MaxOwnTournaments)
	ErrTourClosed     = invalid("sign-up for this tournament is closed")
	ErrTourFull       = invalid("this tournament is full")
	ErrTourNotIn      = invalid("you are not signed up for this tournament")
)

// TourSpec is what a tournament is created with. Invite names the players
// of a private one (its creator takes part too); a public one (an
// admin's) invites nobody.
type TourSpec struct {
	Name       string
	Format     TourFormat
	Multi      bool
	TurnHours  int
	RoundDays  int
	SignupDays int
	Rounds     int // Swiss only
	MaxPlayers int
	Private    bool
	Invite     []string
	// FormKey names the form it is opened from (a random key the page
	// gives it, "": none): sent twice, it opens one tournament, which the
	// second sending gets too.
	FormKey string
}

// CreateTournament opens a tournament of spec for sign-up, by creator: an
// admin's may be public; anyone else's (not a guest's) is private, at most
// MaxOwnTournaments of theirs not over at once, for at most
// MaxPrivatePlayers players, its creator signed up and the invited told.
// A refusal says why and changes nothing.
func (s *Store) CreateTournament(creator *User, spec TourSpec) (*Tournament, error) {
	spec.Name = strings.Join(strings.Fields(spec.Name), " ")
	switch n := utf8.RuneCountInString(spec.Name); {
	case creator.Guest:
		return nil, ErrTourGuest
	case creator.BotAccount:
		return nil, ErrTourBot
	case !spec.Private && !creator.Admin:
		return nil, ErrTourPublic
	case n < 3 || n > 60:
		return nil, ErrTourName
	case !spec.Format.Known():
		return nil, ErrTourFormat
	case !slices.Contains(TourTurnHours(), spec.TurnHours):
		return nil, ErrTourTurn
	case !slices.Contains(TourRoundDays(), spec.RoundDays):
		return nil, ErrTourRoundDays
	case !slices.Contains(TourSignupDays(), spec.SignupDays):
		return nil, ErrTourSignup
	case spec.Format.ChosenRounds() && (spec.Rounds < 1 || spec.Rounds > MaxSwissRounds):
		return nil, ErrTourRounds
	case spec.Private && (spec.MaxPlayers < MinTourPlayers || spec.MaxPlayers > MaxPrivatePlayers):
		return nil, ErrTourPrivateMax
	case spec.MaxPlayers < MinTourPlayers || spec.MaxPlayers > MaxTourPlayers:
		return nil, ErrTourPlayers
	}
	if !spec.Format.ChosenRounds() {
		spec.Rounds = 0
	}
	var names []string
	seen := map[string]bool{} // in a map: a form of thousands of names costs each once
	for _, name := range spec.Invite {
		if name = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), "@")); name != "" && !seen[strings.ToLower(name)] {
			seen[strings.ToLower(name)] = true
			names = append(names, name)
		}
	}
	if !spec.Private && len(names) > 0 {
		return nil, invalid("a tournament for everyone invites nobody: players sign up themselves")
	}
	if len(names)+1 > spec.MaxPlayers {
		return nil, invalid("you invited %d players: with you, that is more than the %d places", len(names), spec.MaxPlayers)
	}
	if len(spec.FormKey) > 64 {
		return nil, ErrTourName // no page's
	}
	now := s.now()
	t := &Tournament{Name: spec.Name, Format: spec.Format, Multi: spec.Multi, TurnHours: spec.TurnHours, RoundDays: spec.RoundDays,
		Rounds: spec.Rounds, MaxPlayers: spec.MaxPlayers, Private: spec.Private, CreatorID: creator.ID, State: TourSignup,
		SignupUntil: now.Add(time.Duration(spec.SignupDays) * day), CreatedAt: now}
	if spec.FormKey != "" {
		t.FormKey = &spec.FormKey
	}
	var made *Tournament // the tournament this form opened already
	err := s.transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, creator.ID); err != nil {
			return err
		}
		if t.FormKey != nil {
			var got []Tournament
			if err := tx.Where("creator_id = ? AND form_key = ?", creator.ID, *t.FormKey).Limit(1).Find(&got).Error; err != nil {
				return err
			}
			if len(got) > 0 {
				made = &got[0]
				return nil
			}
		}
		if spec.Private {
			var mine int64
			err := tx.Model(&Tournament{}).Where("creator_id = ? AND private = ? AND state IN ?", creator.ID, true, []TourState{TourSignup, TourRunning}).Count(&mine).Error
			if err != nil {
				return err
			}
			if mine >= MaxOwnTournaments {
				return ErrTourMany
			}
		}
		var invited []User
		for _, name := range names {
			var u User
			err := userNamed(tx.Select("id", "username", "guest", "bot_account"), name, &u)
			if errors.Is(err, gorm.ErrRecordNotFound) {
				return invalid("nobody here is called “%s”", name)
			}
			if err != nil {
				return err
			}
			switch {
			case u.ID == creator.ID:
				return invalid("you take part in your tournament already: invite the others")
			case u.Guest:
				return invalid("%s is a guest: guests do not play tournaments", u.Username)
			case u.BotAccount:
				return invalid("%s is a bot account: bot accounts do not play tournaments", u.Username)
			}
			// The invitations of the day count as a table's do.
			if err := s.checkInvitee(tx, creator.ID, u.ID); err != nil {
				return err
			}
			invited = append(invited, u)
		}
		if len(invited) > 0 {
			var sent int64
			if err := tx.Model(&Invitation{}).Where("creator_id = ? AND created_at > ?", creator.ID, now.Add(-24*time.Hour)).Count(&sent).Error; err != nil {
				return err
			}
			if int(sent)+len(invited) > MaxInvitesPerDay {
				return ErrTooManyInvites
			}
			invitations := make([]Invitation, len(invited))
			for i, u := range invited {
				invitations[i] = Invitation{CreatorID: creator.ID, InviteeID: u.ID, CreatedAt: now}
			}
			if err := tx.Create(&invitations).Error; err != nil {
				return err
			}
		}
		if err := tx.Create(t).Error; err != nil {
			return err
		}
		entrants := make([]Entrant, 0, len(invited)+1)
		if spec.Private {
			entrants = append(entrants, Entrant{TournamentID: t.ID, UserID: creator.ID, Joined: true, CreatedAt: now})
		}
		ids := []uint{creator.ID}
		for _, u := range invited {
			entrants = append(entrants, Entrant{TournamentID: t.ID, UserID: u.ID, CreatedAt: now})
			ids = append(ids, u.ID)
		}
		if len(entrants) > 0 {
			if err := tx.Create(&entrants).Error; err != nil {
				return err
			}
		}
		p, err := peopleIn(tx, nil, ids...)
		if err != nil {
			return err
		}
		for _, u := range invited {
			if err := s.notify(tx, p, u.ID, 0, KindTourInvited, "%s invited you to the tournament %s: sign up under Tournaments before sign-up closes.", creator.Username, t.Name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if made != nil {
		return made, nil
	}
	return t, nil
}

// JoinTournament signs user up for tournament id while its sign-up is
// open: anyone with an account for a public one, the invited for a
// private one, while places are left. Joining twice changes nothing.
func (s *Store) JoinTournament(id uint, user *User) error {
	if user.Guest {
		return ErrTourGuest
	}
	if user.BotAccount {
		return ErrTourBot
	}
	return s.transaction(func(tx *gorm.DB) error {
		var t Tournament
		// Joins of one tournament wait for each other, so that the last
		// place is taken once.
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&t, id).Error; err != nil {
			return notFound(err)
		}
		if err := lockUser(tx, user.ID); err != nil { // MarkBot waits for the join, or it for MarkBot
			return err
		}
		if bot, err := isBot(tx, user.ID); err != nil || bot {
			if err == nil {
				err = ErrTourBot
			}
			return err
		}
		if err := seesTour(tx, &t, user.ID); err != nil {
			return err
		}
		if t.State != TourSignup || !s.now().Before(t.SignupUntil) {
			return ErrTourClosed
		}
		var e Entrant
		err := tx.Where("tournament_id = ? AND user_id = ?", id, user.ID).Take(&e).Error
		switch {
		case err == nil && e.Joined:
			return nil
		case err != nil && !errors.Is(err, gorm.ErrRecordNotFound):
			return err
		}
		var n int64
		if err := tx.Model(&Entrant{}).Where("tournament_id = ? AND joined = ?", id, true).Count(&n).Error; err != nil {
			return err
		}
		if int(n) >= t.MaxPlayers {
			return ErrTourFull
		}
		if e.UserID != 0 {
			return tx.Model(&Entrant{}).Where("tournament_id = ? AND user_id = ?", id, user.ID).Update("joined", true).Error
		}
		return tx.Create(&Entrant{TournamentID: id, UserID: user.ID, Joined: true, CreatedAt: s.now()}).Error
	})
}

// LeaveTournament takes user off tournament id while sign-up is open (an
// invited player stays invited). ErrTourNotIn when they were not on it.
func (s *Store) LeaveTournament(id uint, user *User) error {
	return s.transaction(func(tx *gorm.DB) error {
		var t Tournament
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&t, id).Error; err != nil {
			return notFound(err)
		}
		if err := seesTour(tx, &t, user.ID); err != nil {
			return err
		}
		if t.State != TourSignup || !s.now().Before(t.SignupUntil) {
			return ErrTourClosed
		}
		q := tx.Model(&Entrant{}).Where("tournament_id = ? AND user_id = ? AND joined = ?", id, user.ID, true)
		var res *gorm.DB
		if t.Private {
			res = q.Update("joined", false)
		} else {
			res = q.Delete(&Entrant{})
		}
		if res.Error == nil && res.RowsAffected == 0 {
			return ErrTourNotIn
		}
		return res.Error
	})
}

// seesTour is ErrNotFound unless user may see tournament t: anyone a
// public one, its entrants (the invited too) a private one; so that what
// a stranger is told of a private tournament is what they are told of one
// that does not exist.
func seesTour(tx *gorm.DB, t *Tournament, user uint) error {
	if !t.Private {
		return nil
	}
	var n int64
	if err := tx.Model(&Entrant{}).Where("tournament_id = ? AND user_id = ?", t.ID, user).Count(&n).Error; err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// Entered lists the tournaments user is, or was, an entrant of (signed
// up, or invited to a private one), with their entry, oldest first.
func (s *Store) Entered(user uint) ([]Tournament, []Entrant, error) {
	var es []Entrant
	if err := s.db.Where("user_id = ?", user).Order("tournament_id").Find(&es).Error; err != nil {
		return nil, nil, err
	}
	ts := make([]Tournament, len(es))
	for i, e := range es {
		if err := s.db.Take(&ts[i], e.TournamentID).Error; err != nil {
			return nil, nil, err
		}
	}
	return ts, es, nil
}
