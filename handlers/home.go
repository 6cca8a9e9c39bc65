package handlers

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"cacao/engine/bot"
	"cacao/models"
	"cacao/views"
)

func (s *Server) home(c echo.Context) error {
	u := currentUser(c)
	if u == nil {
		return render(c, http.StatusOK, views.LandingPage(s.page(c, "Welcome")))
	}
	vm, err := s.homeVM(c, u)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.HomePage(vm))
}

func (s *Server) homeVM(c echo.Context, u *models.User) (views.HomeVM, error) {
	vm := views.HomeVM{Page: s.page(c, "My games"), BotNames: bot.Names()}
	mine, err := s.store.MyGames(u.ID)
	if err != nil {
		return vm, err
	}
	for _, g := range mine {
		vm.Mine = append(vm.Mine, gameLine(g))
	}
	open, err := s.store.OpenGames()
	if err != nil {
		return vm, err
	}
	for _, g := range open {
		if seatOf(g.Seats, u.ID) < 0 {
			vm.Open = append(vm.Open, gameLine(g))
		}
	}
	return vm, nil
}

func seatOf(seats []models.Seat, uid uint) int {
	for i, s := range seats {
		if s.UserID != nil && *s.UserID == uid {
			return i
		}
	}
	return -1
}

func gameLine(g models.GameSummary) views.GameLine {
	gl := views.GameLine{ID: g.Game.ID, Status: g.Game.Status, WaitingOnMe: g.WaitingOnMe}
	for _, seat := range g.Seats {
		if seat.Open() {
			gl.Open++
			gl.Players = append(gl.Players, "(open)")
		} else {
			gl.Players = append(gl.Players, seat.Name)
		}
	}
	return gl
}

// createGame takes the form's seat choices: "open", a bot name, or "none".
func (s *Server) createGame(c echo.Context) error {
	u := currentUser(c)
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "the form could not be read")
	}
	var others []string
	for _, v := range form["seat"] {
		if v != "none" {
			others = append(others, v)
		}
	}
	g, err := s.store.CreateGame(u, others)
	if err != nil {
		code, msg := status(err)
		if code != http.StatusUnprocessableEntity {
			return err
		}
		vm, verr := s.homeVM(c, u)
		if verr != nil {
			return verr
		}
		vm.Error = msg
		return render(c, code, views.HomePage(vm))
	}
	if err := s.store.DriveBots(g.ID); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/games/%d", g.ID))
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
	if err := s.store.DriveBots(g.ID); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/games/%d", g.ID))
}

func (s *Server) joinForm(c echo.Context) error {
	g, err := s.store.GameByInvite(c.Param("token"))
	if err != nil {
		return err
	}
	line := gameLine(models.GameSummary{Game: *g, Seats: g.Seats})
	return render(c, http.StatusOK, views.JoinPage(s.page(c, "Join a game"), line))
}

func (s *Server) joinByToken(c echo.Context) error {
	g, err := s.store.Join(0, c.Param("token"), currentUser(c))
	if err != nil {
		return err
	}
	if err := s.store.DriveBots(g.ID); err != nil {
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

func (s *Server) notifications(c echo.Context) error {
	u := currentUser(c)
	ns, _, err := s.store.Notifications(u.ID, 100)
	if err != nil {
		return err
	}
	if err := s.store.MarkRead(u.ID); err != nil {
		return err
	}
	var lines []views.NotificationLine
	for _, n := range ns {
		lines = append(lines, views.NotificationLine{Text: n.Text, GameID: n.GameID, Unread: !n.Read, At: n.CreatedAt})
	}
	return render(c, http.StatusOK, views.NotificationsPage(s.page(c, "Notifications"), lines))
}

// next sends the player to the game that has waited longest on them.
func (s *Server) next(c echo.Context) error {
	games, err := s.store.MyGames(currentUser(c).ID)
	if err != nil {
		return err
	}
	if len(games) > 0 && games[0].WaitingOnMe {
		return redirect(c, fmt.Sprintf("/games/%d", games[0].Game.ID))
	}
	s.sessions.Put(c.Request().Context(), "flash", "No game is waiting for you.")
	return redirect(c, "/")
}
