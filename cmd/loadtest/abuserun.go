package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
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

// runAbuse runs the open loop of o o.Pairs times without and with the
// attacks, in turn (calm, attacked, calm, …), the honest players measured
// in each, prints each report, and ends with the ABUSE line (abuseLine).
func runAbuse(ctx context.Context, o Options, w io.Writer) error {
	sink, err := mailtest.Listen()
	if err != nil {
		return err
	}
	defer sink.Close()
	o.Mail = sink
	var calm, hit []*RateReport
	for range max(1, o.Pairs) {
		for _, attacked := range []bool{false, true} {
			o.Abuse = attacked
			r, err := RunOpen(ctx, o, w)
			if err != nil {
				return err
			}
			r.Print(w)
			if attacked {
				hit = append(hit, r)
			} else {
				calm = append(calm, r)
			}
		}
	}
	fmt.Fprintln(w, abuseLine(o.Rate, calm, hit))
	return nil
}

// abuseLine compares the calm runs with the attacked ones: the median of
// the runs' p99 of the players, and of the runs' mean delay of the honest
// players' confirmation mails, each with its ratio (and the p99's ratio
// of each pair: a single pair's is within the machine's noise); held=yes
// when both medians stay within twice the calm runs', every mail arrived,
// no honest player failed, and every attacked run had no error and held
// its rate. Then the honest log-ins (p50, made of asked) and hard-bot
// moves (p50, samples) of all the runs of each kind, and what the last
// attacked run's attacks met.
func abuseLine(rate float64, calm, hit []*RateReport) string {
	p99 := func(r *RateReport) float64 {
		var all []time.Duration
		for _, l := range r.Lat {
			all = append(all, l...)
		}
		return ms(pct(all, 99))
	}
	mail := func(r *RateReport) float64 { return mean(r.Honest.Mails).Seconds() }
	var ratios []string
	for i := range calm {
		ratios = append(ratios, fmt.Sprintf("%.2f", p99(hit[i])/p99(calm[i])))
	}
	before, after := median(calm, p99), median(hit, p99)
	mailBefore, mailAfter := median(calm, mail), median(hit, mail)
	var hc, hh Honest // every run's honest players of each kind
	ok := true
	for _, r := range calm {
		ok = ok && len(r.Honest.Mails) > 0 && r.Honest.MailsLost == 0 && r.Honest.Failures == 0
		hc.add(r.Honest)
	}
	for _, r := range hit {
		ok = ok && len(r.Honest.Mails) > 0 && r.Honest.MailsLost == 0 && r.Honest.Failures == 0 && r.Errors == 0 && r.Held()
		hh.add(r.Honest)
	}
	held := "no"
	if ok && after <= 2*before && mailAfter <= 2*mailBefore {
		held = "yes"
	}
	last := hit[len(hit)-1]
	errors, rateHeld := 0, true
	for _, r := range hit {
		errors += r.Errors
		rateHeld = rateHeld && r.Held()
	}
	a := last.Attacks
	return fmt.Sprintf("ABUSE rate=%.4g pairs=%d p99_ms_calm=%.2f p99_ms_attacked=%.2f ratio=%.2f ratios=%s mail_s_calm=%.2f mail_s_attacked=%.2f mail_ratio=%.2f errors=%d rate_held=%v held=%s "+
		"login_ms_calm=%.2f login_ms_attacked=%.2f logins_made=%d/%d bot_move_s_calm=%.2f bot_move_s_attacked=%.2f bot_moves=%d/%d "+
		"slow_bodies=%d streams_refused=%d/%d tables_opened=%d/%d signups_made=%d/%d guests_made=%d/%d hash_refused=%d/%d tarpit_posts=%d bot_games=%d/%d rematches=%d/%d unexpected=%d honest_failures=%d",
		rate, len(calm), before, after, after/before, strings.Join(ratios, ","), mailBefore, mailAfter, mailAfter/mailBefore, errors, rateHeld, held,
		ms(pct(hc.LoginLat, 50)), ms(pct(hh.LoginLat, 50)), hh.LoginsMade, hh.Logins, pct(hc.BotMoves, 50).Seconds(), pct(hh.BotMoves, 50).Seconds(), len(hc.BotMoves), len(hh.BotMoves),
		a.SlowBodies, a.StreamsRefused, a.Streams, a.TablesOpened, a.Tables, a.SignupsMade, a.Signups, a.GuestsMade, a.Guests,
		a.HashRefused, a.HashTries, a.TarpitPosts, a.BotGamesOpened, a.BotGames, a.RematchesMade, a.Rematches, a.Unexpected, hc.Failures+hh.Failures)
}

// median is the median of f over the reports (the mean of the middle two
// of an even number).
func median(rs []*RateReport, f func(*RateReport) float64) float64 {
	v := make([]float64, len(rs))
	for i, r := range rs {
		v[i] = f(r)
	}
	slices.Sort(v)
	n := len(v)
	if n == 0 {
		return 0
	}
	return (v[(n-1)/2] + v[n/2]) / 2
}
