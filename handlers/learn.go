package handlers

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"cacao/engine"
	"cacao/engine/tutorial"
	"cacao/models"
	"cacao/views"
	"cacao/views/i18n"
)

// The tutorial (/learn) coaches the fixed first game of engine/tutorial a
// lesson at a time. Its whole state is in the address: the step (/learn is
// the introduction, /learn/N the steps after it, the last the score) and,
// on a lesson, the move in progress as the game page carries it. Nothing
// is stored and no account is needed. A lesson's move confirmed goes on to
// the next step, the turns between played as the script has them; another
// move stays on the lesson with a word on why (200: a try, not an error).

// learnIntro is the tutorial's first page.
func (s *Server) learnIntro(c echo.Context) error {
	vm, err := s.learnVM(c, 0, views.Selection{}, "")
	if err != nil {
		return err
	}
	return s.renderLearn(c, http.StatusOK, vm)
}

// learn is a step of the tutorial after the introduction, with the move
// in progress from the query string.
func (s *Server) learn(c echo.Context) error {
	n, err := s.learnStep(c)
	if err != nil {
		return err
	}
	sel, problem := parseSelection(lang(c), c.QueryParam("tile"), c.QueryParam("slot"), c.QueryParam("rot"), c.QueryParam("at"), c.QueryParam("overbuild"), c.QueryParam("fill"))
	vm, err := s.learnVM(c, n, sel, problem)
	if err != nil {
		return err
	}
	return s.renderLearn(c, http.StatusOK, vm)
}

// learnMove takes a lesson's move: the lesson's goes on to the next step
// (a 303 to it; for htmx the step itself, its address pushed), another
// is shown on the lesson with why it is not the one.
func (s *Server) learnMove(c echo.Context) error {
	n, err := s.learnStep(c)
	if err != nil {
		return err
	}
	sel, problem := parseSelection(lang(c), c.FormValue("tile"), c.FormValue("slot"), c.FormValue("rot"), c.FormValue("at"), c.FormValue("overbuild"), c.FormValue("fill"))
	i := n - 1
	if problem == "" && i < len(s.tutorial.Lessons) && s.lessonMove(i, sel) {
		next := learnURL(n + 1)
		if !isHTMX(c) {
			return c.Redirect(http.StatusSeeOther, next)
		}
		vm, err := s.learnVM(c, n+1, views.Selection{}, "")
		if err != nil {
			return err
		}
		c.Response().Header().Set("HX-Push-Url", next)
		return s.renderLearn(c, http.StatusOK, vm)
	}
	vm, err := s.learnVM(c, n, sel, problem)
	if err != nil {
		return err
	}
	if co := vm.Game.Coach; co != nil && co.Wrong == "" && vm.Error == "" {
		co.Wrong = lang(c).T("Choose the marked tile, turn it and lay it on the marked cell, then confirm.")
	}
	return s.renderLearn(c, http.StatusOK, vm)
}

// learnSteps is how many steps the tutorial has: the introduction, a
// lesson each, the score.
func (s *Server) learnSteps() int { return len(s.tutorial.Lessons) + 2 }

// learnStep reads the step of the address: 1 to the last (the
// introduction is /learn), or a clear 404.
func (s *Server) learnStep(c echo.Context) (int, error) {
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 1 || n >= s.learnSteps() {
		return 0, refusal(http.StatusNotFound, "The tutorial has no step %s: its steps are /learn and /learn/1 to /learn/%d.", strconv.Quote(c.Param("n")), s.learnSteps()-1)
	}
	return n, nil
}

func learnURL(n int) string {
	if n == 0 {
		return "/learn"
	}
	return fmt.Sprintf("/learn/%d", n)
}

// lessonMove reports whether sel is lesson i's move: its tile turned to
// the same look, on its cell, with its fills.
func (s *Server) lessonMove(i int, sel views.Selection) bool {
	m := s.tutorial.Move(i)
	if sel.Tile != m.Tile.String() || sel.At == nil || *sel.At != m.At || sel.Overbuild != m.Overbuild || m.Tile.Edges(sel.Rot) != m.Tile.Edges(m.Rot) {
		return false
	}
	if m.Overbuild {
		return true
	}
	st, err := s.tutorial.At(s.tutorial.Lessons[i].Turn)
	if err != nil {
		return false
	}
	opts := st.FillOptions(m.At)
	if len(opts) == 0 {
		return len(m.Fills) == 0
	}
	return sel.Fill < len(opts) && slices.Equal(opts[sel.Fill], m.Fills)
}

// renderLearn answers with the step: the whole page, or for htmx the
// tutorial's area.
func (s *Server) renderLearn(c echo.Context, code int, vm views.LearnVM) error {
	if isHTMX(c) {
		vm.Game.Fragment = true
		return render(c, code, views.LearnMain(vm))
	}
	return render(c, code, views.LearnPage(vm))
}

// learnVM builds step n of the tutorial from the script, the learner's
// view of the game only (engine.View: their own hand, never the bot's nor
// a pile), with the move in progress sel. (The script replays: tutorial.Load
// checked it when the site started.)
func (s *Server) learnVM(c echo.Context, n int, sel views.Selection, problem string) (views.LearnVM, error) {
	lg := lang(c)
	sc := s.tutorial
	steps := s.learnSteps()
	vm := views.LearnVM{Step: n, Steps: steps, Error: problem}
	if n+1 < steps {
		vm.Next = learnURL(n + 1)
	}
	turn, end := 0, n == steps-1
	switch {
	case n == 0:
		vm.Page = s.page(c, views.LessonOf(lg, "").Title)
		return vm, nil
	case end:
		vm.Topic, turn = "end", len(sc.Record.Turns)
	default:
		vm.Topic, turn = string(sc.Lessons[n-1].Topic), sc.Lessons[n-1].Turn
	}
	vm.Page = s.page(c, views.LessonOf(lg, vm.Topic).Title)
	st, err := sc.At(turn)
	if err != nil {
		return vm, err
	}
	names := []string{lg.T("A (you)"), lg.T("B (the bot)")}
	from := 0
	if n > 1 {
		from = sc.Lessons[n-2].Turn
	}
	var arrived map[engine.Cell]int
	if vm.Since, arrived, err = s.learnSince(lg, from, turn, names, n > 1); err != nil {
		return vm, err
	}
	g := views.GameVM{Page: vm.Page, Base: learnURL(n), Status: models.StatusActive, Me: tutorial.Learner, Arrived: arrived, LogLen: turn}
	v := st.View(tutorial.Learner)
	g.View = v
	for i := range names {
		g.Seats = append(g.Seats, views.Seat{Index: i, Name: names[i], Letter: views.Letters[i], Village: v.Seats[i], IsMe: i == tutorial.Learner, ToPlay: !v.Over && v.Current == i})
	}
	for _, t := range v.Result.Temples {
		g.Temples = append(g.Temples, views.TempleLine(lg, t, names, end))
	}
	if end {
		g.Status, g.Finished = models.StatusFinished, true
		g.Scores = scoreLines(lg, v.Result.Scores, names, make([]models.Seat, len(names)))
		g.TieNotes = views.TieNotes(lg, g.Scores)
		g.Result = views.ResultLine(lg, g.Scores)
		vm.Game = g
		return vm, nil
	}
	g.Play.MyTurn, g.Play.CanAct = true, true
	if problem == "" {
		g.Sel = sel
		selectMove(lg, st, &g)
	}
	// Every worker is used, in the default order, as the script's move
	// does: the lesson is the tile and the cell.
	g.Play.Edges = nil
	m := sc.Move(n - 1)
	ls := views.LessonOf(lg, vm.Topic)
	coach := &views.Coach{Tile: m.Tile, Rot: m.Rot, At: m.At, Overbuild: m.Overbuild}
	coach.Do, coach.Turn = views.CoachDo(lg, ls, coach, g.Sel)
	coach.Wrong = views.CoachWrong(lg, ls, coach, g.Sel)
	g.Coach = coach
	if g.Sel.Tile == "" && problem == "" && g.Error == "" {
		g.Focus = "lesson"
	}
	vm.Error = firstOf(problem, g.Error)
	g.Error = ""
	vm.Game = g
	return vm, nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// learnSince tells turns from to to of the script, a line each, and the
// cells they laid tiles on (each with its turn, from 1). The learner's
// first of them, when coached (the lesson before), is their own move; the
// others of the learner's were played for them.
func (s *Server) learnSince(lg *i18n.Lang, from, to int, names []string, coached bool) ([]string, map[engine.Cell]int, error) {
	if from >= to {
		return nil, nil, nil
	}
	st, err := s.tutorial.At(from)
	if err != nil {
		return nil, nil, err
	}
	var lines []string
	arrived := map[engine.Cell]int{}
	for k := from; k < to; k++ {
		t := s.tutorial.Record.Turns[k]
		before := []engine.Player{*st.Player(0), *st.Player(1)}
		m := t.Move
		m.Reactions = map[int][]engine.Act{}
		out, err := st.Play(t.Seat, m)
		if err != nil {
			return nil, nil, err
		}
		gains := []engine.Gain{engine.GainOf(0, &before[0], st.Player(0)), engine.GainOf(1, &before[1], st.Player(1))}
		who := slices.Clone(names)
		if t.Seat == tutorial.Learner && !(coached && k == from) {
			who[t.Seat] = lg.T("A (played for you)")
		}
		lines = append(lines, views.LogLine(lg, views.LogEntry{Seat: t.Seat, Turn: k, Placement: out.Placement, Fills: slices.Clone(out.Fills), Gains: gains}, who))
		arrived[out.Placement.At] = k + 1
		for _, f := range out.Fills {
			arrived[f.At] = k + 1
		}
	}
	return lines, arrived, nil
}
