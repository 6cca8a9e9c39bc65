package models

import "testing"

// TestSeatClock: the rule of a seat's clock after a change, case by case.
func TestSeatClock(t *testing.T) {
	for _, c := range []struct {
		name string
		f    clockFacts
		step clockStep
		kind Kind
	}{
		{"the turn comes to a seat not waited on", clockFacts{MyTurn: true}, clockStart, KindTurn},
		{"a choice comes to a seat not waited on, not its turn", clockFacts{Choosing: true}, clockStart, KindReaction},
		{"the turn and a choice come together", clockFacts{Choosing: true, MyTurn: true}, clockStart, turnAndChoice},
		{"a choice made, the turn left, no turn limit", clockFacts{MyTurn: true, Waiting: true, HasDeadline: true, Acted: true, HadTurn: true}, clockClear, ""},
		{"a choice made, the turn left, with a turn limit", clockFacts{MyTurn: true, Waiting: true, HasDeadline: true, Acted: true, HadTurn: true, TurnLimit: true}, clockStart, ""},
		{"one of two choices made, not its turn", clockFacts{Choosing: true, Waiting: true, HasDeadline: true, Acted: true}, clockStart, ""},
		{"the turn comes while an overdue choice waits", clockFacts{Choosing: true, MyTurn: true, Waiting: true, HasDeadline: true, Overdue: true}, clockKeep, ""},
		{"the turn comes while a choice waits, no turn limit", clockFacts{Choosing: true, MyTurn: true, Waiting: true, HasDeadline: true}, clockNotify, ""},
		{"the turn comes while a choice waits, with a turn limit", clockFacts{Choosing: true, MyTurn: true, Waiting: true, HasDeadline: true, TurnLimit: true}, clockStart, KindTurn},
		{"still its turn, another seat acted", clockFacts{MyTurn: true, Waiting: true, HadTurn: true, TurnLimit: true, HasDeadline: true}, clockKeep, ""},
		{"a choice still waits, another seat acted", clockFacts{Choosing: true, Waiting: true, HasDeadline: true}, clockKeep, ""},
		{"the seat played its turn and nothing waits", clockFacts{Waiting: true, Acted: true, HadTurn: true}, clockStop, ""},
		{"a seat not waited on stays so", clockFacts{}, clockKeep, ""},
	} {
		if step, kind := seatClock(c.f); step != c.step || kind != c.kind {
			t.Errorf("%s: step %d, news %q; want %d, %q", c.name, step, kind, c.step, c.kind)
		}
	}
}
