package handlers

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"cacao/models"
	"cacao/views"
)

// adminPage is how many lines an admin list shows at once.
const adminPage = 50

// adminRoutes are the admin pages: only admins reach them (others get a
// plain "not found", as for an address that does not exist).
func (s *Server) adminRoutes(e *echo.Echo) {
	g := e.Group("/admin", s.requireUser, s.requireAdmin)
	g.GET("", func(c echo.Context) error { return redirect(c, "/admin/users") })
	g.GET("/users", s.adminUsers)
	g.GET("/users/:name", s.adminUser)
	g.POST("/users/:name/ban", s.adminBan)
	g.POST("/users/:name/unban", s.adminUnban)
	g.GET("/games", s.adminGames)
	g.POST("/games/:id/cancel", s.adminCancel)
	g.POST("/games/:id/end", s.adminEnd)
	g.GET("/audit", s.adminAudit)
	g.GET("/reports", s.adminReports)
	g.POST("/reports/:msg", s.adminModerate)
}

func (s *Server) requireAdmin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if u := currentUser(c); u == nil || !u.Admin {
			return models.ErrNotFound
		}
		return next(c)
	}
}

func (s *Server) adminUsers(c echo.Context) error {
	q := c.QueryParam("q")
	users, total, err := s.store.FindUsers(q, from(c), adminPage)
	if err != nil {
		return err
	}
	vm := views.AdminVM{Page: s.page(c, tr(c, "Users")), Query: q,
		Pager: views.Pager{Base: "/admin/users?q=" + url.QueryEscape(q), Offset: from(c), Size: adminPage, Total: total}}
	for _, u := range users {
		vm.Users = append(vm.Users, adminUser(&u))
	}
	return render(c, http.StatusOK, views.AdminUsersPage(vm))
}

func adminUser(u *models.User) views.AdminUser {
	return views.AdminUser{Name: u.Username, Since: u.CreatedAt, Admin: u.Admin, Banned: u.BannedAt != nil, BanReason: u.BanReason, Guest: u.Guest, Bot: u.BotAccount}
}

func (s *Server) adminUser(c echo.Context) error {
	u, err := s.store.UserNamed(c.Param("name"))
	if err != nil {
		return err
	}
	mine, _, err := s.store.MyGames(u.ID, 0, adminPage)
	if err != nil {
		return err
	}
	au := adminUser(u)
	for _, g := range mine {
		if g.Game.Status == models.StatusActive {
			au.Running = append(au.Running, g.Game.ID)
		}
	}
	return render(c, http.StatusOK, views.AdminUserPage(views.AdminVM{Page: s.page(c, u.Username), User: &au}))
}

// adminBan bans a user (models.Store.Ban) and lets the bots that took
// their seats play.
func (s *Server) adminBan(c echo.Context) error {
	name := c.Param("name")
	running, err := s.store.Ban(currentUser(c), name, c.FormValue("reason"))
	if err != nil {
		return err
	}
	for _, id := range running {
		if _, err := s.bots.Bots(id, nil); err != nil {
			return err
		}
	}
	return s.adminDone(c, "/admin/users/"+url.PathEscape(name), tr(c, "%s is banned.", name))
}

func (s *Server) adminUnban(c echo.Context) error {
	name := c.Param("name")
	if err := s.store.Unban(currentUser(c), name); err != nil {
		return err
	}
	return s.adminDone(c, "/admin/users/"+url.PathEscape(name), tr(c, "The ban of %s is lifted.", name))
}

func (s *Server) adminGames(c echo.Context) error {
	status := c.QueryParam("status")
	if status != models.StatusFinished && status != models.StatusEnded {
		status = ""
	}
	games, total, err := s.store.FindGames(status, from(c), adminPage)
	if err != nil {
		return err
	}
	vm := views.AdminVM{Page: s.page(c, tr(c, "Games")), Filter: status,
		Pager: views.Pager{Base: "/admin/games?status=" + status, Offset: from(c), Size: adminPage, Total: total}}
	lg, now := lang(c), s.store.Clock()
	for _, g := range games {
		line := gameLine(lg, models.GameSummary{Game: g, Seats: g.Seats, MySeat: -1}, now, 0) // as the lists show it
		game := views.AdminGame{ID: g.ID, Status: g.Status, Created: g.CreatedAt}
		for _, p := range line.Players {
			game.Players = append(game.Players, p.Text)
		}
		vm.Games = append(vm.Games, game)
	}
	return render(c, http.StatusOK, views.AdminGamesPage(vm))
}

func (s *Server) adminCancel(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	if err := s.store.AdminCancel(currentUser(c), id, c.FormValue("reason")); err != nil {
		return err
	}
	return s.adminDone(c, "/admin/games", tr(c, "Game %d is cancelled.", int(id)))
}

func (s *Server) adminEnd(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	if err := s.store.EndGame(currentUser(c), id, c.FormValue("reason")); err != nil {
		return err
	}
	return s.adminDone(c, "/admin/games", tr(c, "Game %d is ended.", int(id)))
}

func (s *Server) adminAudit(c echo.Context) error {
	lines, total, err := s.store.AuditLog(from(c), adminPage)
	if err != nil {
		return err
	}
	vm := views.AdminVM{Page: s.page(c, tr(c, "Audit log")), Pager: views.Pager{Base: "/admin/audit", Offset: from(c), Size: adminPage, Total: total}}
	for _, a := range lines {
		vm.Audit = append(vm.Audit, views.AdminAudit{At: a.CreatedAt, Admin: a.AdminName, Action: a.Action, Target: a.Target, GameID: a.GameID, Reason: a.Reason})
	}
	return render(c, http.StatusOK, views.AdminAuditPage(vm))
}

func (s *Server) adminReports(c echo.Context) error {
	reported, total, err := s.store.Reports(from(c), adminPage)
	if err != nil {
		return err
	}
	vm := views.AdminVM{Page: s.page(c, tr(c, "Reported messages")), Pager: views.Pager{Base: "/admin/reports", Offset: from(c), Size: adminPage, Total: total}}
	for _, r := range reported {
		vm.Reports = append(vm.Reports, views.AdminReport{ID: r.ID, GameID: r.GameID, Name: r.Name, Text: r.Text, At: r.CreatedAt, Reports: r.Reports})
	}
	return render(c, http.StatusOK, views.AdminReportsPage(vm))
}

// adminModerate hides a reported message (action=hide) or keeps it.
func (s *Server) adminModerate(c echo.Context) error {
	id, err := strconv.ParseUint(c.Param("msg"), 10, 64)
	if err != nil {
		return models.ErrNotFound
	}
	hide := c.FormValue("action") == "hide"
	if err := s.store.Moderate(currentUser(c), uint(id), hide); err != nil {
		return err
	}
	if hide {
		return s.adminDone(c, "/admin/reports", tr(c, "The message is hidden."))
	}
	return s.adminDone(c, "/admin/reports", tr(c, "The message is kept."))
}

// adminDone tells the admin what was done, on the page at to.
func (s *Server) adminDone(c echo.Context, to, msg string) error {
	s.sessions.Put(c.Request().Context(), "flash", msg)
	return redirect(c, to)
}
