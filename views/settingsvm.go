package views

// SettingsVM is the settings page: email and vacation.
type SettingsVM struct {
	Page
	Email         string
	Verified      bool
	Channels      []string  // the channels of news, in the table's order
	News          []NewsRow // the news the viewer wants, by channel
	Devices       []DeviceLine
	PushKey       string // the site's VAPID public key, for app.js
	HookURL       string
	HookForm      string // how the webhook is posted: "ntfy", "discord" or "json"
	HookSecret    string // hex: what its posts are signed with
	HookOff       string // when it was switched off, its posts failing ("" when on)
	DigestHour    int    // 0–23, in TimeZone
	QuietFrom     int    // quiet hours, in TimeZone (equal: none)
	QuietTo       int
	TimeZone      string // an IANA name; "" is UTC
	Now           string // the time now in TimeZone, to check the choice by
	VacationUntil string // "" when not on vacation
	VacationLeft  int
	VacationMax   int
	AutoDecide    bool     // the viewer's standing policy: choices made at once with the best value
	Blocked       []string // the players who may not invite the viewer
	Logins        []LoginLine
	HideLastSeen  bool
	Tokens        []TokenLine // the viewer's access tokens, newest first
	// NewToken is the text of the token just made, shown this once, and
	// NewTokenName its name ("" when none was made).
	NewToken, NewTokenName string
	// Bot: the viewer's account is a bot account; BotOpen, others may
	// seat it.
	Bot, BotOpen bool
	Error        string
}

// NewsRow is one kind of news in Settings: which channels bring it.
type NewsRow struct {
	Name, Label string
	Cells       []NewsCell // in SettingsVM.Channels' order
}

// NewsCell is one box of the table: Fixed ones are not a choice. A
// channel with Nowhere to send yet (no address, device or webhook) shows
// its boxes off and disabled, and keeps the choice (On) for when it has.
type NewsCell struct {
	Channel            string
	On, Fixed, Nowhere bool
}

// DeviceLine is one of the viewer's devices that push notifies.
type DeviceLine struct {
	ID            uint
	Device, Added string
	Off           string // when it was switched off, its pushes failing ("" when on)
}

// LoginLine is one of the viewer's signed-in sessions: ID names it to
// sign it out (models.LoginID); Device is "" (or "?", as older sessions
// were stored) for a browser the site cannot name.
type LoginLine struct {
	ID       string
	Device   string
	LastSeen string
	Current  bool // this browser's
}

// TokenLine is one of the viewer's access tokens: ID names it to revoke
// it; Scopes are models.Scopes' names; Used is "" for never.
type TokenLine struct {
	ID         uint
	Name       string
	Scopes     []string
	Made, Used string
}
