package handlers

import (
	"math"
	"net/http"

	"github.com/labstack/echo/v4"

	"cacao/models"
	"cacao/models/rating"
	"cacao/views"
)

// profilePage is how many finished games a profile lists at once;
// chartGames, how many rated games its chart draws.
const (
	profilePage = 10
	chartGames  = 50
)

// profile is a player's profile, for anyone: their rating and its
// history, their counts and their finished games (filtered, paged). Its
// list shows a private game only to those who may open it; the rating,
// its chart and the counts, which name no game, count every game.
func (s *Server) profile(c echo.Context) error {
	u, err := s.store.UserNamed(c.Param("name"))
	if err != nil {
		return err
	}
	st, err := s.store.Stats(u.ID)
	if err != nil {
		return err
	}
	hist, err := s.store.RatingHistory(u.ID, chartGames)
	if err != nil {
		return err
	}
	f, fv, err := s.historyFilter(c, views.ProfileURL(u.Username), "")
	if err != nil {
		return err
	}
	f.Public, f.Reader = true, currentUser(c)
	games, total, err := s.store.MyFinished(u.ID, f, from(c), profilePage)
	if err != nil {
		return err
	}
	l := lang(c)
	name := u.Username
	if u.Guest {
		name = views.GuestName(l, name)
	}
	vm := views.ProfileVM{Page: s.page(c, name), Name: name, Since: u.CreatedAt, Rating: u.Rating, RatedGames: u.RatedGames,
		Provisional: rating.Provisional, Filter: fv, Pager: views.Pager{Base: fv.URL(), Offset: from(c), Size: profilePage, Total: total},
		Stats: views.ProfileStats{Finished: st.Finished, Wins: st.Wins, Places: st.Places, Resignations: st.Resignations, Timeouts: st.Timeouts,
			Average: l.Num(int(math.Round(st.AverageScore)))}}
	for _, p := range hist {
		vm.History = append(vm.History, views.RatingPoint{At: p.At, Rating: p.To})
	}
	now := s.store.Clock()
	for _, g := range games {
		vm.Games = append(vm.Games, gameLine(l, g, now, u.ID))
	}
	return render(c, http.StatusOK, views.ProfilePage(vm))
}

// ratings tells how ratings work.
func (s *Server) ratings(c echo.Context) error {
	return render(c, http.StatusOK, views.RatingsPage(s.page(c, tr(c, "How ratings work")), rating.Provisional, models.MinRatedTurns))
}

// rateLines shows, beside each player of lines (made by gameLine from
// games, a player per seat), their rating.
func (s *Server) rateLines(c echo.Context, lines []views.GameLine, games []models.GameSummary) error {
	var ids []uint
	for _, g := range games {
		for _, seat := range g.Seats {
			if seat.UserID != nil {
				ids = append(ids, *seat.UserID)
			}
		}
	}
	users, err := s.store.Ratings(ids)
	if err != nil {
		return err
	}
	for i, g := range games {
		for j, seat := range g.Seats {
			if seat.UserID == nil {
				continue
			}
			if u, ok := users[*seat.UserID]; ok {
				lines[i].Players[j].Rating = views.RatingText(lang(c), u.Rating, u.RatedGames, rating.Provisional)
			}
		}
	}
	return nil
}
