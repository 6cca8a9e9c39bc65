package handlers

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"cacao/models"
	"cacao/views"
	"cacao/views/i18n"
)

// tourKind says a tournament's format and tables in words.
func tourKind(l *i18n.Lang, t *models.Tournament) string {
	var format string
	switch t.Format {
	case models.Swiss:
		format = l.T("Swiss")
	case models.RoundRobin:
		format = l.T("Round robin")
	default:
		panic(fmt.Sprintf("handlers: a tournament of the unknown format %q", t.Format))
	}
	if t.Multi {
		return l.T("%s, tables of three or four", format)
	}
	return l.T("%s, tables of two", format)
}

// tournaments lists the tournaments the viewer sees.
func (s *Server) tournaments(c echo.Context) error {
	u := currentUser(c)
	lists, err := s.store.Tournaments(u)
	if err != nil {
		return err
	}
	l := lang(c)
	line := func(sum models.TourSummary) views.TourLine {
		t := &sum.Tournament
		return views.TourLine{ID: t.ID, Name: t.Name, Kind: tourKind(l, t), Private: t.Private, Players: sum.Players, Max: t.MaxPlayers,
			Closes: l.Date(t.SignupUntil, false, true), Round: t.Round, Rounds: t.Rounds, Winners: sum.Winners, Cancelled: t.State == models.TourCancelled}
	}
	vm := views.TournamentsVM{Page: s.page(c, tr(c, "Tournaments")), MayCreate: u != nil && !u.Guest && !u.BotAccount}
	for _, l := range []struct {
		from []models.TourSummary
		to   *[]views.TourLine
	}{{lists.Signup, &vm.Signup}, {lists.Running, &vm.Running}, {lists.Finished, &vm.Finished}} {
		for _, sum := range l.from {
			*l.to = append(*l.to, line(sum))
		}
	}
	return render(c, http.StatusOK, views.TournamentsPage(vm))
}

// tournament shows a tournament: sign-up, rounds, standings.
func (s *Server) tournament(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	u := currentUser(c)
	p, err := s.store.TournamentPage(id, u)
	if err != nil {
		return err
	}
	l, t := lang(c), &p.Tournament
	vm := views.TournamentVM{Page: s.page(c, t.Name), ID: t.ID, Name: t.Name, Creator: p.Creator, Kind: tourKind(l, t),
		TurnLimit: views.TurnLimitText(l, t.TurnHours), RoundDays: t.RoundDays, Private: t.Private, State: string(t.State),
		Closes: l.Date(t.SignupUntil, false, true), Max: t.MaxPlayers, Players: p.Players, Invited: p.Invited, Round: t.Round,
		Rounds: t.Rounds, Winners: p.Winners, Joined: p.Joined, MayJoin: p.MayJoin, Multi: t.Multi, Swiss: t.Format == models.Swiss}
	if t.StartedAt != nil {
		vm.Started = l.Date(*t.StartedAt, false, true)
	}
	if t.RoundEnds != nil {
		vm.RoundEnds = l.Date(*t.RoundEnds, false, true)
	}
	for _, st := range p.Standings {
		vm.Standings = append(vm.Standings, views.StandingLine{Place: st.Place, Name: st.Name, Points: st.Points, Opponents: st.Opponents,
			Scored: st.Scored, Rating: int(st.Rating + 0.5), Games: st.Games, Byes: st.Byes, WithdrawnAfter: st.WithdrawnAfter, Me: u != nil && st.UserID == u.ID})
	}
	for _, r := range p.Rounds {
		rl := views.RoundLine{Number: r.Number, Byes: r.Byes}
		for _, g := range r.Games {
			rg := views.RoundGame{ID: g.ID, Over: g.Status == models.StatusFinished && len(g.Seats) > 0 && g.Seats[0].Place > 0, Ended: g.Status == models.StatusEnded}
			for _, seat := range g.Seats {
				rg.Seats = append(rg.Seats, views.RoundSeat{Name: seat.Name, Place: seat.Place, Points: seat.Points})
			}
			rl.Games = append(rl.Games, rg)
		}
		vm.RoundList = append(vm.RoundList, rl)
	}
	return render(c, http.StatusOK, views.TournamentPage(vm))
}

// joinTournament signs the viewer up.
func (s *Server) joinTournament(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	if err := s.store.JoinTournament(id, currentUser(c)); err != nil {
		return err
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "You are signed up: your first game starts when sign-up closes."))
	return redirect(c, views.TournamentURL(id))
}

// leaveTournament takes the viewer off the tournament before it starts.
func (s *Server) leaveTournament(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	if err := s.store.LeaveTournament(id, currentUser(c)); err != nil {
		return err
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "You left the tournament."))
	return redirect(c, views.TournamentURL(id))
}

// newTournamentVM is the form to open a tournament, holding form.
func (s *Server) newTournamentVM(c echo.Context, form views.TourForm) views.NewTournamentVM {
	vm := views.NewTournamentVM{Page: s.page(c, tr(c, "Open a tournament")), Admin: currentUser(c).Admin, Form: form,
		TurnHours: models.TourTurnHours(), RoundDays: models.TourRoundDays(), SignupDays: models.TourSignupDays(),
		MaxRounds: models.MaxSwissRounds, MaxPrivate: models.MaxPrivatePlayers, MaxPublic: models.MaxTourPlayers,
		MinPlayers: models.MinTourPlayers, MaxOwn: models.MaxOwnTournaments}
	vm.FormKey = newFormKey()
	return vm
}

// newTournament is the form to open a tournament, with its first choices.
func (s *Server) newTournament(c echo.Context) error {
	form := views.TourForm{Format: string(models.Swiss), TurnHours: models.TourTurnHours()[0], RoundDays: 14, SignupDays: 3, Rounds: 3, MaxPlayers: 8}
	return render(c, http.StatusOK, views.NewTournamentPage(s.newTournamentVM(c, form)))
}

// createTournament opens a tournament from the form; a refusal shows the
// form again with what was entered and why.
func (s *Server) createTournament(c echo.Context) error {
	u := currentUser(c)
	number := func(name string) int {
		n, err := strconv.Atoi(strings.TrimSpace(c.FormValue(name)))
		if err != nil {
			return -1
		}
		return n
	}
	form := views.TourForm{Name: c.FormValue("name"), Format: c.FormValue("format"), Multi: c.FormValue("tables") == "3-4",
		TurnHours: number("turn_hours"), RoundDays: number("round_days"), SignupDays: number("signup_days"), Rounds: number("rounds"),
		MaxPlayers: number("max_players"), Public: c.FormValue("public") != "", Invite: c.FormValue("invite")}
	spec := models.TourSpec{Name: form.Name, Format: models.TourFormat(form.Format), Multi: form.Multi, TurnHours: form.TurnHours,
		RoundDays: form.RoundDays, SignupDays: form.SignupDays, Rounds: form.Rounds, MaxPlayers: form.MaxPlayers,
		Private: !(u.Admin && form.Public), Invite: strings.FieldsFunc(form.Invite, func(r rune) bool { return r == ',' || r == '\n' || r == '\r' }),
		FormKey: c.FormValue("form_key")}
	t, err := s.store.CreateTournament(u, spec)
	if err != nil {
		code, msg := status(lang(c), err)
		if code != http.StatusUnprocessableEntity {
			return err
		}
		vm := s.newTournamentVM(c, form)
		vm.Error = msg
		return render(c, code, views.NewTournamentPage(vm))
	}
	return redirect(c, views.TournamentURL(t.ID))
}
