package handlers

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"cacao/views"
)

// notifications lists the viewer's newest notifications and marks them read.
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
		text := views.NoticeText(lang(c), n.Text, n.Format, n.NoteArgs())
		lines = append(lines, views.NotificationLine{Text: text, GameID: n.GameID, Unread: !n.Read, At: n.CreatedAt})
	}
	return render(c, http.StatusOK, views.NotificationsPage(s.page(c, tr(c, "Notifications")), lines))
}

// next sends the player to the game that has waited longest on them.
func (s *Server) next(c echo.Context) error {
	games, _, err := s.store.MyGames(currentUser(c).ID, 0, 1)
	if err != nil {
		return err
	}
	if len(games) > 0 && games[0].WaitingOnMe {
		return redirect(c, fmt.Sprintf("/games/%d", games[0].Game.ID))
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "No game is waiting for you."))
	return redirect(c, "/")
}
