package handlers

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"cacao/models"
	"cacao/models/autoplay"
	"cacao/views"
)

// playForm offers a game against a bot at once (GET /play): a visitor
// chooses a name and plays as a guest; a player signed in plays in their
// own. ?bot= preselects the level (the easy bot otherwise).
func (s *Server) playForm(c echo.Context) error {
	return render(c, http.StatusOK, views.PlayPage(s.playVM(c, c.QueryParam("bot"), "")))
}

// playVM is the /play form with level chosen (when it is one) and the
// guest's name as written.
func (s *Server) playVM(c echo.Context, level, name string) views.BotGameVM {
	levels := autoplay.Levels()
	if !slices.Contains(levels, level) {
		level = levels[0]
	}
	vm := views.BotGameVM{Page: s.page(c, tr(c, "Play a bot now")), Levels: levels, Level: level, Name: name}
	vm.FormKey = newFormKey()
	return vm
}

// play starts the game against the bot chosen (POST /play): for a visitor,
// first a guest in the name they chose, signed in by this session. A
// guest's games count, beside their own, in their address's guest games;
// a new guest is one of their address's guests (guestsKey), taken before
// anything is made.
func (s *Server) play(c echo.Context) error {
	level, name := c.FormValue("bot"), c.FormValue("name")
	refuse := func(code int, msg string) error {
		vm := s.playVM(c, level, name)
		vm.Error = msg
		return render(c, code, views.PlayPage(vm))
	}
	if !slices.Contains(autoplay.Levels(), level) {
		return refuse(http.StatusUnprocessableEntity, sentence(c, "choose the easy, medium or hard bot"))
	}
	spec := models.GameSpec{Seats: []string{level}, FormKey: c.FormValue("form_key")} // a guest's is private (models.Store.CreateGame)
	u := currentUser(c)
	if u != nil {
		if id, err := s.store.FormGame(u.ID, spec.FormKey); err != nil || id != 0 {
			return s.toFormGame(c, id, err)
		}
		if err := s.takeNewGame(c, u); err != nil {
			return refused(c, err, refuse)
		}
	} else {
		var err error
		if u, err = s.newGuest(c, name); err != nil {
			return refused(c, err, refuse)
		}
	}
	g, err := s.store.CreateGame(u, spec)
	if err != nil {
		return refused(c, err, refuse)
	}
	if _, err := s.bots.Bots(g.ID, nil); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/games/%d", g.ID))
}

// newGuest makes a guest called name and signs them in on c's session:
// the name checked first (a name refused takes nothing), then one of the
// address's guests taken, in one step, before the guest is made, so that
// requests at once cannot pass the limit together.
func (s *Server) newGuest(c echo.Context, name string) (*models.User, error) {
	if err := s.store.CheckGuestName(name); err != nil {
		return nil, err
	}
	if d := s.take(c, guestsKey(c.RealIP())); d > 0 {
		return nil, &errSpent{wait: d, of: spentGuests}
	}
	u, err := s.store.CreateGuest(name)
	if err != nil {
		return nil, err
	}
	return u, s.startSession(c, u)
}

// joinAsGuest takes the seat of the invitation token for a visitor, as a
// guest in the name they chose (POST /join/:token/guest): offered by a
// private table still open. A visitor signed in takes it as themselves.
func (s *Server) joinAsGuest(c echo.Context) error {
	token, name := c.Param("token"), c.FormValue("name")
	if currentUser(c) != nil {
		return s.joinByToken(c)
	}
	g, err := s.store.GameByInvite(token)
	if err != nil {
		return err
	}
	refuse := func(code int, msg string) error {
		return s.renderJoin(c, code, g, views.GuestJoin{Offer: true, Name: name, Error: msg})
	}
	if !guestMayJoin(g) {
		_, msg := status(lang(c), models.ErrGuestPublic)
		return refuse(http.StatusUnprocessableEntity, msg)
	}
	u, err := s.newGuest(c, name)
	if err != nil {
		return refused(c, err, refuse)
	}
	if g, err = s.store.Join(0, token, u); err != nil {
		// Taken meanwhile: the guest is signed in, and told.
		return err
	}
	if _, err := s.bots.Bots(g.ID, nil); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/games/%d", g.ID))
}

// guestMayJoin reports whether g offers a guest a seat through its link:
// a private table still open, with a seat kept for nobody.
func guestMayJoin(g *models.Game) bool {
	if !g.Private || g.Status != models.StatusOpen {
		return false
	}
	for _, seat := range g.Seats {
		if seat.Open() && seat.InvitedID == nil {
			return true
		}
	}
	return false
}

// keptFor reports whether g keeps an open seat for user (invited by name).
func keptFor(g *models.Game, user uint) bool {
	for _, seat := range g.Seats {
		if seat.Open() && seat.InvitedID != nil && *seat.InvitedID == user {
			return true
		}
	}
	return false
}

// accountForm shows a guest the form that makes them an account (GET
// /account); an account is sent to its settings.
func (s *Server) accountForm(c echo.Context) error {
	u := currentUser(c)
	if !u.Guest {
		return redirect(c, "/settings")
	}
	return render(c, http.StatusOK, views.AccountPage(s.page(c, tr(c, "Make an account")), views.AccountForm{Name: u.Username, Next: safeNext(c.QueryParam("next"))}))
}

// becomeAccount makes the guest signed in an account with the name and
// password given (POST /account), keeping all that is theirs, and goes
// back where the form was. Their session carries on at the account's new
// token; a second submit finds an account and is refused.
func (s *Server) becomeAccount(c echo.Context) error {
	u := currentUser(c)
	name, next := c.FormValue("username"), safeNext(c.FormValue("next"))
	refuse := func(code int, msg string) error {
		return render(c, code, views.AccountPage(s.page(c, tr(c, "Make an account")), views.AccountForm{Name: name, Next: next, Error: msg}))
	}
	var acct *models.User
	err := s.hash(c, func() error {
		var err error
		acct, err = s.store.BecomeAccount(u.ID, name, c.FormValue("password"))
		return err
	})
	if err != nil {
		return refused(c, err, refuse)
	}
	if err := s.startSession(c, acct); err != nil {
		return err
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "Your account %s is made: your games are kept, and you can log in from any device.", acct.Username))
	return redirect(c, next)
}

// requireAccount refuses guests (after requireUser): what it guards is
// for accounts (mail, push, webhooks, passwords).
func (s *Server) requireAccount(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if u := currentUser(c); u != nil && u.Guest {
			if c.Request().Method == http.MethodGet {
				return redirect(c, "/account")
			}
			return refusal(http.StatusForbidden, "guests are told of their games on the site only: make an account for mail, push and webhooks")
		}
		return next(c)
	}
}

// guestAccountForm is the form that makes the viewer an account, on a page
// at next, when they are a guest (nil otherwise).
func guestAccountForm(u *models.User, next string) *views.AccountForm {
	if u == nil || !u.Guest {
		return nil
	}
	return &views.AccountForm{Name: u.Username, Next: next}
}
