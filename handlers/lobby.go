package handlers

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"cacao/handlers/live"
	"cacao/models"
	"cacao/models/autoplay"
	"cacao/views"
	"cacao/views/i18n"
)

func (s *Server) home(c echo.Context) error {
	u := currentUser(c)
	if u == nil {
		return render(c, http.StatusOK, views.LandingPage(s.page(c, tr(c, "Welcome"))))
	}
	vm, err := s.homeVM(c, u)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.HomePage(vm))
}

// The home page lists the viewer's games not over a page at a time, then
// the latest of their finished games; a link lists all finished games, a
// page at a time.
const (
	gamesPage      = 30
	recentFinished = 10
	finishedPage   = 50
	openPage       = 30 // open games of the lobby
	invitedPage    = 30
)

func (s *Server) homeVM(c echo.Context, u *models.User) (views.HomeVM, error) {
	vm := views.HomeVM{Page: s.page(c, tr(c, "My games")), BotNames: autoplay.Levels(), StandIn: models.DefaultStandIn, TurnLimits: models.TurnLimits(),
		LiveVersion: s.live.Version(live.User(u.ID), live.Lobby), ListsURL: "/", Account: guestAccountForm(u, "/")}
	if !u.Guest && !isHTMX(c) { // the new-table form: a guest's is the bots', a live refetch takes the lists alone
		vm.FormKey = newFormKey()
		var err error
		if vm.OpenBots, err = s.store.OpenBots(u.ID); err != nil { // a bot account's own seat is the first
			return vm, err
		}
	}
	now := s.store.Clock()
	at := from(c)
	var games []models.GameSummary
	if c.QueryParam("finished") == "all" {
		f, fv, err := s.historyFilter(c, "/", "finished=all")
		if err != nil {
			return vm, err
		}
		done, total, err := s.store.MyFinished(u.ID, f, at, finishedPage)
		if err != nil {
			return vm, err
		}
		games, vm.Finished, vm.Filter = done, true, fv
		vm.Pager = views.Pager{Base: fv.URL(), Offset: at, Size: finishedPage, Total: total}
	} else {
		mine, total, err := s.store.MyGames(u.ID, at, gamesPage)
		if err != nil {
			return vm, err
		}
		games = mine
		vm.Pager = views.Pager{Base: "/", Offset: at, Size: gamesPage, Total: total}
		if at == 0 {
			done, total, err := s.store.MyFinished(u.ID, models.HistoryFilter{}, 0, recentFinished)
			if err != nil {
				return vm, err
			}
			games = append(games, done...)
			vm.MoreFinished = total - len(done)
		}
	}
	if at > 0 || vm.Finished {
		vm.ListsURL = vm.Pager.At(at)
	}
	for _, g := range games {
		vm.Mine = append(vm.Mine, gameLine(lang(c), g, now, u.ID))
	}
	invitedAt := offset(c, "inv")
	invited, total, err := s.store.Invitations(u.ID, invitedAt, invitedPage)
	if err != nil {
		return vm, err
	}
	for _, g := range invited {
		vm.Invited = append(vm.Invited, gameLine(lang(c), g, now, u.ID))
	}
	vm.InvitedPager = views.Pager{Base: "/", Param: "inv", Offset: invitedAt, Size: invitedPage, Total: total}
	if invitedAt > 0 {
		vm.ListsURL = vm.InvitedPager.At(invitedAt)
	}
	if u.Guest {
		return vm, nil // a guest joins no public table: no list of them
	}
	openAt := offset(c, "open")
	open, total, err := s.store.OpenGames(u.ID, openAt, openPage)
	if err != nil {
		return vm, err
	}
	for _, g := range open {
		vm.Open = append(vm.Open, gameLine(lang(c), g, now, u.ID))
	}
	if err := s.rateLines(c, vm.Open, open); err != nil {
		return vm, err
	}
	vm.OpenPager = views.Pager{Base: "/", Param: "open", Offset: openAt, Size: openPage, Total: total}
	if openAt > 0 {
		vm.ListsURL = vm.OpenPager.At(openAt)
	}
	return vm, nil
}

// homeEvents streams changes of the viewer's games and of the open games
// (SSE) to an open home page.
func (s *Server) homeEvents(c echo.Context) error {
	topics := []string{live.User(currentUser(c).ID), live.Lobby}
	return s.stream(c, topics, nil, func() (int, []int, error) { return s.live.Version(topics...), nil, nil })
}

// gameLine is a game in a list, for viewer (0: nobody signed in).
func gameLine(l *i18n.Lang, g models.GameSummary, now time.Time, viewer uint) views.GameLine {
	gl := views.GameLine{ID: g.Game.ID, Status: g.Game.Status, WaitingOnMe: g.WaitingOnMe, TurnLimit: views.TurnLimitText(l, g.Game.TurnHours), ChatUnread: g.ChatUnread,
		Resigned: g.Resigned, Aborted: g.Game.Aborted}
	for _, seat := range g.Seats {
		if seat.UserID != nil && *seat.UserID == g.Game.CreatorID {
			gl.Creator = seatName(l, seat)
		}
	}
	if g.WaitingOnMe && g.Deadline != nil {
		gl.TimeLeft = views.TimeLeft(l, g.Deadline.Sub(now))
	}
	if g.Game.Status == models.StatusFinished && g.Game.Scored {
		for _, seat := range g.Seats {
			if seat.Place == 1 {
				gl.Winners = append(gl.Winners, seatName(l, seat))
			}
			if p := seat.Player(); p != nil && *p == viewer {
				gl.Place, gl.Score = seat.Place, seat.Score
				gl.RatedFrom, gl.RatedTo = seat.RatedFrom, seat.RatedTo
			}
		}
	}
	for _, seat := range g.Seats {
		if seat.FreeFor(viewer) {
			gl.Free++
		}
		if seat.Open() {
			gl.Open++
			gl.Players = append(gl.Players, views.PlayerRef{Text: views.OpenSeatShort(l, seat.InvitedID != nil)})
		} else {
			gl.Players = append(gl.Players, views.PlayerRef{Text: seatName(l, seat), User: seatUser(seat)})
		}
		if seat.WaitingSince != nil && g.Game.Status == models.StatusActive && (seat.UserID == nil || *seat.UserID != viewer) {
			gl.WaitingOn = append(gl.WaitingOn, seatName(l, seat))
		}
	}
	return gl
}

// seatName is seat's name as shown in l (views.SeatName).
func seatName(l *i18n.Lang, seat models.Seat) string {
	return views.SeatName(l, seat.Name, seat.Bot, views.MarkOf(seat.Guest, seat.Robot))
}

// seatUser is the username of the player of seat, for a link to their
// profile ("" for a bot or a deleted account).
func seatUser(seat models.Seat) string {
	if seat.Player() == nil {
		return ""
	}
	return seat.Name
}

// createGame takes the form's seat choices ("open", a bot name, "invite"
// with the username in the matching invite field, or "none") and the time
// per turn.
func (s *Server) createGame(c echo.Context) error {
	u := currentUser(c)
	form, err := c.FormParams()
	if err != nil {
		return refusal(http.StatusBadRequest, "the form could not be read")
	}
	spec := models.GameSpec{FormKey: c.FormValue("form_key")}
	invites := form["invite"]
	for i, v := range form["seat"] {
		switch v {
		case "none":
		case "invite":
			name := ""
			if i < len(invites) {
				name = strings.TrimSpace(invites[i])
			}
			if name == "" {
				return s.refuseHome(c, u, sentence(c, "write the username of the player to invite"))
			}
			spec.Seats = append(spec.Seats, "@"+name)
		default:
			spec.Seats = append(spec.Seats, v)
		}
	}
	if h := form.Get("turn_hours"); h != "" {
		if spec.TurnHours, err = strconv.Atoi(h); err != nil {
			spec.TurnHours = -1
		}
	}
	spec.Private = form.Get("private") != ""
	spec.StandIn = form.Get("stand_in")
	if spec.StandIn != "" && !slices.Contains(autoplay.Levels(), spec.StandIn) {
		// The store seats older kinds too; a player chooses among the levels.
		_, msg := status(lang(c), models.ErrBadStandIn)
		return s.refuseHome(c, u, msg)
	}
	if id, err := s.store.FormGame(u.ID, spec.FormKey); err != nil || id != 0 {
		return s.toFormGame(c, id, err)
	}
	// A game refused by the store (an unknown player invited) has taken
	// its try all the same: the limit is taken before the work.
	if err := s.takeNewGame(c, u); err != nil {
		return s.refuseHomeFor(c, u, err)
	}
	g, err := s.store.CreateGame(u, spec)
	if err != nil {
		code, msg := status(lang(c), err)
		if code != http.StatusUnprocessableEntity {
			return err
		}
		return s.refuseHome(c, u, msg)
	}
	if _, err := s.bots.Bots(g.ID, nil); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/games/%d", g.ID))
}

// newFormKey is the key of a form that makes a table
// (models.GameSpec.FormKey).
func newFormKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand does not fail
	return hex.EncodeToString(b[:])
}

// toFormGame goes to game id, made already from the form sent again (a
// double click): it takes none of the player's games in a row.
func (s *Server) toFormGame(c echo.Context, id uint, err error) error {
	if err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/games/%d", id))
}

// takeNewGame takes, before u opens a game (a table, a rematch), one of
// their address's guests' games when u is a guest (guestGamesKey), then
// one of u's games in a row (creationKey; every one when the site sets no
// limit); a spent one refuses the game with how long until the next
// (errSpent).
func (s *Server) takeNewGame(c echo.Context, u *models.User) error {
	if u.Guest {
		if d := s.take(c, guestGamesKey(c.RealIP())); d > 0 {
			return &errSpent{wait: d, of: spentGuests}
		}
	}
	perHour := s.cfg.GamesPerHour
	if perHour == 0 {
		perHour = 20
	}
	if perHour < 0 {
		return nil
	}
	if d := s.take(c, creationKey(u.ID, perHour)); d > 0 {
		return &errSpent{wait: d, of: spentGames}
	}
	return nil
}

// refuseHomeFor shows the home page again with err's refusal (status).
func (s *Server) refuseHomeFor(c echo.Context, u *models.User, err error) error {
	return refused(c, err, func(code int, msg string) error { return s.refuseHomeWith(c, u, code, msg) })
}

// refuseHome shows the home page again with why the form was refused.
func (s *Server) refuseHome(c echo.Context, u *models.User, msg string) error {
	return s.refuseHomeWith(c, u, http.StatusUnprocessableEntity, msg)
}

// refuseHomeWith is refuseHome with another status.
func (s *Server) refuseHomeWith(c echo.Context, u *models.User, code int, msg string) error {
	vm, err := s.homeVM(c, u)
	if err != nil {
		return err
	}
	vm.Error = msg
	return render(c, code, views.HomePage(vm))
}

// declineGame gives up the seat a game keeps for the viewer.
func (s *Server) declineGame(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	if err := s.store.Decline(id, currentUser(c)); err != nil {
		return err
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "You declined the invitation to game %d.", int(id)))
	return redirect(c, "/")
}

// declineAll declines every invitation the viewer has.
func (s *Server) declineAll(c echo.Context) error {
	n, err := s.store.DeclineAll(currentUser(c))
	if err != nil {
		return err
	}
	s.sessions.Put(c.Request().Context(), "flash", lang(c).N("You declined %d invitation.", "You declined %d invitations.", n, n))
	return redirect(c, "/")
}

// blockSender declines the viewer's invitation to a game and blocks the
// player who sent it (models.Store.BlockSender).
func (s *Server) blockSender(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	name, err := s.store.BlockSender(currentUser(c), id)
	if err != nil {
		return err
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "You declined the invitation to game %d; %s can no longer invite you (Settings undo this).", int(id), name))
	return redirect(c, "/")
}

func (s *Server) joinGame(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	g, err := s.store.Join(id, "", currentUser(c))
	if err != nil {
		return err
	}
	if _, err := s.bots.Bots(g.ID, nil); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/games/%d", g.ID))
}

func (s *Server) joinForm(c echo.Context) error {
	g, err := s.store.GameByInvite(c.Param("token"))
	if err != nil {
		return err
	}
	guest := views.GuestJoin{Offer: guestMayJoin(g)}
	if u := currentUser(c); u != nil && u.Guest && !guest.Offer && !keptFor(g, u.ID) {
		_, guest.Refused = status(lang(c), models.ErrGuestPublic)
	}
	return s.renderJoin(c, http.StatusOK, g, guest)
}

// renderJoin shows the invitation page of g, with what it offers a
// visitor about playing as a guest.
func (s *Server) renderJoin(c echo.Context, code int, g *models.Game, guest views.GuestJoin) error {
	var viewer uint
	if u := currentUser(c); u != nil {
		viewer = u.ID
	}
	line := gameLine(lang(c), models.GameSummary{Game: *g, Seats: g.Seats}, s.store.Clock(), viewer)
	inviter := ""
	for _, seat := range g.Seats {
		if seat.UserID != nil && *seat.UserID == g.CreatorID {
			inviter = seatName(lang(c), seat)
		}
	}
	// A visitor who is not signed in is told who invites them to what, and
	// signing up or logging in brings them back here.
	return render(c, code, views.JoinPage(s.page(c, tr(c, "Join a game")), line, inviter, "/join/"+url.PathEscape(c.Param("token")), guest))
}

func (s *Server) joinByToken(c echo.Context) error {
	g, err := s.store.Join(0, c.Param("token"), currentUser(c))
	if err != nil {
		return err
	}
	if _, err := s.bots.Bots(g.ID, nil); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/games/%d", g.ID))
}

func gameID(c echo.Context) (uint, error) {
	id, err := strconv.ParseUint(c.Param("id"), 10, 32)
	if err != nil || id == 0 {
		return 0, models.ErrNotFound
	}
	return uint(id), nil
}

// from is the list offset asked for (0 when none or nonsense).
func from(c echo.Context) int { return offset(c, "from") }

// offset is the list offset named name in the address (0 when none or
// nonsense).
func offset(c echo.Context, name string) int {
	n, err := strconv.Atoi(c.QueryParam(name))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// cancelTable deletes the viewer's table before it starts
// (models.Store.CancelTable).
func (s *Server) cancelTable(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	if err := s.store.CancelTable(id, currentUser(c)); err != nil {
		return err
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "Game %d is cancelled.", int(id)))
	return redirect(c, "/")
}

// withdrawInvitation opens the seat of the viewer's table kept for the
// player named in the form (models.Store.WithdrawInvitation).
func (s *Server) withdrawInvitation(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	invitee, err := strconv.ParseUint(c.FormValue("user"), 10, 32)
	if err != nil {
		return refusal(http.StatusBadRequest, "the form could not be read")
	}
	if err := s.store.WithdrawInvitation(id, currentUser(c), uint(invitee)); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/games/%d", id))
}

// historyFilter reads the filter of a list of finished games at action
// (with its own query fixed) from the address.
func (s *Server) historyFilter(c echo.Context, action, fixed string) (models.HistoryFilter, views.HistoryFilter, error) {
	fv := views.HistoryFilter{Action: action, Fixed: fixed, Opponent: strings.TrimSpace(c.QueryParam("opponent"))}
	var f models.HistoryFilter
	if n, err := strconv.Atoi(c.QueryParam("players")); err == nil && n >= 2 && n <= 4 {
		f.Players, fv.Players = n, n
	}
	if r := c.QueryParam("result"); r == "won" || r == "lost" {
		f.Result, fv.Result = r, r
	}
	if fv.Opponent != "" {
		u, err := s.store.UserNamed(fv.Opponent)
		switch {
		case errors.Is(err, models.ErrNotFound):
			fv.Error = sentence(c, "nobody here is called “%s”", fv.Opponent)
			f.Opponent = math.MaxUint32 // nobody: no game
		case err != nil:
			return f, fv, err
		default:
			f.Opponent = u.ID
		}
	}
	return f, fv, nil
}
