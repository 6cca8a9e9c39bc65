package views

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/url"
	"strings"

	"github.com/a-h/templ"

	"cacao/views/i18n"
)

// PlayerRef is a player named in a list: the text shown, the username
// its profile is under ("" for a bot, an open seat or a deleted account)
// and their rating ("" when not shown).
type PlayerRef struct {
	Text, User, Rating string
}

// ProfileURL is the address of username's profile.
func ProfileURL(username string) string { return "/users/" + url.PathEscape(username) }

// playersMark stands for the list of players in a translated sentence
// that names them, to be cut around (see around).
const playersMark = "\uE000"

// around cuts a translated sentence made with playersMark in the players'
// place into what comes before and after the list.
func around(sentence string) (string, string) {
	before, after, _ := strings.Cut(sentence, playersMark)
	return before, after
}

// RatingText is a rating as shown: rounded, marked "?" while it rests on
// fewer than provisional games.
func RatingText(l *i18n.Lang, r float64, games, provisional int) string {
	n := l.Num(int(math.Round(r)))
	if games < provisional {
		return l.T("%s?", n)
	}
	return n
}

// RatingChange is a rating's change in a game, signed ("+12", "−8").
func RatingChange(l *i18n.Lang, from, to float64) string {
	return l.Signed(int(math.Round(to - from)))
}

// HistoryFilter is the form that narrows a list of finished games, as
// filled in: the list's address (Action, with Fixed, its own query, such
// as "finished=all"), an opponent's name, a number of players (0: any)
// and a result ("won", "lost", "" either).
type HistoryFilter struct {
	Action, Fixed string
	Opponent      string
	Players       int
	Result        string
	Error         string // an opponent nobody is called
}

// URL is the list's address with the filter.
func (f HistoryFilter) URL() string {
	q := url.Values{}
	if f.Opponent != "" {
		q.Set("opponent", f.Opponent)
	}
	if f.Players != 0 {
		q.Set("players", fmt.Sprint(f.Players))
	}
	if f.Result != "" {
		q.Set("result", f.Result)
	}
	u := f.Action
	if s := strings.Trim(f.Fixed+"&"+q.Encode(), "&"); s != "" {
		u += "?" + s
	}
	return u
}

// cutQuery splits "k=v".
func cutQuery(q string) (string, string, bool) { return strings.Cut(q, "=") }

// playerList names the players of a game, each linked to their profile,
// with their rating when shown. (Written here, not in a template: the
// names and their commas sit in a sentence, with no space between.)
func playerList(ps []PlayerRef) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		var b strings.Builder
		for i, p := range ps {
			if i > 0 {
				b.WriteString(templ.EscapeString(t(ctx, ", ")))
			}
			if p.User != "" {
				fmt.Fprintf(&b, `<a href="%s">%s</a>`, templ.EscapeString(ProfileURL(p.User)), templ.EscapeString(p.Text))
			} else {
				b.WriteString(templ.EscapeString(p.Text))
			}
			if p.Rating != "" {
				fmt.Fprintf(&b, ` <span class="rating">%s</span>`, templ.EscapeString(t(ctx, "(%s)", p.Rating)))
			}
		}
		_, err := io.WriteString(w, b.String())
		return err
	})
}

// withPlayers is a translated sentence made with playersMark in the
// place of a game's players, the players linked.
func withPlayers(sentence string, ps []PlayerRef) templ.Component {
	before, after := around(sentence)
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		if _, err := io.WriteString(w, templ.EscapeString(before)); err != nil {
			return err
		}
		if err := playerList(ps).Render(ctx, w); err != nil {
			return err
		}
		_, err := io.WriteString(w, templ.EscapeString(after))
		return err
	})
}

// WatchVM is the list of public games being played.
type WatchVM struct {
	Page
	Games []GameLine
	Pager Pager
}
