package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"cacao/handlers/mail/mailtest"
)

// abuseSite is how both runs of an abuse run start the site: its mail to
// sink, webhooks and push allowed to loopback (the tarpit), and the
// worker every second, so that a mail's delay is its wait rather than the
// worker's tick.
func abuseSite(sink *mailtest.Server) (env, flags []string) {
	return []string{"CACAO_SMTP_HOST=" + sink.Host(), fmt.Sprintf("CACAO_SMTP_PORT=%d", sink.Port())},
		[]string{"-private-hooks", "-work-every", "1s"}
}

// runAbuse runs the open loop of o twice, without and with the attacks,
// the honest players measured in both, prints both reports, and ends
// with the ABUSE line (abuseLine).
func runAbuse(ctx context.Context, o Options, w io.Writer) error {
	sink, err := mailtest.Listen()
	if err != nil {
		return err
	}
	defer sink.Close()
	o.Mail = sink
	o.Abuse = false
	calm, err := RunOpen(ctx, o, w)
	if err != nil {
		return err
	}
	calm.Print(w)
	o.Abuse = true
	hit, err := RunOpen(ctx, o, w)
	if err != nil {
		return err
	}
	hit.Print(w)
	fmt.Fprintln(w, abuseLine(o.Rate, calm, hit))
	return nil
}

// abuseLine compares the calm run with the attacked one: the players' p99
// and the mean delay of the honest players' confirmation mails, each with
// its ratio; held=yes when both stay within twice the calm run's, every
// mail arrived, no honest player failed, and the attacked run had no error
// and held its rate. Then the honest log-ins (p50, made of asked) and
// hard-bot moves (p50, samples in each run), and what the attacks met.
func abuseLine(rate float64, calm, hit *RateReport) string {
	p99 := func(r *RateReport) float64 {
		var all []time.Duration
		for _, l := range r.Lat {
			all = append(all, l...)
		}
		return ms(pct(all, 99))
	}
	before, after := p99(calm), p99(hit)
	hc, hh := calm.Honest, hit.Honest
	mailBefore, mailAfter := mean(hc.Mails).Seconds(), mean(hh.Mails).Seconds()
	held := "no"
	if after <= 2*before && len(hc.Mails) > 0 && len(hh.Mails) > 0 && hc.MailsLost+hh.MailsLost == 0 && mailAfter <= 2*mailBefore &&
		hit.Errors == 0 && hit.Held() && hc.Failures+hh.Failures == 0 {
		held = "yes"
	}
	a := hit.Attacks
	return fmt.Sprintf("ABUSE rate=%.4g p99_ms_calm=%.2f p99_ms_attacked=%.2f ratio=%.2f mail_s_calm=%.2f mail_s_attacked=%.2f mail_ratio=%.2f errors=%d rate_held=%v held=%s "+
		"login_ms_calm=%.2f login_ms_attacked=%.2f logins_made=%d/%d bot_move_s_calm=%.2f bot_move_s_attacked=%.2f bot_moves=%d/%d "+
		"slow_bodies=%d streams_refused=%d/%d tables_opened=%d/%d signups_made=%d/%d hash_refused=%d/%d tarpit_posts=%d bot_games=%d/%d rematches=%d/%d unexpected=%d honest_failures=%d",
		rate, before, after, after/before, mailBefore, mailAfter, mailAfter/mailBefore, hit.Errors, hit.Held(), held,
		ms(pct(hc.LoginLat, 50)), ms(pct(hh.LoginLat, 50)), hh.LoginsMade, hh.Logins, pct(hc.BotMoves, 50).Seconds(), pct(hh.BotMoves, 50).Seconds(), len(hc.BotMoves), len(hh.BotMoves),
		a.SlowBodies, a.StreamsRefused, a.Streams, a.TablesOpened, a.Tables, a.SignupsMade, a.Signups,
		a.HashRefused, a.HashTries, a.TarpitPosts, a.BotGamesOpened, a.BotGames, a.RematchesMade, a.Rematches, a.Unexpected, hc.Failures+hh.Failures)
}
