package handlers

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"cacao/views"
)

// noticesPage is how many notifications a page lists.
const noticesPage = 100

// notifications lists the viewer's notifications, newest first, a page at
// a time. Reading them changes nothing (a prefetch or a look at the page
// is no answer): opening a game reads its notices, and "Mark all read"
// (markRead) the rest.
func (s *Server) notifications(c echo.Context) error {
	u := currentUser(c)
	at := from(c)
	ns, _, err := s.store.Notifications(u.ID, at, noticesPage)
	if err != nil {
		return err
	}
	total, err := s.store.CountNotifications(u.ID)
	if err != nil {
		return err
	}
	newest := ns
	if at > 0 {
		if newest, _, err = s.store.Notifications(u.ID, 0, 1); err != nil {
			return err
		}
	}
	var upTo uint
	if len(newest) > 0 {
		upTo = newest[0].ID
	}
	var lines []views.NotificationLine
	for _, n := range ns {
		text := views.NoticeText(lang(c), n.Text, n.Format, n.NoteArgs())
		line := views.NotificationLine{Text: text, GameID: n.GameID, Unread: !n.Read, At: n.CreatedAt}
		if n.GameID == 0 {
			line.Page = n.Kind.Page()
		}
		lines = append(lines, line)
	}
	pager := views.Pager{Base: "/notifications", Offset: at, Size: noticesPage, Total: total}
	return render(c, http.StatusOK, views.NotificationsPage(s.page(c, tr(c, "Notifications")), lines, pager, upTo))
}

// markRead marks the viewer's notifications read, up to the newest the
// page showed them (upto).
func (s *Server) markRead(c echo.Context) error {
	upTo, err := strconv.ParseUint(c.FormValue("upto"), 10, 64)
	if err != nil {
		return refusal(http.StatusBadRequest, "the form could not be read")
	}
	if err := s.store.MarkRead(currentUser(c).ID, uint(upTo)); err != nil {
		return err
	}
	return redirect(c, "/notifications")
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
