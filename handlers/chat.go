package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"cacao/models"
	"cacao/views"
)

// chatVM is the chat of l for the signed-in viewer: the page of messages
// before before (0: the newest). Reading it marks it read for them.
func (s *Server) chatVM(c echo.Context, l *models.Loaded, before uint) (views.ChatVM, error) {
	u := currentUser(c)
	vm := views.ChatVM{GameID: l.Game.ID, Before: before, Max: models.ChatMaxLength}
	vm.CSRF, _ = c.Get("csrf").(string)
	if u == nil {
		u = &models.User{} // a watcher not signed in: reads, writes nothing
	}
	unread := false
	for _, seat := range l.Seats {
		if seat.UserID != nil && *seat.UserID == u.ID {
			vm.Write, vm.Mute, vm.Muted = true, true, seat.ChatMuted
			unread = seat.ChatUnread > 0
		}
		if seat.ResignedID != nil && *seat.ResignedID == u.ID {
			vm.Write = true
		}
	}
	if vm.Muted || l.Game.LastChat == 0 {
		return vm, nil
	}
	msgs, more, err := s.store.Chat(l.Game.ID, before)
	if err != nil {
		return vm, err
	}
	marks := map[uint]views.Mark{} // a message is written from a seat: its mark is the seat's
	for _, seat := range l.Seats {
		if p := seat.Player(); p != nil {
			marks[*p] = views.MarkOf(seat.Guest, seat.Robot)
		}
	}
	for _, m := range msgs {
		name := views.Marked(lang(c), m.Name, marks[m.UserID])
		vm.Lines = append(vm.Lines, views.ChatLine{ID: m.ID, Name: name, Text: m.Text, At: m.CreatedAt, Mine: m.UserID == u.ID, Hidden: m.Hidden})
		vm.Version = max(vm.Version, m.ID)
	}
	if more && len(msgs) > 0 {
		vm.Earlier = msgs[0].ID
	}
	if before == 0 && unread && !pageHidden(c) { // a write only when there is something to read, and someone reads it
		if err := s.store.ReadChat(u.ID, l.Game.ID); err != nil {
			return vm, err
		}
	}
	return vm, nil
}

// showChat is a game's chat: its live refetch (htmx: the messages, those
// after ?after= read out, and the header's count), or a page of its
// messages before ?before= on its own.
func (s *Server) showChat(c echo.Context) error {
	l, err := s.loadGame(c)
	if err != nil {
		return err
	}
	before, _ := strconv.ParseUint(c.QueryParam("before"), 10, 64)
	if !isHTMX(c) {
		vm, err := s.chatVM(c, l, uint(before))
		if err != nil {
			return err
		}
		return render(c, http.StatusOK, views.ChatPage(s.page(c, tr(c, "Chat of game %d", int(l.Game.ID))), vm))
	}
	vm, err := s.chatVM(c, l, 0)
	if err != nil {
		return err
	}
	vm.Live = true
	after, _ := strconv.ParseUint(c.QueryParam("after"), 10, 64)
	for _, m := range vm.Lines {
		if m.ID > uint(after) && !m.Mine && !m.Hidden {
			vm.Announce = append(vm.Announce, tr(c, "%s says: %s", m.Name, m.Text))
		}
	}
	if u := currentUser(c); u != nil {
		if vm.Unread, err = s.store.ChatUnread(u.ID); err != nil {
			return err
		}
	}
	return render(c, http.StatusOK, views.ChatFragment(vm))
}

// say posts the viewer's message in the game's chat. With htmx the answer
// is the chat panel, the box empty and focused (a refusal keeps the text
// and says why); a plain form goes back to the game's chat, or shows the
// game page with the refusal.
func (s *Server) say(c echo.Context) error {
	l, err := s.loadGame(c)
	if err != nil {
		return err
	}
	text := c.FormValue("text")
	msg, sayErr := s.store.Say(currentUser(c), l.Game.ID, text)
	if sayErr != nil && !errors.Is(sayErr, models.ErrInvalid) {
		return sayErr
	}
	l.Game.LastChat = max(l.Game.LastChat, msg.ID) // l was read before the message
	if sayErr == nil && !isHTMX(c) {
		return redirect(c, fmt.Sprintf("/games/%d#chat", l.Game.ID))
	}
	vm, err := s.chatVM(c, l, 0)
	if err != nil {
		return err
	}
	vm.Live, vm.Focus = true, true
	code := http.StatusOK
	if sayErr != nil {
		code, vm.Error = status(lang(c), sayErr)
		vm.Draft = text
	}
	if isHTMX(c) {
		return render(c, code, views.ChatPanel(vm))
	}
	game := s.gameVM(c, l, views.Selection{})
	game.Chat = &vm
	return render(c, code, views.GamePage(game))
}

// muteChat mutes (muted=1) or shows again the game's chat for the viewer.
func (s *Server) muteChat(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	if err := s.store.MuteChat(currentUser(c).ID, id, c.FormValue("muted") == "1"); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/games/%d#chat", id))
}

// reportChat reports a message of the game's chat to the admins.
func (s *Server) reportChat(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	msg, err := strconv.ParseUint(c.FormValue("msg"), 10, 64)
	if err != nil {
		return refusal(http.StatusUnprocessableEntity, "no such message")
	}
	if err := s.store.ReportChat(currentUser(c).ID, id, uint(msg)); err != nil {
		return err
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "Thank you: the admins will read the message you reported."))
	return redirect(c, fmt.Sprintf("/games/%d#chat", id))
}

// nextChat goes to the game of the viewer's with the newest unread
// message.
func (s *Server) nextChat(c echo.Context) error {
	id, err := s.store.NextChat(currentUser(c).ID)
	if err != nil {
		return err
	}
	if id == 0 {
		s.sessions.Put(c.Request().Context(), "flash", tr(c, "No message waits unread."))
		return redirect(c, "/")
	}
	return redirect(c, fmt.Sprintf("/games/%d#chat", id))
}
