package handlers

import (
	"math"
	"net/http"

	"github.com/labstack/echo/v4"

	"cacao/engine/bot"
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
	var ratings [2]views.ProfileRating
	for i, f := range []models.Format{models.TwoPlayers, models.MorePlayers} {
		r, games, _ := u.RatingIn(f)
		ratings[i] = views.ProfileRating{More: f == models.MorePlayers, Rating: r.R, RatedGames: games}
		if ratings[i].Place, err = s.store.BoardPlace(u, f); err != nil {
			return err
		}
		hist, err := s.store.RatingHistory(u.ID, f, chartGames)
		if err != nil {
			return err
		}
		for _, p := range hist {
			ratings[i].History = append(ratings[i].History, views.RatingPoint{At: p.At, Rating: p.To})
		}
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
	name := views.Marked(l, u.Username, views.MarkOf(u.Guest, u.BotAccount))
	vm := views.ProfileVM{Page: s.page(c, name), Name: name, User: u.Username, Since: u.CreatedAt, Ratings: ratings, Bot: u.BotAccount,
		Provisional: rating.Provisional, Filter: fv, Pager: views.Pager{Base: fv.URL(), Offset: from(c), Size: profilePage, Total: total},
		Stats: views.ProfileStats{Finished: st.Finished, Wins: st.Wins, Places: st.Places, Resignations: st.Resignations, Timeouts: st.Timeouts,
			Average: l.Num(int(math.Round(st.AverageScore)))}}
	if reader := currentUser(c); reader != nil && reader.ID != u.ID && !reader.Guest && !u.Guest {
		vm.CanFollow, vm.FormKey = true, newFormKey()
		if vm.Following, err = s.store.Follows(reader.ID, u.ID); err != nil {
			return err
		}
		if vm.Following {
			seen, err := s.store.LastSeen(u)
			if err != nil {
				return err
			}
			vm.LastSeen = views.LastSeenText(c.Request().Context(), seen)
		}
	}
	now := s.store.Clock()
	for _, g := range games {
		vm.Games = append(vm.Games, gameLine(l, g, now, u.ID))
	}
	return render(c, http.StatusOK, views.ProfilePage(vm))
}

// boardPage is how many players a page of a leaderboard lists.
const boardPage = 50

// ratings is a format's leaderboard (?format=3-4: of games of three or
// four; else of two), a page at a time, the provisional ratings apart, and
// the viewer's place; then how ratings work.
func (s *Server) ratings(c echo.Context) error {
	f, base := models.TwoPlayers, "/ratings"
	switch c.QueryParam("format") {
	case "", "2":
	case "3-4":
		f, base = models.MorePlayers, "/ratings?format=3-4"
	default:
		return refusal(http.StatusBadRequest, "choose the leaderboard of games of two, or of three or four")
	}
	at, pat := from(c), offset(c, "pfrom")
	leaders, total, err := s.store.Leaderboard(f, false, at, boardPage)
	if err != nil {
		return err
	}
	prov, provTotal, err := s.store.Leaderboard(f, true, pat, boardPage)
	if err != nil {
		return err
	}
	l := lang(c)
	vm := views.LeaderboardVM{Page: s.page(c, l.T("Leaderboard")), More: f == models.MorePlayers, Of: total, ProvTotal: provTotal,
		Pager:     views.Pager{Base: base, Offset: at, Size: boardPage, Total: total},
		ProvPager: views.Pager{Base: base, Param: "pfrom", Offset: pat, Size: boardPage, Total: provTotal},
		Needed:    rating.Provisional, MinTurns: models.MinRatedTurns, ActiveDays: int(models.BoardActive.Hours() / 24)}
	u := currentUser(c)
	if u != nil {
		if vm.Place, err = s.store.BoardPlace(u, f); err != nil {
			return err
		}
	}
	if vm.Leaders, err = s.leaderLines(c, f, false, leaders, at); err != nil {
		return err
	}
	if vm.Provisional, err = s.leaderLines(c, f, true, prov, pat); err != nil {
		return err
	}
	bots, err := s.store.BotRatings(f)
	if err != nil {
		return err
	}
	for _, level := range bot.Levels() {
		if r, ok := bots[level]; ok {
			vm.Bots = append(vm.Bots, views.BotLine{Name: views.BotName(l, level), Rating: views.RatingText(l, r.Rating, r.Games, rating.Provisional), Games: r.Games})
		}
	}
	accounts, err := s.store.RatedBots(f)
	if err != nil {
		return err
	}
	for _, a := range accounts {
		vm.Bots = append(vm.Bots, views.BotLine{Name: views.BotAccountName(l, a.Name), User: a.Name, Rating: views.RatingText(l, a.Rating, a.Games, rating.Provisional), Games: a.Games})
	}
	return render(c, http.StatusOK, views.LeaderboardPage(vm))
}

// leaderLines are the lines of a page of a leaderboard that starts offset
// places down, each with its place: a tie shares one, also with the page
// before.
func (s *Server) leaderLines(c echo.Context, f models.Format, provisional bool, ls []models.Leader, offset int) ([]views.Leader, error) {
	u, l := currentUser(c), lang(c)
	out := make([]views.Leader, len(ls))
	for i, p := range ls {
		place := offset + i + 1
		switch {
		case i > 0 && p.Rating == ls[i-1].Rating:
			place = out[i-1].Place
		case i == 0 && offset > 0:
			var err error
			if place, err = s.store.BoardRank(f, provisional, p.Rating); err != nil {
				return nil, err
			}
		}
		out[i] = views.Leader{Place: place, Name: p.Name, Rating: views.RatingText(l, p.Rating, p.Games, rating.Provisional), Games: p.Games,
			Me: u != nil && p.Name == u.Username}
	}
	return out, nil
}

// rateLines shows, beside each player of lines (made by gameLine from
// games, a player per seat), their rating, and beside a bot its level's.
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
	var bots [2]map[string]models.BotRating // by format, read once some bot level is seated
	for i, g := range games {
		for j, seat := range g.Seats {
			if level := models.BotLevel(seat.Bot); level != "" {
				f := models.FormatOf(g.Game.NumPlayers)
				if bots[f] == nil {
					if bots[f], err = s.store.BotRatings(f); err != nil {
						return err
					}
				}
				if r, ok := bots[f][level]; ok {
					lines[i].Players[j].Rating = views.RatingText(lang(c), r.Rating, r.Games, rating.Provisional)
				}
			}
			if seat.UserID == nil {
				continue
			}
			if u, ok := users[*seat.UserID]; ok {
				r, games, _ := u.RatingIn(models.FormatOf(g.Game.NumPlayers))
				lines[i].Players[j].Rating = views.RatingText(lang(c), r.R, games, rating.Provisional)
			}
		}
	}
	return nil
}
