package views

import (
	"fmt"

	"cacao/engine"
	"cacao/views/i18n"
)

// Coach is the move a lesson of the tutorial (/learn) asks for, as the
// game area's views mark it: the tile in the hand, then, once it is
// turned as the lesson wants, the cell on the board (visibly and in the
// links' words).
type Coach struct {
	Tile      engine.Worker
	Rot       int // a rotation the lesson wants (any with the same look will do)
	At        engine.Cell
	Overbuild bool
	// Do is what to do now, one line at the top of the bar of the move;
	// Turn shows beside it the tile as it should be turned.
	Do   string
	Turn bool
	// Wrong says why the learner's last try is not the lesson's move (""
	// when it is on the way).
	Wrong string
}

// tileMarked reports whether w is the tile the lesson asks for.
func (c *Coach) tileMarked(w engine.Worker) bool { return c != nil && w == c.Tile }

// cellMarked reports whether the selection holds the lesson's tile,
// turned as it wants, so that cell at, the lesson's, is marked.
func (vm GameVM) cellMarked(at engine.Cell) bool {
	c := vm.Coach
	if c == nil || vm.Sel.Tile != c.Tile.String() || c.Tile.Edges(vm.Sel.Rot) != c.Tile.Edges(c.Rot) {
		return false
	}
	return at == c.At
}

// CoachLabel is a place's label with, for the lesson's cell, a word that
// it is the one (the board marks it by its outline).
func (vm GameVM) CoachLabel(l *i18n.Lang, p Place) string {
	if vm.cellMarked(p.At) {
		return l.T("%s (this lesson's cell)", p.Label)
	}
	return p.Label
}

// cellClass is the class of a place's link on the board.
func (vm GameVM) cellClass(at engine.Cell) string {
	if vm.cellMarked(at) {
		return "cell coach"
	}
	return "cell"
}

// tileClass and tileLabel are a hand tile's link's class and label, the
// lesson's tile marked.
func (vm GameVM) tileClass(w engine.Worker, class string) string {
	if vm.Coach.tileMarked(w) {
		return class + " coach"
	}
	return class
}

func (vm GameVM) tileLabel(l *i18n.Lang, w engine.Worker, label string) string {
	if vm.Coach.tileMarked(w) {
		return l.T("%s (this lesson's tile)", label)
	}
	return label
}

// LearnVM is a step of the tutorial: the introduction (Step 0), a lesson
// with the game as it stands before its move, or the end with the score.
type LearnVM struct {
	Page
	Step, Steps int    // this step, from 0, of how many
	Topic       string // the lesson's tutorial.Topic; "" the introduction, "end" the end
	Game        GameVM // the game area, with its Coach (not on the introduction)
	// Since tells what happened since the step before: the move the
	// learner made and the turns played on meanwhile, a line each.
	Since []string
	Next  string // the next step's address ("" on the last)
	Error string // a step or a selection that could not be read
}

// Lesson is what a lesson says: its title, what it explains, why its
// move is the one (told again when a try is not), and, once the tile is
// chosen and turned, what to do on the board.
type Lesson struct {
	Title   string
	Explain []string
	Why     string
	Lay     string
}

// LessonOf is the words of the lesson on topic (tutorial.Topic); the
// introduction is "" and the end "end". An unknown topic is a mistake of
// the site's.
func LessonOf(l *i18n.Lang, topic string) Lesson {
	switch topic {
	case "":
		return Lesson{Title: l.T("Learn to play Cacao"), Explain: []string{
			l.T("In Cacao you lay worker tiles beside the jungle. The workers on a tile's edges work the jungle tiles they face: plantations give fruit, markets buy it for gold, gold mines give gold, water moves you up the water track, sun-worshipping sites give sun tokens, and temples pay at the end the players with the most workers beside them."),
			l.T("Here you play one short game against a bot, on a deal that is the same every time. Each lesson asks for one move and says why: a move that shows the lesson's point, not always the best one. Your other turns are played for you, so that you reach the end in a few pages. Any step can be skipped."),
			l.T("You play A, in orange; the bot plays B, in pink. At the end, gold, temple awards, sun tokens and the water track's value are added up: the highest total wins."),
		}}
	case "place":
		return Lesson{Title: l.T("Choose a tile, turn it, lay it beside the jungle"), Explain: []string{
			l.T("Your hand holds three worker tiles. Each has four workers on its edges, and a worker works the jungle tile its edge faces. A tile goes on an empty cell that touches a jungle tile along an edge, turned as you like."),
		}, Why: l.T("This lesson's tile, turned so that its workers face the plantation, brings you fruit."),
			Lay: l.T("Now lay it on the marked cell, beside the plantation.")}
	case "fill":
		return Lesson{Title: l.T("Filling the jungle: workers wake on both sides"), Explain: []string{
			l.T("When your tile leaves an empty jungle cell between two worker tiles, a jungle tile from the display is laid there at once. Every worker facing it wakes: yours, and the bot's too. What a worker brings always goes to its tile's owner, if they can take it: a plantation gives no fruit to a player who holds 5 already."),
		}, Why: l.T("On the marked cell, your tile fills the jungle cell between it and a tile of the bot's, and workers of both of you wake."),
			Lay: l.T("Now lay it on the marked cell: the jungle cell beside it is filled.")}
	case "market":
		return Lesson{Title: l.T("Selling fruit at a market"), Explain: []string{
			l.T("A worker facing a market sells one fruit for the market's price in gold; you can only sell fruit you hold. Fruit is harvested first, then sold, unless you change the order."),
		}, Why: l.T("On the marked cell, a worker of yours faces a market and sells fruit you hold."),
			Lay: l.T("Now lay it on the marked cell, beside the market.")}
	case "water":
		return Lesson{Title: l.T("The water track"), Explain: []string{
			l.T("Each worker facing water moves your carrier one field up the water track. It starts at −10 points; at the end the field it stands on counts, up to 16."),
		}, Why: l.T("On the marked cell, your workers face water and move your carrier up."),
			Lay: l.T("Now lay it on the marked cell, beside the water.")}
	case "sun":
		return Lesson{Title: l.T("Sun tokens"), Explain: []string{
			l.T("Each worker facing a sun-worshipping site takes a sun token (you keep at most 3). At the end a token is worth a point; before that, it pays for an overbuild."),
		}, Why: l.T("On the marked cell, your workers face the sun-worshipping site."),
			Lay: l.T("Now lay it on the marked cell, beside the sun-worshipping site.")}
	case "temple":
		return Lesson{Title: l.T("Temples and their majorities"), Explain: []string{
			l.T("A temple gives nothing during play. At the end, the player with the most workers beside it takes 6 gold and the second 3; players tied for the most share the 6."),
		}, Why: l.T("On the marked cell, your workers beside the temple give you the most workers there."),
			Lay: l.T("Now lay it on the marked cell, beside the temple.")}
	case "overbuild":
		return Lesson{Title: l.T("Overbuilding at the end"), Explain: []string{
			l.T("Once the jungle pile and the display are empty, you may pay a sun token to lay a tile over one of your own. The tile under it no longer counts, and every worker of the new tile facing a jungle tile wakes."),
		}, Why: l.T("Laid over your marked tile for a sun token, the new tile's workers wake again."),
			Lay: l.T("Now lay it over your tile on the marked cell.")}
	case "end":
		return Lesson{Title: l.T("The score"), Explain: []string{
			l.T("Every tile is laid: the game is over. Each total is the player's gold, the temples' awards, a point per sun token and the water track's value; fruit left only breaks a tie."),
		}}
	default:
		panic(fmt.Sprintf("views: no lesson on %q", topic))
	}
}

// CoachDo is what a lesson asks now, as the selection stands: the
// lesson's tile, then turned as it wants, then laid on its cell, then
// confirmed.
func CoachDo(l *i18n.Lang, ls Lesson, c *Coach, sel Selection) (do string, turn bool) {
	switch {
	case sel.Tile != c.Tile.String():
		return l.T("Choose the marked tile in your hand."), false
	case c.Tile.Edges(sel.Rot) != c.Tile.Edges(c.Rot):
		return l.T("Turn it (tap it, or Rotate) until it looks like this:"), true
	case sel.At == nil || *sel.At != c.At || sel.Overbuild != c.Overbuild:
		return ls.Lay, false
	default:
		return l.T("Confirm the move."), false
	}
}

// CoachWrong says why a try is not the lesson's move, in the lesson's
// words ("" when it is on the way to it): another tile, another cell, or
// the tile turned another way on it.
func CoachWrong(l *i18n.Lang, ls Lesson, c *Coach, sel Selection) string {
	switch {
	case sel.Tile == "":
		return ""
	case sel.Tile != c.Tile.String():
		return l.T("That is not the marked tile. %s", ls.Why)
	case sel.At == nil:
		return ""
	case *sel.At != c.At || sel.Overbuild != c.Overbuild:
		return l.T("That is not the marked cell. %s", ls.Why)
	case c.Tile.Edges(sel.Rot) != c.Tile.Edges(c.Rot):
		return l.T("Turned this way, the tile's workers do not face what this lesson is about. %s", ls.Why)
	}
	return ""
}

// turnURL is where the move's form posts: the game's turn, or the
// tutorial's step.
func (vm GameVM) turnURL() string {
	if vm.Base != "" {
		return vm.Base
	}
	return fmt.Sprintf("/games/%d/turn", vm.ID)
}

// linkedSeat reports whether a seat's name links to a profile (a person's).
func (vm GameVM) linkedSeat() bool {
	for _, s := range vm.Seats {
		if s.User != "" {
			return true
		}
	}
	return false
}
