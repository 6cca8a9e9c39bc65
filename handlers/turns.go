package handlers

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"cacao/engine"
	"cacao/models"
	"cacao/views"
)

// showTurn is a game as it was after its first n log entries
// (/games/ID/turns/N): while it runs a player sees their own hand as it
// was, anyone else no hand; once it is over, every hand.
func (s *Server) showTurn(c echo.Context) error {
	l, err := s.loadGame(c)
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil {
		return models.ErrNotFound
	}
	at, err := l.At(n)
	if err != nil {
		return err
	}
	seat := -1
	if u := currentUser(c); u != nil {
		seat = l.SeatOf(u.ID)
	}
	over := l.Game.Status == models.StatusFinished || l.Game.Status == models.StatusEnded
	vm := s.replayVM(c, at, len(l.Log), seat, over, tr(c, "Game %d", int(l.Game.ID)))
	vm.Game.ID, vm.Base = l.Game.ID, fmt.Sprintf("/games/%d/turns/", l.Game.ID)
	vm.Game.Log = linkTurns(vm.Game.Log, l.Game.ID, 0)
	if n > 0 {
		vm.Game.Log[n-1].Current = true
	}
	card, ok, err := s.turnReviewCard(c, l, n)
	if err != nil {
		return err
	}
	if ok {
		vm.Review = &card
	}
	return render(c, http.StatusOK, views.ReplayPage(vm))
}

// replayVM shows at (a game stepped to its len(at.Log)-th of last log
// entries) to the player of seat (-1: someone else), with every hand when
// all.
func (s *Server) replayVM(c echo.Context, at *models.Loaded, last, seat int, all bool, title string) views.ReplayVM {
	lg := lang(c)
	st := at.Play.State()
	viewer := engine.Spectator
	if !all && seat >= 0 {
		viewer = seat
	}
	v := st.View(viewer)
	step := len(at.Log)
	game := views.GameVM{Page: s.page(c, title), View: v, Me: -1, Status: at.Game.Status, LogLen: len(at.Events), Arrived: arrived(at.Events, len(at.Seats))}
	for i, seat := range at.Seats {
		game.Seats = append(game.Seats, views.Seat{Index: i, Name: seatName(lg, seat), User: seatUser(seat), Letter: views.Letters[i], Bot: seat.Bot, Village: v.Seats[i]})
	}
	game.Log = logLines(lg, at.Events, game.Names())
	vm := views.ReplayVM{Game: game, Step: step, Last: last}
	for i := range at.Seats {
		if all || i == viewer {
			vm.Hands = append(vm.Hands, views.ReplayHand{Seat: i, Name: game.Seats[i].Name, Tiles: st.Player(i).HandTiles()})
		}
	}
	return vm
}

// recordMax bounds a record sent to be stepped through: with its step
// form it stays within what the site reads of a request (64 KB).
const recordMax = 24 << 10

// recordForm asks for a record to step through.
func (s *Server) recordForm(c echo.Context) error {
	return render(c, http.StatusOK, views.RecordForm(s.page(c, tr(c, "View a record")), "", recordMax))
}

// viewRecord steps through a record sent as a file or as text (its step
// in ?step, the start at first), without keeping it. A file that is not
// a record, or a turn that cannot be played, is told as `cacao replay`
// tells it.
func (s *Server) viewRecord(c echo.Context) error {
	text := c.FormValue("record")
	if fh, err := c.FormFile("file"); err == nil {
		f, err := fh.Open()
		if err != nil {
			return err
		}
		defer f.Close()
		data, err := io.ReadAll(io.LimitReader(f, recordMax+1))
		if err != nil {
			return err
		}
		text = string(data)
	}
	text = strings.TrimSpace(text)
	refuse := func(msg string) error {
		return render(c, http.StatusUnprocessableEntity, views.RecordForm(s.page(c, tr(c, "View a record")), msg, recordMax))
	}
	switch {
	case text == "":
		return refuse(tr(c, "Choose a record file, or paste a record's text."))
	case len(text) > recordMax:
		return refuse(tr(c, "A record has at most %d KB.", recordMax/1024))
	}
	rec, err := engine.DecodeRecord([]byte(text))
	var l *models.Loaded
	if err == nil {
		l, err = models.FromRecord(rec)
	}
	var re *engine.RecordError
	var te *engine.TurnError
	switch {
	case errors.As(err, &re):
		return refuse(tr(c, "This is not a game record: %s", re.Reason))
	case errors.As(err, &te):
		return refuse(tr(c, "Turn %d of the record cannot be played: %s", te.Turn+1, te.Reason))
	case err != nil:
		return err
	}
	step, _ := strconv.Atoi(c.FormValue("step"))
	at, err := l.At(min(max(step, 0), len(l.Log)))
	if err != nil {
		return err
	}
	vm := s.replayVM(c, at, len(l.Log), -1, true, tr(c, "A record of %d players", len(l.Seats)))
	vm.Record = text
	return render(c, http.StatusOK, views.ReplayPage(vm))
}
