package models

import (
	"cmp"
	"slices"
	"strings"

	"gorm.io/gorm"

	"cacao/models/pairing"
)

// Standing is a player's line in a tournament's standings. Players are
// ranked by Points, then by the tie-breaks in order: Opponents (the points
// of everyone they sat with, once a game), Scored (the Cacao points of
// their finished games), Rating (in the tournament's format); players
// equal in all four share a Place.
type Standing struct {
	UserID         uint
	Name           string
	Place          int
	Points         float64
	Opponents      float64
	Scored         int
	Rating         float64
	Games          int // games finished or ended
	Byes           int
	WithdrawnAfter int // the round after which they were withdrawn (0: they play on)
}

// WinPoints is what a win (and a bye) is worth: 1 at tables of two, 3 at
// tables of three or four.
func (t *Tournament) WinPoints() float64 {
	if t.Multi {
		return 3
	}
	return 1
}

// PlacePoints is what the place-th of a table of n earns in t, when
// tied places share it: the win's points for first, none for last, evenly
// between (tables of four: 3, 2, 1, 0; of three: 3, 1½, 0), players tied
// for a place sharing the points of the places they cover.
func (t *Tournament) PlacePoints(place, tied, n int) float64 {
	if n < 2 || place < 1 {
		return 0
	}
	sum := 0.0
	for p := place; p < place+max(1, tied); p++ {
		sum += t.WinPoints() * float64(n-min(p, n)) / float64(n-1)
	}
	return sum / float64(max(1, tied))
}

// tourData is a tournament as its standings and pairings read it.
type tourData struct {
	t        Tournament
	entrants []Entrant // joined, by seed then sign-up
	users    map[uint]User
	deleted  map[uint]bool // entrants whose account is gone (users names them DeletedName)
	games    []Game        // with their seats, by round then id
	byes     []TourBye
}

// loadTour reads tournament id's data from db.
func loadTour(db *gorm.DB, id uint) (*tourData, error) {
	d := &tourData{users: map[uint]User{}, deleted: map[uint]bool{}}
	if err := db.Take(&d.t, id).Error; err != nil {
		return nil, notFound(err)
	}
	if err := db.Where("tournament_id = ? AND joined = ?", id, true).Order("seed, created_at, user_id").Find(&d.entrants).Error; err != nil {
		return nil, err
	}
	if err := db.Preload("Seats", func(q *gorm.DB) *gorm.DB { return q.Order("slot") }).Where("tournament_id = ?", id).Order("tour_round, id").Find(&d.games).Error; err != nil {
		return nil, err
	}
	if err := db.Where("tournament_id = ?", id).Order("round, user_id").Find(&d.byes).Error; err != nil {
		return nil, err
	}
	ids := []uint{d.t.CreatorID}
	for _, e := range d.entrants {
		ids = append(ids, e.UserID)
	}
	var us []User
	if err := db.Select("id", "username", "rating", "rating_dev", "rating_vol", "rated_games", "multi_rating", "multi_rating_dev", "multi_rating_vol", "multi_rated_games", "guest").
		Where("id IN ?", ids).Find(&us).Error; err != nil {
		return nil, err
	}
	for _, u := range us {
		d.users[u.ID] = u
	}
	for _, id := range ids {
		if _, ok := d.users[id]; !ok { // the account was deleted: its results stand, unnamed
			d.users[id], d.deleted[id] = User{ID: id, Username: DeletedName}, true
		}
	}
	return d, nil
}

// format is the rating format of d's games.
func (d *tourData) format() Format {
	if d.t.Multi {
		return MorePlayers
	}
	return TwoPlayers
}

// seatPoints is what each seat of finished game g earns (by slot).
func (d *tourData) seatPoints(g *Game) []float64 {
	out := make([]float64, len(g.Seats))
	if g.Status != StatusFinished || !g.Scored {
		return out
	}
	for i, seat := range g.Seats {
		tied := 0
		for _, other := range g.Seats {
			if other.Place == seat.Place {
				tied++
			}
		}
		out[i] = d.t.PlacePoints(seat.Place, tied, len(g.Seats))
	}
	return out
}

// over reports whether g counts as played: finished with its places kept,
// or ended without a result (no points).
func over(g *Game) bool {
	return g.Status == StatusFinished && g.Scored || g.Status == StatusEnded
}

// standings ranks d's players (see Standing).
func (d *tourData) standings() []Standing {
	at := map[uint]*Standing{}
	out := make([]Standing, len(d.entrants))
	for i, e := range d.entrants {
		u := d.users[e.UserID]
		r, _, _ := u.RatingIn(d.format())
		out[i] = Standing{UserID: e.UserID, Name: u.Username, Rating: r.R, WithdrawnAfter: e.WithdrawnAfter}
		at[e.UserID] = &out[i]
	}
	for _, b := range d.byes {
		if st := at[b.UserID]; st != nil {
			st.Byes++
			st.Points += d.t.WinPoints()
		}
	}
	for i := range d.games {
		g := &d.games[i]
		if !over(g) {
			continue
		}
		points := d.seatPoints(g)
		for k, seat := range g.Seats {
			if p := seat.Player(); p != nil && at[*p] != nil {
				st := at[*p]
				st.Games++
				st.Points += points[k]
				if g.Status == StatusFinished {
					st.Scored += seat.Score
				}
			}
		}
	}
	for i := range d.games {
		g := &d.games[i]
		if !over(g) {
			continue
		}
		for _, seat := range g.Seats {
			p := seat.Player()
			if p == nil || at[*p] == nil {
				continue
			}
			for _, other := range g.Seats {
				if q := other.Player(); q != nil && *q != *p && at[*q] != nil {
					at[*p].Opponents += at[*q].Points
				}
			}
		}
	}
	key := func(s Standing) []float64 { return []float64{s.Points, s.Opponents, float64(s.Scored), s.Rating} }
	slices.SortStableFunc(out, func(a, b Standing) int {
		if c := slices.Compare(key(b), key(a)); c != 0 {
			return c
		}
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	})
	for i := range out {
		out[i].Place = i + 1
		if i > 0 && slices.Equal(key(out[i]), key(out[i-1])) {
			out[i].Place = out[i-1].Place
		}
	}
	if d.t.State == TourFinished {
		// Final: the places kept at the end, which the news told, whatever
		// the ratings (the last tie-break) have done since.
		kept := map[uint]int{}
		for _, e := range d.entrants {
			kept[e.UserID] = e.Place
		}
		for i := range out {
			if p := kept[out[i].UserID]; p > 0 {
				out[i].Place = p
			}
		}
		slices.SortStableFunc(out, func(a, b Standing) int { return a.Place - b.Place })
	}
	return out
}

// records is what pairing needs of the players ids (in that order): their
// byes, games, first seats and meetings in d's games, played or not.
func (d *tourData) records(ids []uint) []pairing.Record {
	at := map[uint]*pairing.Record{}
	out := make([]pairing.Record, len(ids))
	for i, id := range ids {
		out[i] = pairing.Record{ID: id, Met: map[uint]int{}}
		at[id] = &out[i]
	}
	for _, b := range d.byes {
		if r := at[b.UserID]; r != nil {
			r.Byes++
		}
	}
	for _, g := range d.games {
		for _, seat := range g.Seats {
			p := seat.Player()
			if p == nil || at[*p] == nil {
				continue
			}
			r := at[*p]
			r.Games++
			if seat.Index == g.First {
				r.Firsts++
			}
			for _, other := range g.Seats {
				if q := other.Player(); q != nil && *q != *p {
					r.Met[*q]++
				}
			}
		}
	}
	return out
}

// TourSeat is a player at one of a tournament's tables: their name, and
// once the game is over their place and the tournament's points for it.
type TourSeat struct {
	Name   string
	Place  int
	Points float64
}

// TourGame is one of a round's games.
type TourGame struct {
	ID     uint
	Status string
	Seats  []TourSeat // in play order
}

// TourRoundView is a round of a tournament: its games and who had a bye.
type TourRoundView struct {
	Number int
	Games  []TourGame
	Byes   []string
}

// TourPage is a tournament as its page shows it to a viewer.
type TourPage struct {
	Tournament Tournament
	Creator    string
	Players    []string // signed up, by name (before the start) or by seed
	Invited    []string // of a private one: invited, not signed up
	Standings  []Standing
	Rounds     []TourRoundView // the latest first
	Winners    []string        // once finished: those in first place
	Joined     bool            // the viewer is signed up
	MayJoin    bool            // the viewer may sign up now
}

// TournamentPage is tournament id as viewer (nil: nobody signed in) sees
// it. A private tournament is ErrNotFound to all but its creator, its
// invited and signed-up players and admins.
func (s *Store) TournamentPage(id uint, viewer *User) (*TourPage, error) {
	d, err := loadTour(s.db, id)
	if err != nil {
		return nil, err
	}
	var invited []Entrant
	if err := s.db.Where("tournament_id = ? AND joined = ?", id, false).Order("user_id").Find(&invited).Error; err != nil {
		return nil, err
	}
	p := &TourPage{Tournament: d.t}
	isInvited := false
	var invitedIDs []uint
	for _, e := range invited {
		invitedIDs = append(invitedIDs, e.UserID)
		isInvited = isInvited || viewer != nil && e.UserID == viewer.ID
	}
	for _, e := range d.entrants {
		p.Players = append(p.Players, d.users[e.UserID].Username)
		p.Joined = p.Joined || viewer != nil && e.UserID == viewer.ID
	}
	if d.t.Private && (viewer == nil || !(viewer.Admin || viewer.ID == d.t.CreatorID || p.Joined || isInvited)) {
		return nil, ErrNotFound
	}
	if len(invitedIDs) > 0 {
		if err := s.db.Model(&User{}).Where("id IN ?", invitedIDs).Order("username").Pluck("username", &p.Invited).Error; err != nil {
			return nil, err
		}
	}
	p.Creator = d.users[d.t.CreatorID].Username
	p.MayJoin = viewer != nil && !viewer.Guest && !p.Joined && d.t.State == TourSignup && s.now().Before(d.t.SignupUntil) &&
		len(d.entrants) < d.t.MaxPlayers && (!d.t.Private || isInvited)
	if d.t.State != TourSignup {
		p.Standings = d.standings()
	}
	if d.t.State == TourFinished {
		for _, st := range p.Standings {
			if st.Place == 1 {
				p.Winners = append(p.Winners, st.Name)
			}
		}
	}
	for r := d.t.Round; r >= 1; r-- {
		rv := TourRoundView{Number: r}
		for i := range d.games {
			g := &d.games[i]
			if g.TourRound != r {
				continue
			}
			points := d.seatPoints(g)
			tg := TourGame{ID: g.ID, Status: g.Status}
			seats := slices.Clone(g.Seats)
			slices.SortFunc(seats, func(a, b Seat) int { return cmp.Compare(a.Slot, b.Slot) })
			for k, seat := range seats {
				ts := TourSeat{Name: seat.Name}
				if g.Status == StatusFinished && g.Scored {
					ts.Place, ts.Points = seat.Place, points[k]
				}
				tg.Seats = append(tg.Seats, ts)
			}
			rv.Games = append(rv.Games, tg)
		}
		for _, b := range d.byes {
			if b.Round == r {
				rv.Byes = append(rv.Byes, d.users[b.UserID].Username)
			}
		}
		p.Rounds = append(p.Rounds, rv)
	}
	return p, nil
}

// TourSummary is a tournament in a list: how many players signed up, and
// once finished who won.
type TourSummary struct {
	Tournament Tournament
	Players    int
	Winners    []string
}

// TourLists are the tournaments a viewer sees: open for sign-up, running,
// and the latest finished (or cancelled).
type TourLists struct {
	Signup, Running, Finished []TourSummary
}

// TourListLength is how many finished tournaments Tournaments lists.
const TourListLength = 20

// Tournaments lists the tournaments viewer (nil: nobody signed in) sees:
// the public ones and the private ones they were invited to or made.
func (s *Store) Tournaments(viewer *User) (TourLists, error) {
	var out TourLists
	visible := func() *gorm.DB {
		q := s.db.Model(&Tournament{})
		if viewer == nil {
			return q.Where("private = ?", false)
		}
		return q.Where("private = ? OR creator_id = ? OR id IN (?)", false, viewer.ID,
			s.db.Model(&Entrant{}).Select("tournament_id").Where("user_id = ?", viewer.ID))
	}
	for _, l := range []struct {
		into   *[]TourSummary
		states []TourState
		order  string
		limit  int
	}{
		{&out.Signup, []TourState{TourSignup}, "signup_until, id", MaxTourPlayers},
		{&out.Running, []TourState{TourRunning}, "started_at DESC, id DESC", MaxTourPlayers},
		{&out.Finished, []TourState{TourFinished, TourCancelled}, "finished_at DESC, id DESC", TourListLength},
	} {
		var ts []Tournament
		if err := visible().Where("state IN ?", l.states).Order(l.order).Limit(l.limit).Find(&ts).Error; err != nil {
			return out, err
		}
		ids := make([]uint, len(ts))
		for i, t := range ts {
			ids[i] = t.ID
		}
		var counts []struct {
			TournamentID uint
			N            int
		}
		if len(ids) > 0 {
			if err := s.db.Model(&Entrant{}).Select("tournament_id, COUNT(*) AS n").Where("tournament_id IN ? AND joined = ?", ids, true).
				Group("tournament_id").Scan(&counts).Error; err != nil {
				return out, err
			}
		}
		for _, t := range ts {
			sum := TourSummary{Tournament: t}
			for _, c := range counts {
				if c.TournamentID == t.ID {
					sum.Players = c.N
				}
			}
			if t.State == TourFinished {
				err := s.db.Model(&User{}).Joins("JOIN entrants ON entrants.user_id = users.id AND entrants.tournament_id = ? AND entrants.place = 1", t.ID).
					Order("users.username").Pluck("users.username", &sum.Winners).Error
				if err != nil {
					return out, err
				}
			}
			*l.into = append(*l.into, sum)
		}
	}
	return out, nil
}
