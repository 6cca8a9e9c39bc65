package views

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"cacao/engine"
	"cacao/views/i18n"
)

// The game told in words: what the handlers show of a position or a log
// that is not drawn by a template is worded here.

// SideName names a side of a tile.
func SideName(l *i18n.Lang, d engine.Side) string {
	switch d {
	case engine.N:
		return l.T("north")
	case engine.E:
		return l.T("east")
	case engine.S:
		return l.T("south")
	default:
		return l.T("west")
	}
}

// LogEntry is a log entry as it played out (the handlers' copy of the
// store's event): what was done and what every seat gained by it.
type LogEntry struct {
	Resolve   bool // a resolution of a pending batch
	Resign    bool // the seat's player resigned; else (and not Resolve, Abandon, Back) a turn
	Abandon   bool // the stand-in bot plays the seat until its player takes it back
	Back      bool // the seat's player took their abandoned seat back
	By        int  // for Abandon, the seat that handed the seat over; -1 after timeouts
	RoundEnd  bool // for Abandon, its tournament round's time was over
	Seat      int
	Turn      int
	Timeout   bool // played by the stand-in bot when the seat's time ran out
	Auto      bool // decided at once by the seat's "always decide for me" policy
	Stand     bool // played by the stand-in bot for an abandoned seat
	Placement engine.Placement
	Fills     []engine.Fill
	Gains     []engine.Gain
}

// LogLine tells one log entry in plain words; names are the seats' names.
func LogLine(l *i18n.Lang, ev LogEntry, names []string) string {
	name := names[ev.Seat]
	switch {
	case ev.Resign:
		return l.T("%s resigned: the stand-in bot plays their seat to the end.", name)
	case ev.Abandon && ev.RoundEnd:
		return l.T("The tournament round's time was over: the stand-in bot finishes %s's game.", name)
	case ev.Abandon && ev.By >= 0 && ev.By < len(names):
		return l.T("%s handed %s's seat to the stand-in bot: they had not moved for 7 days.", names[ev.By], name)
	case ev.Abandon:
		return l.T("%s ran out of time twice in a row: the stand-in bot plays their seat until they take it back.", name)
	case ev.Back:
		return l.T("%s took their seat back.", name)
	}
	if ev.Timeout {
		name = l.T("%s (out of time: the stand-in bot played)", name)
	} else if ev.Stand {
		name = l.T("%s (away: the stand-in bot played)", name)
	} else if ev.Auto {
		name = l.T("%s (decided at once, as they asked)", name)
	}
	parts := []string{}
	if ev.Resolve {
		parts = append(parts, l.T("%s chose how to use workers activated on turn %d", name, ev.Turn+1))
	} else {
		at := CellLabel(l, ev.Placement.At)
		if ev.Placement.Overbuild {
			parts = append(parts, l.T("%s overbuilt at %s", name, at))
		} else {
			parts = append(parts, l.T("%s placed a worker tile at %s", name, at))
		}
		for _, f := range ev.Fills {
			parts = append(parts, l.T("filled %s with %s", CellLabel(l, f.At), JungleName(l, f.Tile)))
		}
	}
	for _, g := range ev.Gains {
		if text := GainText(l, g); text != "" {
			parts = append(parts, l.T("%s: %s", names[g.Seat], text))
		}
	}
	return l.T("%s.", strings.Join(parts, l.T("; ")))
}

// TempleLine tells who has how many workers at a temple and what each
// would be awarded (was, once the game is over).
func TempleLine(l *i18n.Lang, t engine.TempleResult, names []string, over bool) string {
	var parts []string
	for i, w := range t.Workers {
		if w > 0 {
			parts = append(parts, l.N("%s: %d worker → %d gold", "%s: %d workers → %d gold", w, names[i], w, t.Award[i]))
		}
	}
	if len(parts) == 0 && over {
		return l.T("Temple at %s: nobody", CellLabel(l, t.At))
	}
	if len(parts) == 0 {
		return l.T("Temple at %s: nobody yet", CellLabel(l, t.At))
	}
	if !over {
		// Nothing is awarded before the end: this is the standing.
		return l.T("Temple at %s, if the game ended now: %s", CellLabel(l, t.At), strings.Join(parts, l.T("; ")))
	}
	return l.T("Temple at %s: %s", CellLabel(l, t.At), strings.Join(parts, l.T("; ")))
}

// PreviewLines tells what a move would bring each player; me is the
// viewer's seat ("you").
func PreviewLines(l *i18n.Lang, pv engine.Preview, names []string, me int) []string {
	var out []string
	for _, g := range pv.Gains {
		text := GainText(l, g)
		if text == "" {
			continue
		}
		if g.Seat == me {
			out = append(out, l.T("you: %s", text))
		} else {
			out = append(out, l.T("%s: %s", names[g.Seat], text))
		}
	}
	for _, e := range pv.Fired {
		if e.Jungle == engine.NoJungle {
			out = append(out, l.T("%s's workers on %s also face the tile from the pile, still unknown", names[e.Owner], CellLabel(l, e.Tile)))
		}
	}
	if len(out) == 0 {
		out = append(out, l.T("nobody gains anything now"))
	}
	return out
}

// FillText tells one way of filling the jungle cells a placement leaves.
func FillText(l *i18n.Lang, fs []engine.Fill) string {
	var parts []string
	for _, f := range fs {
		if f.FromPile {
			parts = append(parts, l.T("%s gets the top tile of the jungle pile", CellLabel(l, f.At)))
		} else {
			parts = append(parts, l.T("%s gets %s", CellLabel(l, f.At), JungleName(l, f.Tile)))
		}
	}
	return strings.Join(parts, l.T("; "))
}

// EdgeChoices are the viewer's fired edges as the choice form lists them.
func EdgeChoices(l *i18n.Lang, es []engine.Edge) []EdgeChoice {
	out := make([]EdgeChoice, 0, len(es))
	for i, e := range es {
		label := l.N("%d worker on %s, %s side, facing %s", "%d workers on %s, %s side, facing %s", e.Workers, e.Workers, CellLabel(l, e.Tile), SideName(l, e.Side), JungleName(l, e.Jungle))
		out = append(out, EdgeChoice{Key: EdgeKey(e.Tile, e.Side), Label: label, Workers: e.Workers, Use: e.Workers, Order: i + 1, Unknown: e.Jungle == engine.NoJungle})
	}
	return out
}

// EdgeKey names an edge in a form: "x,y,S".
func EdgeKey(tile engine.Cell, side engine.Side) string {
	return fmt.Sprintf("%d,%d,%s", tile.X, tile.Y, side)
}

// TimeLeft says how long is left before a deadline, to the hour.
func TimeLeft(l *i18n.Lang, d time.Duration) string {
	if d <= 0 {
		return l.T("time is up")
	}
	h := int((d + time.Hour - 1) / time.Hour)
	switch {
	case h >= 48:
		return l.T("%d days %d h left", h/24, h%24)
	case h > 1:
		return l.T("%d hours left", h)
	default:
		return l.T("less than an hour left")
	}
}

// TurnLimitText says a game's time per turn in a list of games.
func TurnLimitText(l *i18n.Lang, hours int) string {
	if hours == 0 {
		return l.T("no time limit")
	}
	return l.T("%s per turn", LimitName(l, hours))
}

// OpenSeatName is how a seat nobody has taken is shown at the table:
// kept for an invited player, or open.
func OpenSeatName(l *i18n.Lang, kept bool) string {
	if kept {
		return l.T("(kept for an invited player)")
	}
	return l.T("(open seat)")
}

// OpenSeatShort is OpenSeatName in a list of games.
func OpenSeatShort(l *i18n.Lang, kept bool) string {
	if kept {
		return l.T("(invited)")
	}
	return l.T("(open)")
}

// ClockText is a seat's time left, and when its clock is paused by a
// vacation, until when (vacation is the zero time when it is not).
func ClockText(l *i18n.Lang, left time.Duration, vacation time.Time) string {
	out := TimeLeft(l, left)
	if !vacation.IsZero() {
		out = l.T("%s, on vacation until %s", out, l.Date(vacation, false, false))
	}
	return out
}

// NoticeText is a stored notification or mail in the reader's language:
// its message translated, or its English text when it has none.
func NoticeText(l *i18n.Lang, text, format string, args []any) string {
	if format == "" {
		return text
	}
	if format == retiredPlaced {
		// Stored before the end notice said it otherwise; same arguments.
		return l.T("Game %d is over: you finished in place %d of %d.", args...)
	}
	// Stored before a game's stand-in could be another bot than the greedy
	// (medium) one: the same notice, worded as now.
	format = strings.ReplaceAll(format, "the greedy bot", "the stand-in bot")
	for i, a := range args {
		// A guest or a bot account named, stored {"guest": name} or
		// {"bot": name} (models' guestArg, botArg).
		if m, ok := a.(map[string]any); ok {
			if name, ok := m["guest"].(string); ok {
				args[i] = GuestName(l, name)
			}
			if name, ok := m["bot"].(string); ok {
				args[i] = BotAccountName(l, name)
			}
		}
	}
	return l.T(format, args...)
}

// retiredPlaced is the end notice's format as notices stored before it
// changed hold it.
const retiredPlaced = "Game %d is over: you placed %d of %d."

// HintText says what the hard bot found for the move it suggests.
func HintText(l *i18n.Lang, h Hint) string {
	if h.Solved {
		switch {
		case h.Won > 0.75:
			return l.T("Hint: the hard bot would play this move. Nothing is hidden any more: with the best play on both sides, it wins the game.")
		case h.Won > 0.25:
			return l.T("Hint: the hard bot would play this move. Nothing is hidden any more: with the best play on both sides, it shares first place.")
		}
		return l.T("Hint: the hard bot would play this move. Nothing is hidden any more: with the best play on both sides, it loses the game, by as little as can be.")
	}
	return l.N("Hint: the hard bot would play this move. It tried it in %d practice game played to the end, and won %d%% of it.",
		"Hint: the hard bot would play this move. It tried it in %d practice games played to the end, and won %d%% of them.",
		h.Games, h.Games, int(h.Won*100+0.5))
}

// BotName names a bot kind for players.
func BotName(l *i18n.Lang, kind string) string {
	switch kind {
	case "easy":
		return l.T("easy bot")
	case "medium", "greedy": // the same bot: "greedy" is its name in games seated before the levels
		return l.T("medium bot")
	case "hard":
		return l.T("hard bot")
	case "random":
		return l.T("random bot")
	}
	return kind
}

// Mark says what kind of player a person's name belongs to.
type Mark int

// The marks: a person with an account, a guest (User.Guest), a bot
// account (User.BotAccount).
const (
	PersonMark Mark = iota
	GuestMark
	BotMark
)

// MarkOf is the mark of a guest or of a bot account (neither: a person).
func MarkOf(guest, robot bool) Mark {
	switch {
	case guest:
		return GuestMark
	case robot:
		return BotMark
	}
	return PersonMark
}

// SeatName is the name a seat is shown by: a bot's is made of its kind
// and its place at the table ("greedy bot 2", stored so in English, as
// records carry it) and told in the page's language; a person's is as they
// wrote it, a guest's or a bot account's marked (m: GuestName,
// BotAccountName). Every list of players, the log and the scores name
// seats by it.
func SeatName(l *i18n.Lang, name, bot string, m Mark) string {
	if bot == "" && name == deletedName {
		return l.T("deleted player")
	}
	if m != PersonMark { // played by them or, once they left it, by the stand-in
		return Marked(l, name, m)
	}
	rest, ok := strings.CutPrefix(name, bot+" bot ")
	if bot == "" || !ok || BotName(l, bot) == bot {
		return name // a person, or a kind of bot with no name of its own
	}
	n, err := strconv.Atoi(rest)
	if err != nil {
		return name
	}
	return l.T("%s %d", BotName(l, bot), n)
}

// Marked is the name of a player marked m as shown wherever names are: a
// guest's or a bot account's marked (GuestName, BotAccountName).
func Marked(l *i18n.Lang, name string, m Mark) string {
	switch m {
	case GuestMark:
		return GuestName(l, name)
	case BotMark:
		return BotAccountName(l, name)
	}
	return name
}

// BotAccountName is a bot account's name as shown wherever names are:
// marked, so that nobody takes a program for a person.
func BotAccountName(l *i18n.Lang, name string) string { return l.T("%s (bot)", name) }

// GuestName is a guest's name as shown wherever names are: marked, so
// that nobody takes a guest for an account.
func GuestName(l *i18n.Lang, name string) string { return l.T("%s (guest)", name) }

// LimitName names a time limit per turn given in hours.
func LimitName(l *i18n.Lang, hours int) string {
	if hours == 0 {
		return l.T("no limit")
	}
	return l.N("%d day", "%d days", hours/24, hours/24)
}

// PlaceLabel is what a place's links say: the cell and what placing the
// tile there would bring.
func PlaceLabel(l *i18n.Lang, p Place) string {
	verb := l.T("Place at %s", CellLabel(l, p.At))
	if p.Overbuild {
		verb = l.T("Overbuild your tile at %s", CellLabel(l, p.At))
	}
	if p.Gains == "" {
		return verb
	}
	return l.T("%s: %s", verb, p.Gains)
}

func displayText(l *i18n.Lang, d []engine.Jungle) string {
	if len(d) == 0 {
		return l.T("empty")
	}
	parts := make([]string, len(d))
	for i, j := range d {
		parts[i] = JungleName(l, j)
	}
	return strings.Join(parts, l.T(", "))
}

// deletedName is the name a deleted account leaves on its seats
// (models.DeletedName), told in the page's language.
const deletedName = "deleted player"

// CellLabel is how a cell is named to players.
// A cell's name is never broken across lines.
func CellLabel(l *i18n.Lang, c engine.Cell) string {
	return strings.ReplaceAll(l.T("(%d, %d)", c.X, c.Y), " ", "\u00a0")
}

// JungleName is a jungle tile in words.
func JungleName(l *i18n.Lang, j engine.Jungle) string {
	if j == engine.NoJungle {
		return l.T("an unknown tile from the pile")
	}
	k := j.Kind()
	switch k.Effect {
	case engine.Plantation:
		return l.T("Plantation %d", k.Value)
	case engine.Market:
		return l.T("Market %d", k.Value)
	case engine.Mine:
		return l.T("Gold mine %d", k.Value)
	case engine.Water:
		return l.T("Water||jungle tile")
	case engine.SunSite:
		return l.T("Sun site")
	case engine.Temple:
		return l.T("Temple")
	}
	panic(fmt.Sprintf("views: no name for jungle tile %v of effect %d", j, k.Effect))
}

// GainText says what a seat gains, e.g. "+2 gold, +1 fruit"; "" for nothing.
func GainText(l *i18n.Lang, g engine.Gain) string {
	var parts []string
	if g.Gold != 0 {
		parts = append(parts, l.T("%+d gold", g.Gold))
	}
	if g.Fruit != 0 {
		parts = append(parts, l.T("%+d fruit", g.Fruit))
	}
	if g.Sun != 0 {
		parts = append(parts, l.T("%+d sun", g.Sun))
	}
	if g.WaterSteps != 0 {
		steps := l.N("water %+d step", "water %+d steps", abs(g.WaterSteps), g.WaterSteps)
		parts = append(parts, l.N("%s (%+d point)", "%s (%+d points)", abs(g.Water), steps, g.Water))
	}
	return strings.Join(parts, l.T(", "))
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// ColourName is a seat colour's name.
func ColourName(l *i18n.Lang, seat int) string {
	switch seat & 3 {
	case 0:
		return l.T("orange")
	case 1:
		return l.T("pink")
	case 2:
		return l.T("white")
	default:
		return l.T("yellow")
	}
}

// Ordinal names a place: 1st, 2nd, 3rd, 4th; "(shared)" when another seat
// holds it too.
func Ordinal(l *i18n.Lang, place int, shared bool) string {
	var s string
	switch place {
	case 1:
		s = l.T("1st")
	case 2:
		s = l.T("2nd")
	case 3:
		s = l.T("3rd")
	default:
		s = l.T("4th")
	}
	if shared {
		return l.T("%s (shared)", s)
	}
	return s
}

// TieNotes tells how each tie on points of lines (ranked) was settled: by
// the fruit left, or not at all (a shared place).
func TieNotes(l *i18n.Lang, lines []ScoreLine) []string {
	var out []string
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && lines[j].Total == lines[i].Total {
			j++
		}
		if j-i > 1 {
			tied := lines[i:j]
			var names, fruit []string
			sameFruit := true
			for _, t := range tied {
				names = append(names, t.Name)
				fruit = append(fruit, l.T("%s %d", t.Name, t.Fruit))
				sameFruit = sameFruit && t.Fruit == tied[0].Fruit
			}
			who := strings.Join(names, l.T(", "))
			if sameFruit {
				out = append(out, l.T("%s tied on %d points and %d fruit left: they share the place.", who, tied[0].Total, tied[0].Fruit))
			} else {
				out = append(out, l.T("%s tied on %d points; the fruit left decides (%s).", who, tied[0].Total, strings.Join(fruit, l.T(", "))))
			}
		}
		i = j
	}
	return out
}

// ResultLine is the final ranking of lines (ranked) in a sentence.
func ResultLine(l *i18n.Lang, lines []ScoreLine) string {
	var parts []string
	for _, s := range lines {
		parts = append(parts, l.T("%s %s with %d points", Ordinal(l, s.Place, s.Shared), s.Name, s.Total))
	}
	return l.T("Game over: %s.", strings.Join(parts, l.T("; ")))
}

// NewsName names a kind of news (by models.News.Name), as Settings lists
// it.
func NewsName(l *i18n.Lang, name string) string {
	switch name {
	case "turn":
		return l.T("Your turn")
	case "choice":
		return l.T("A choice waiting for you")
	case "reminder":
		return l.T("A reminder before your time runs out")
	case "timeout":
		return l.T("A time-out, or a seat handed to or taken back from the stand-in bot")
	case "invitation":
		return l.T("Invitations, tables starting or cancelled, and tournament rounds starting")
	case "chat":
		return l.T("A new message in a game's chat")
	case "result":
		return l.T("A game's result, and a tournament's end")
	case "follow":
		return l.T("A player you follow opening a public table")
	case "test":
		return l.T("A test notice")
	}
	return ""
}

// winnersLine names the winners of a finished game (lines ranked): "ana
// wins", or who share first place.
func winnersLine(ctx context.Context, lines []ScoreLine) string {
	var names []string
	for _, s := range lines {
		if s.Place == 1 {
			names = append(names, s.Name)
		}
	}
	if len(names) == 1 {
		return t(ctx, "%s wins", names[0])
	}
	return t(ctx, "%s share first place", strings.Join(names, t(ctx, ", ")))
}

// topScore is the width a score's parts are drawn against: the largest sum
// of a seat's parts, each taken as it is drawn (its size, whatever its
// sign).
func topScore(lines []ScoreLine) int {
	top := 1
	for _, s := range lines {
		top = max(top, abs(s.Coins)+abs(s.Temples)+abs(s.Sun)+abs(s.Water))
	}
	return top
}

// partWidth is how wide a part of n points is drawn, in per cent of the
// line, against top.
func partWidth(n, top int) float64 { return 100 * float64(abs(n)) / float64(top) }
