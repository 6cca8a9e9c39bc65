package models_test

import (
	"errors"
	"testing"
	"time"

	"cacao/engine"
	"cacao/models"
)

// admin is a user granted the admin role, as from the command line.
func admin(t *testing.T, s *models.Store, name string) *models.User {
	t.Helper()
	models.MustUser(t, s, name)
	u, err := s.SetAdmin(name, true)
	if err != nil || !u.Admin {
		t.Fatalf("granting %s: %+v %v", name, u, err)
	}
	return u
}

// TestBan: a ban needs a reason and spares admins; it refuses the log-in
// with the reason, ends every session and link (the token version moves
// on), cancels the user's tables (the others told), opens the seats they
// took at others' tables and gives their running seats to the bot; the
// audit log keeps it. Lifting it lets them log in again.
func TestBan(t *testing.T) {
	s, _ := openClocked(t)
	root := admin(t, s, "root")
	bob, carol, dan := models.MustUser(t, s, "bob"), models.MustUser(t, s, "carol"), models.MustUser(t, s, "dan")
	running := startDuel(t, s, bob, carol, 24)
	mine, err := s.CreateGame(bob, models.GameSpec{Seats: []string{"@carol", models.SeatOpen}})
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := s.CreateGame(dan, models.GameSpec{Seats: []string{models.SeatOpen, models.SeatOpen}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Join(theirs.ID, "", bob); err != nil {
		t.Fatal(err)
	}
	for _, why := range []string{"", "   ", string(make([]byte, models.MaxReasonLen+1))} {
		if _, err := s.Ban(root, "bob", why); !errors.Is(err, models.ErrNoReason) {
			t.Fatalf("a ban with reason %q: %v", why, err)
		}
	}
	if _, err := s.Ban(root, "root", "testing"); !errors.Is(err, models.ErrBanAdmin) {
		t.Fatalf("banning an admin: %v", err)
	}
	if u := mustUserByID(t, s, bob.ID); u.BannedAt != nil {
		t.Fatal("a refused ban banned")
	}

	signedIn := session(t, s, bob)
	games, err := s.Ban(root, "BOB", "spam in the lobby")
	if err != nil || len(games) != 1 || games[0] != running {
		t.Fatalf("ban: %v %v", games, err)
	}
	u := mustUserByID(t, s, bob.ID)
	if u.BannedAt == nil || u.BanReason != "spam in the lobby" || u.TokenVersion != bob.TokenVersion+1 {
		t.Fatalf("bob after the ban: %+v", u)
	}
	if _, ok, _ := s.Sessions().Find(signedIn); ok {
		t.Fatal("the banned user's session is still stored")
	}
	var banned *models.BannedError
	if _, err := s.Authenticate("bob", "password-bob"); !errors.As(err, &banned) || banned.Reason != "spam in the lobby" {
		t.Fatalf("bob logging in: %v", err)
	}
	if _, err := s.Authenticate("bob", "wrong"); !errors.Is(err, models.ErrBadLogin) {
		t.Fatalf("a wrong password for a banned account tells of the ban: %v", err)
	}
	if st := seatOf(t, s, running, carol); st.UserID == nil {
		t.Fatal("carol lost her seat")
	}
	l := mustLoad(t, s, running)
	for _, st := range l.Seats {
		if st.UserID != nil && *st.UserID == bob.ID {
			t.Fatal("bob still holds his running seat")
		}
	}
	if _, err := s.LoadGame(mine.ID); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("bob's table: %v", err)
	}
	if ns := notesOf(t, s, carol.ID, "cancelled"); len(ns) != 1 || ns[0].Format != "An admin cancelled game %d before it started." {
		t.Fatalf("carol's notices of the cancelled table: %+v", ns)
	}
	for _, st := range mustLoad(t, s, theirs.ID).Seats {
		if st.UserID != nil && *st.UserID == bob.ID {
			t.Fatal("bob still sits at dan's table")
		}
	}
	log, n, err := s.AuditLog(0, 10)
	if err != nil || n != 2 || log[0].Action != models.AuditBan || log[0].AdminName != "root" || log[0].Target != "bob" || log[0].Reason != "spam in the lobby" {
		t.Fatalf("the audit log: %d %+v %v", n, log, err)
	}

	if err := s.Unban(root, "carol"); !errors.Is(err, models.ErrNotBanned) {
		t.Fatalf("lifting a ban nobody has: %v", err)
	}
	if err := s.Unban(root, "bob"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate("bob", "password-bob"); err != nil {
		t.Fatalf("bob after the ban is lifted: %v", err)
	}
	if _, n, _ := s.AuditLog(0, 10); n != 3 {
		t.Fatalf("%d audit lines; want grant, ban, unban", n)
	}
}

// TestEndGame: an admin ends a running game with a reason: it stops where
// it stands, without clocks or a result, nobody can play it, its players
// are told and it is listed with the finished ones; an open table is
// cancelled instead, and a game ended cannot be ended again.
func TestEndGame(t *testing.T) {
	s, clock := openClocked(t)
	root := admin(t, s, "root")
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	id := startDuel(t, s, ana, bob, 24)
	open, err := s.CreateGame(ana, models.GameSpec{Seats: []string{models.SeatOpen}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.EndGame(root, id, ""); !errors.Is(err, models.ErrNoReason) {
		t.Fatalf("ending without a reason: %v", err)
	}
	if err := s.EndGame(root, open.ID, "abuse"); !errors.Is(err, models.ErrNotActive) {
		t.Fatalf("ending a table that has not started: %v", err)
	}
	if err := s.AdminCancel(root, id, "abuse"); !errors.Is(err, models.ErrAdminNotOpen) {
		t.Fatalf("cancelling a running game: %v", err)
	}
	if err := s.EndGame(root, id, "a broken game"); err != nil {
		t.Fatal(err)
	}
	if err := s.EndGame(root, id, "again"); !errors.Is(err, models.ErrNotActive) {
		t.Fatalf("ending twice: %v", err)
	}
	l := mustLoad(t, s, id)
	if l.Game.Status != models.StatusEnded || l.Game.EndReason != "a broken game" {
		t.Fatalf("the ended game: %+v", l.Game)
	}
	for _, st := range l.Seats {
		if st.Deadline != nil || st.WaitingSince != nil {
			t.Fatalf("a seat of the ended game keeps a clock: %+v", st)
		}
	}
	clock.Advance(48 * time.Hour)
	if n := mustTimeouts(t, s); n != 0 {
		t.Fatalf("%d timeouts in an ended game", n)
	}
	mustMoveRefused := func(u *models.User) {
		legal := l.Play.State().LegalPlacements(nil)
		if _, err := s.CommitTurn(id, -1, models.Actor{UserID: u.ID}, engine.Move{Placement: legal[0]}); !errors.Is(err, models.ErrNotActive) {
			t.Fatalf("a move in an ended game: %v", err)
		}
	}
	mustMoveRefused(ana)
	for _, u := range []*models.User{ana, bob} {
		if ns := notesOf(t, s, u.ID, "ended"); len(ns) != 1 {
			t.Fatalf("%s was told %d times", u.Username, len(ns))
		}
	}
	games, running, err := s.MyGames(ana.ID, 0, 10)
	done, finished, err2 := s.MyFinished(ana.ID, models.HistoryFilter{}, 0, 10)
	if err != nil || err2 != nil || running != 1 || len(games) != 1 || finished != 1 || done[0].Game.ID != id {
		t.Fatalf("ana's games: %d running (the open table), %d over (the ended game), %v %v", running, finished, err, err2)
	}
	if err := s.AdminCancel(root, open.ID, "spam"); err != nil {
		t.Fatal(err)
	}
	if ns := notesOf(t, s, ana.ID, "cancelled"); len(ns) != 1 {
		t.Fatalf("ana was told %d times of her cancelled table", len(ns))
	}
	if log, _, _ := s.AuditLog(0, 10); len(log) != 3 || log[0].Action != models.AuditCancel || log[1].Action != models.AuditEnd || log[1].GameID != id {
		t.Fatalf("the audit log: %+v", log)
	}
}

// TestSetAdmin: the role is granted and revoked by name, in any capitals;
// an unknown name is refused; the audit log keeps both.
func TestSetAdmin(t *testing.T) {
	s, _ := openClocked(t)
	models.MustUser(t, s, "ana")
	if _, err := s.SetAdmin("nobody", true); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("granting an unknown user: %v", err)
	}
	if u, err := s.SetAdmin("ANA", true); err != nil || !u.Admin {
		t.Fatalf("granting: %+v %v", u, err)
	}
	if u, err := s.SetAdmin("ana", false); err != nil || u.Admin || mustUserByID(t, s, u.ID).Admin {
		t.Fatalf("revoking: %+v %v", u, err)
	}
	log, _, _ := s.AuditLog(0, 10)
	if len(log) != 2 || log[0].Action != models.AuditRevoke || log[1].Action != models.AuditGrant || log[0].AdminName != "command line" {
		t.Fatalf("the audit log: %+v", log)
	}
}
