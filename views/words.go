package views

import (
	"fmt"
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
	Resolve   bool // a resolution of a pending batch; else a turn
	Seat      int
	Turn      int
	Timeout   bool // played by the greedy bot when the seat's time ran out
	Auto      bool // decided at once by the seat's "always decide for me" policy
	Placement engine.Placement
	Fills     []engine.Fill
	Gains     []engine.Gain
}

// LogLine tells one log entry in plain words; names are the seats' names.
func LogLine(l *i18n.Lang, ev LogEntry, names []string) string {
	name := names[ev.Seat]
	if ev.Timeout {
		name = l.T("%s (out of time: the greedy bot played)", name)
	} else if ev.Auto {
		name = l.T("%s (decided at once, as they asked)", name)
	}
	parts := []string{}
	if ev.Resolve {
		parts = append(parts, l.T("%s chose how to use workers activated on turn %d", name, ev.Turn+1))
	} else {
		at := CellLabel(l, ev.Placement.At)
		if ev.Placement.Overbuild {
			parts = append(parts, l.T("%s overbuilt with %s at %s", name, ev.Placement.Tile.String(), at))
		} else {
			parts = append(parts, l.T("%s placed %s at %s", name, ev.Placement.Tile.String(), at))
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
// would be awarded.
func TempleLine(l *i18n.Lang, t engine.TempleResult, names []string) string {
	var parts []string
	for i, w := range t.Workers {
		if w > 0 {
			parts = append(parts, l.N("%s %d worker → %d gold", "%s %d workers → %d gold", w, names[i], w, t.Award[i]))
		}
	}
	if len(parts) == 0 {
		return l.T("Temple at %s: nobody yet", CellLabel(l, t.At))
	}
	return l.T("Temple at %s: %s", CellLabel(l, t.At), strings.Join(parts, l.T(", ")))
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
		out = append(out, EdgeChoice{Key: fmt.Sprintf("%d,%d,%s", e.Tile.X, e.Tile.Y, e.Side), Label: label, Workers: e.Workers, Order: i + 1, Unknown: e.Jungle == engine.NoJungle})
	}
	return out
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
		out = l.T("%s, on vacation until %s", out, l.Date(vacation.UTC(), false, false))
	}
	return out
}

// NoticeText is a stored notification or mail in the reader's language:
// its message translated, or its English text when it has none.
func NoticeText(l *i18n.Lang, text, format string, args []any) string {
	if format == "" {
		return text
	}
	return l.T(format, args...)
}
