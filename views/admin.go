package views

import (
	"context"
	"net/url"
	"time"

	"cacao/views/i18n"
)

// AdminVM is an admin page: one of users, one user, games or the audit
// log. Nothing on these pages shows a hand, a pile or a seed.
type AdminVM struct {
	Page
	Query   string // the users' search
	Users   []AdminUser
	User    *AdminUser // the one user shown
	Games   []AdminGame
	Audit   []AdminAudit
	Reports []AdminReport
	Pager   Pager
	Filter  string // the games list's status ("" for open and running)
}

// AdminUser is a user as the admin pages list them.
type AdminUser struct {
	Name      string
	Since     time.Time
	Admin     bool
	Banned    bool
	BanReason string
	Running   []uint // the running games they sit at (the user's page)
	Guest     bool   // a guest (shown marked)
	Bot       bool   // a bot account (shown marked)
}

// AdminGame is a game as the admin pages list it: who sits there, no
// more.
type AdminGame struct {
	ID      uint
	Status  string
	Players []string
	Created time.Time
}

// AdminReport is a chat message players reported, and how many did.
type AdminReport struct {
	ID      uint
	GameID  uint
	Name    string
	Text    string
	At      time.Time
	Reports int
}

// AdminAudit is a line of the audit log.
type AdminAudit struct {
	At     time.Time
	Admin  string
	Action string
	Target string // a username
	GameID uint   // or a game
	Reason string
}

// AuditAction names an audit log action in words.
func AuditAction(l *i18n.Lang, action string) string {
	switch action {
	case "grant":
		return l.T("made admin")
	case "revoke":
		return l.T("admin role revoked")
	case "ban":
		return l.T("banned")
	case "unban":
		return l.T("ban lifted")
	case "cancel":
		return l.T("table cancelled")
	case "end":
		return l.T("game ended")
	case "hide":
		return l.T("chat message hidden")
	case "dismiss":
		return l.T("chat message kept")
	case "rename":
		return l.T("renamed")
	}
	return action
}

func pathEscape(s string) string { return url.PathEscape(s) }

// adminStatus names a game's status in words.
func adminStatus(ctx context.Context, status string) string {
	switch status {
	case "open":
		return t(ctx, "Waiting for players")
	case "active":
		return t(ctx, "Running")
	case "finished":
		return t(ctx, "Finished")
	}
	return t(ctx, "Ended by an admin")
}
