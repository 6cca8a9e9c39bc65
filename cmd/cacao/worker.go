package main

import (
	"context"
	"log/slog"
	"time"

	"cacao/handlers/mail"
	"cacao/models"
	"cacao/models/autoplay"
)

// Worker runs the site's background work: it plays timed-out seats, lets
// bots whose move was lost (a crash) play it, runs the tournaments (starts
// them, pairs and starts their rounds, hands what is left of a round to
// the stand-in bot at its end, finishes them), sends
// reminders, queues digests, cancels tables nobody completed in 14 days,
// gives the running seats of guests whose 30 days are over to the stand-in,
// gives games finished before their results were kept those results,
// sets out again to make the reviews of turns a stopped process left, and
// delivers the outbox's mail; beside it, the outbox's pushes and webhook
// posts go on their own (mail.Outbox.Posts), so that none of this waits
// for a server that is slow to answer. Everything it needs is
// in the database, so a restarted worker carries on where one stopped, and
// each step is safe to run twice (or in two processes at once).
type Worker struct {
	Store  *models.Store
	Bots   *autoplay.Runner // the stand-ins and stalled bots think in its slots
	Outbox *mail.Outbox
	Every  time.Duration
	Log    *slog.Logger
}

// Run works once at once, then every w.Every, and delivers the posts
// meanwhile, until ctx ends; it returns once the posts under way have
// ended.
func (w *Worker) Run(ctx context.Context) {
	every := w.Every
	if every <= 0 {
		every = 15 * time.Second
	}
	posts := make(chan struct{})
	go func() { defer close(posts); w.Outbox.Posts(ctx, every) }()
	defer func() { <-posts }()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		w.Once(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Once does one round of the background work and logs what it did.
func (w *Worker) Once(ctx context.Context) {
	timeouts, err := w.Bots.Timeouts()
	if err != nil {
		w.Log.Error("timeouts", "err", err)
	}
	stalled, err := w.Bots.Stalled()
	if err != nil {
		w.Log.Error("stalled bots", "err", err)
	}
	tours, err := w.Store.RunTournaments(100)
	if err != nil {
		w.Log.Error("tournaments", "err", err)
	}
	for _, id := range tours.Handed { // the stand-in took the seats: it plays now
		if _, err := w.Bots.Bots(id, nil); err != nil {
			w.Log.Warn("bots after a tournament round's end", "game", id, "err", err)
		}
	}
	reminders, err := w.Store.SendReminders()
	if err != nil {
		w.Log.Error("reminders", "err", err)
	}
	digests, err := w.Store.QueueDigests()
	if err != nil {
		w.Log.Error("digests", "err", err)
	}
	expired, err := w.Store.ExpireTables(100)
	if err != nil {
		w.Log.Error("expiring tables", "err", err)
	}
	guests, err := w.Store.ExpireGuests(100)
	if err != nil {
		w.Log.Error("expiring guests", "err", err)
	}
	for _, id := range guests { // the stand-in took a seat: it plays now if it is its turn
		if _, err := w.Bots.Bots(id, nil); err != nil {
			w.Log.Warn("bots after a guest's time ended", "game", id, "err", err)
		}
	}
	scored, err := w.Store.ScoreOld(200)
	if err != nil {
		w.Log.Error("scoring old games", "err", err)
	}
	reviews, err := w.Bots.Resume()
	if err != nil {
		w.Log.Error("resuming reviews", "err", err)
	}
	pruned, err := w.Store.PruneLimits()
	if err != nil {
		w.Log.Error("pruning rate limits", "err", err)
	}
	st, err := w.Outbox.RunOnce(ctx)
	if err != nil {
		w.Log.Error("outbox", "err", err)
	}
	tourSteps := tours.Started + tours.Cancelled + tours.Rounds + tours.Finished + len(tours.Handed)
	if timeouts+stalled+tourSteps+reminders+digests+expired+len(guests)+scored+reviews+int(pruned)+st.Sent+st.Skipped+st.Failed+st.Held > 0 {
		w.Log.Info("worker", "timeouts", timeouts, "stalled_bots", stalled, "tournaments_started", tours.Started, "tournaments_cancelled", tours.Cancelled,
			"tournament_rounds", tours.Rounds, "tournaments_finished", tours.Finished, "tournament_games_handed", len(tours.Handed), "reminders", reminders, "digests", digests, "tables_expired", expired, "guest_seats_expired", len(guests), "old_games_scored", scored, "reviews_resumed", reviews, "limits_pruned", pruned,
			"mail_sent", st.Sent, "mail_skipped", st.Skipped, "mail_failed", st.Failed, "mail_held", st.Held)
	}
}
