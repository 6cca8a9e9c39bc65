package models_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"cacao/models"
)

// TestConfirmationMailLimits: an account gets a few confirmation mails a
// day, an address (in any capitals) a few from all accounts together, and
// the site a bounded number; a refusal changes nothing; a day later the
// account and the address may again.
func TestConfirmationMailLimits(t *testing.T) {
	s, clock := openClocked(t)
	ana := models.MustUser(t, s, "ana")
	for i := 0; i < models.MaxConfirmationsPerAccount; i++ {
		if _, err := s.SetEmail(ana.ID, fmt.Sprintf("ana%d@example.test", i), models.MailEach); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.SetEmail(ana.ID, "ana-again@example.test", models.MailEach); !errors.Is(err, models.ErrTooManyConfirmations) {
		t.Fatalf("one confirmation too many for an account: %v", err)
	}
	if u := mustUserByID(t, s, ana.ID); u.Email != fmt.Sprintf("ana%d@example.test", models.MaxConfirmationsPerAccount-1) {
		t.Fatalf("a refused change set the address to %q", u.Email)
	}
	for i := 0; i < models.MaxConfirmationsPerAddress; i++ {
		u := models.MustUser(t, s, fmt.Sprintf("user%d", i))
		if _, err := s.SetEmail(u.ID, "Stranger@Example.test", models.MailEach); err != nil {
			t.Fatal(err)
		}
	}
	eve := models.MustUser(t, s, "eve")
	if _, err := s.SetEmail(eve.ID, "stranger@example.test", models.MailEach); !errors.Is(err, models.ErrTooManyToAddress) {
		t.Fatalf("one confirmation too many for an address: %v", err)
	}
	if len(mailsOf(t, s, eve.ID, models.KindVerify)) != 0 {
		t.Fatal("a refused change queued a mail")
	}
	clock.Advance(25 * time.Hour)
	if _, err := s.SetEmail(eve.ID, "stranger@example.test", models.MailEach); err != nil {
		t.Fatalf("a day later: %v", err)
	}
	if _, err := s.SetEmail(ana.ID, "ana-again@example.test", models.MailEach); err != nil {
		t.Fatalf("a day later: %v", err)
	}
}

// TestConfirmationMailsPerDay: the site sends at most
// MaxConfirmationsPerDay confirmation mails a day, whoever asks.
func TestConfirmationMailsPerDay(t *testing.T) {
	s, clock := openClocked(t)
	tpl := finishedTemplate(t, s)
	var users []*models.User
	for i := range models.MaxConfirmationsPerDay/models.MaxConfirmationsPerAccount + 1 {
		users = append(users, models.MustUser(t, s, fmt.Sprintf("user%d", i)))
		seatIn(t, s, tpl, users[i])
	}
	clock.Advance(models.RatedAge) // none of them new
	n := 0
	for i := 0; n < models.MaxConfirmationsPerDay; i++ {
		u := users[i]
		for j := 0; j < models.MaxConfirmationsPerAccount && n < models.MaxConfirmationsPerDay; j++ {
			if _, err := s.SetEmail(u.ID, fmt.Sprintf("u%d.%d@example.test", i, j), models.MailEach); err != nil {
				t.Fatal(err)
			}
			n++
		}
	}
	last := models.MustUser(t, s, "last")
	if _, err := s.SetEmail(last.ID, "last@example.test", models.MailEach); !errors.Is(err, models.ErrTooManyConfirmations) {
		t.Fatalf("a confirmation past the day's: %v", err)
	}
}

// seatIn gives u a seat of their own in finished game id, by hand.
func seatIn(t *testing.T, s *models.Store, id uint, u *models.User) {
	t.Helper()
	if err := models.DB(s).Create(&models.Seat{GameID: id, Slot: int(u.ID) + 10, UserID: &u.ID, Name: u.Username}).Error; err != nil {
		t.Fatal(err)
	}
}

// TestConfirmationsOfNewAccounts: accounts less than a day old, or that
// have not finished a game in their own seat, together get
// MaxConfirmationsOfNewAccounts of the day's confirmation mails, however
// long ago they were made; the rest stay for players with a game finished,
// whom a stranger cannot make by the hundred.
func TestConfirmationsOfNewAccounts(t *testing.T) {
	s, clock := openClocked(t)
	tpl := finishedTemplate(t, s) // ana resigned it: the bot finished her seat
	old, rival := models.MustUser(t, s, "old"), models.MustUser(t, s, "rival")
	playOut(t, s, startDuel(t, s, old, rival, 24), old, rival)
	var aged []*models.User // made a day ahead, no game finished
	for i := range models.MaxConfirmationsOfNewAccounts + 1 {
		aged = append(aged, models.MustUser(t, s, fmt.Sprintf("aged%d", i)))
	}
	clock.Advance(models.RatedAge)
	n := 0
	for i, u := range aged {
		_, err := s.SetEmail(u.ID, fmt.Sprintf("aged%d@example.test", i), models.MailEach)
		if errors.Is(err, models.ErrNewAccountsConfirmed) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != models.MaxConfirmationsOfNewAccounts {
		t.Fatalf("accounts a day old without a game finished got %d confirmation mails; want %d", n, models.MaxConfirmationsOfNewAccounts)
	}
	quick := models.MustUser(t, s, "quick") // a game finished, but made now
	seatIn(t, s, tpl, quick)
	ana, err := s.UserNamed("ana")
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []*models.User{ana, quick} {
		if _, err := s.SetEmail(u.ID, u.Username+"@example.test", models.MailEach); !errors.Is(err, models.ErrNewAccountsConfirmed) {
			t.Errorf("%s, new, after them: %v", u.Username, err)
		}
	}
	if _, err := s.SetEmail(old.ID, "old@example.test", models.MailEach); err != nil {
		t.Fatalf("an account a day old with a game finished, after them: %v", err)
	}
}
