package models

import "time"

// User is an account.
type User struct {
	ID       uint   `gorm:"primaryKey"`
	Username string `gorm:"uniqueIndex;size:32;not null"`
	// NameKey is what the name shares with names that look like it
	// (nameKey): unique, so that two look-alike names cannot both be
	// made, even at once. nil on an account from before whose name looks
	// like an older account's (or a newer one's that took the key while
	// the keys were filled).
	NameKey      *string `gorm:"uniqueIndex;size:100"`
	PasswordHash []byte  `gorm:"not null"`
	CreatedAt    time.Time
	// Lang is the language the user chose for the site ("" follows the
	// browser's).
	Lang string `gorm:"not null;default:''"`
	// Email is where mail goes once EmailVerified.
	Email         string
	EmailVerified bool `gorm:"not null;default:false"`
	// The events (a set of Event bits) the user wants news of by each
	// channel: the site's notices, mail, push to their devices, their
	// webhook, the daily digest. By default all but chat in the site (the
	// chat's unread marks tell of it there), all but chat and the tables of
	// those followed by mail, all by push and webhook, none in a digest:
	// newNews sets them. (The columns' defaults are those of before
	// NewsFollow: a changed default would have GORM make the table anew,
	// which SQLite's foreign keys would see as its rows deleted.)
	AppNews    News `gorm:"not null;default:95"`
	MailNews   News `gorm:"not null;default:95"`
	PushNews   News `gorm:"not null;default:127"`
	HookNews   News `gorm:"not null;default:127"`
	DigestNews News `gorm:"not null;default:0"`
	// HookURL is the user's webhook ("" for none), HookSecret the key its
	// posts are signed with.
	HookURL      string `gorm:"not null;default:''"`
	HookSecret   []byte
	LastDigestAt *time.Time
	// DigestHour is the hour of the day, in TimeZone, the daily digest is
	// sent at (0–23).
	DigestHour int `gorm:"not null;default:8"`
	// QuietFrom and QuietTo are the user's quiet hours, in TimeZone: from
	// the start of hour QuietFrom to the start of QuietTo (past midnight
	// when QuietTo is smaller) mail waits; equal, there are none.
	QuietFrom int `gorm:"not null;default:0"`
	QuietTo   int `gorm:"not null;default:0"`
	// TimeZone is the user's time zone, an IANA name ("Europe/Paris"; ""
	// is UTC): the dates the site shows them and the digest hour are in it.
	TimeZone string `gorm:"not null;default:''"`
	// VacationUntil pauses the user's turn clocks until then. VacationDays
	// is how many days of VacationYear's allowance are used.
	VacationUntil *time.Time
	VacationYear  int `gorm:"not null;default:0"`
	VacationDays  int `gorm:"not null;default:0"`
	// AutoDecide is the standing policy "always decide for me" (the rules'
	// "Time limits and vacations"): a batch of the user's that needs a decision is resolved at
	// once with the best-value choice, the most gold, then the most fruit.
	AutoDecide bool `gorm:"not null;default:false"`
	// BoardSize is how the user likes the board drawn: "fit", "large", or
	// "" for normal.
	BoardSize string `gorm:"not null;default:''"`
	// HideLastSeen keeps when the user was last on the site from those who
	// follow them.
	HideLastSeen bool `gorm:"not null;default:false"`
	// TablesToldAt is when the user's followers were last told of a public
	// table of theirs (tellFollowers).
	TablesToldAt *time.Time
	// TokenVersion moves on when the password changes or the user signs
	// out everywhere: a session or a mail sign-in link made at another
	// version no longer signs them in.
	TokenVersion int `gorm:"not null;default:0"`
	// Admin users may ban users and cancel or end games (cacao admin
	// grant). A banned user (BannedAt) cannot log in; BanReason says why.
	Admin     bool `gorm:"not null;default:false"`
	BannedAt  *time.Time
	BanReason string `gorm:"not null;default:''"`
	// Rating, RatingDev and RatingVol are the user's Glicko-2 rating
	// (package rating) in two-player games, from RatedGames games, the last
	// ending at RatedAt; the Multi ones are their rating in games of three
	// or four, apart (Format).
	Rating          float64 `gorm:"not null;default:1500"`
	RatingDev       float64 `gorm:"not null;default:350"`
	RatingVol       float64 `gorm:"not null;default:0.06"`
	RatedGames      int     `gorm:"not null;default:0"`
	RatedAt         *time.Time
	MultiRating     float64 `gorm:"not null;default:1500"`
	MultiRatingDev  float64 `gorm:"not null;default:350"`
	MultiRatingVol  float64 `gorm:"not null;default:0.06"`
	MultiRatedGames int     `gorm:"not null;default:0"`
	MultiRatedAt    *time.Time
	// HookFailures counts the posts to the webhook that failed in a row,
	// the first at HookFailingSince; HookOffAt is when it was switched off
	// for that (PostFailed): no post goes to it until it is set again.
	HookFailures     int `gorm:"not null;default:0"`
	HookFailingSince *time.Time
	HookOffAt        *time.Time
	// Guest marks a player without an account (CreateGuest): no password,
	// signed in by one session for GuestLife, plays bots and the seats
	// they are invited to, unrated, told of news on the site only.
	Guest bool `gorm:"not null;default:false"`
	// BotAccount marks an account a program plays through the API
	// (botaccounts.go): set only before it played a rated game, and for
	// good. BotOpen: its owner lets others seat it at their tables.
	BotAccount bool `gorm:"not null;default:false"`
	BotOpen    bool `gorm:"not null;default:false"`
}

// OnVacation reports whether the user's clocks are paused at now.
func (u *User) OnVacation(now time.Time) bool {
	return u.VacationUntil != nil && now.Before(*u.VacationUntil)
}

// Game statuses.
const (
	StatusOpen     = "open"     // waiting for players to fill the seats
	StatusActive   = "active"   // being played
	StatusFinished = "finished" // scored
	StatusEnded    = "ended"    // stopped where it stood, without a result: by an admin (EndReason) or its players (Aborted)
)

// Game is a game and its secret setup. Version grows by one with every
// committed change (a turn, a resolution, a join): a submit names the version
// it was made on, so two submits of the same turn commit once.
type Game struct {
	ID          uint   `gorm:"primaryKey"`
	Status      string `gorm:"index;index:idx_games_scored,priority:1;not null"`
	NumPlayers  int    `gorm:"not null"`
	CreatorID   uint   `gorm:"not null;uniqueIndex:idx_games_form_key,priority:1"`
	InviteToken string `gorm:"uniqueIndex;not null"`
	// Setup is the engine setup as the record's setup object. Never shown
	// while the game runs: it holds every pile's order.
	Setup   string
	First   int
	Version int `gorm:"not null;default:0"`
	// TurnHours is the time each seat has for a turn or a choice; 0 means
	// no limit. Chosen at creation: 0, 24, 72 or 168.
	TurnHours int `gorm:"not null;default:0"`
	// StandIn is the bot that plays for a person who ran out of time,
	// resigned or is away (a bot kind the store seats; DefaultStandIn
	// unless the creator chose another).
	StandIn string `gorm:"not null;default:'medium'"`
	// Private tables are not listed in the lobby: their open seats are
	// taken through the invitation link (or by those invited by name).
	Private bool `gorm:"not null;default:false"`
	// FormKey is the key of the form that made the table (GameSpec.FormKey,
	// nil: none), one table a key and creator.
	FormKey *string `gorm:"size:64;uniqueIndex:idx_games_form_key,priority:2"`
	// Invites is how many players the creator invited by name at creation
	// (MaxInvitesPerDay counts them).
	Invites    int `gorm:"not null;default:0"`
	CreatedAt  time.Time
	UpdatedAt  time.Time
	StartedAt  *time.Time
	FinishedAt *time.Time // or when it was ended without a result
	// An ended game was stopped without a result: by an admin, who said
	// why (EndReason), or by its players' agreement (Aborted, AskAbort).
	EndReason string `gorm:"not null;default:''"`
	Aborted   bool   `gorm:"not null;default:false"`
	// RematchOf is the game this one is the rematch of (0: none); its
	// play order is that game's, turned by one. RematchID is this game's
	// rematch, once a player proposed it.
	RematchOf uint `gorm:"index;not null;default:0"`
	RematchID *uint
	// TournamentID is the tournament whose round TourRound this game is
	// (0: none): its seats were paired, its play order is their order.
	TournamentID uint `gorm:"index:idx_games_tournament,priority:1;not null;default:0"`
	TourRound    int  `gorm:"index:idx_games_tournament,priority:2;not null;default:0"`
	// LastChat is the newest message of the game's chat (0: none), so that
	// a page of a game without one asks nothing more of it.
	LastChat uint `gorm:"not null;default:0"`
	// Scored: the seats of the finished game have their places and scores
	// (games finished before those were kept get them later).
	Scored bool   `gorm:"index:idx_games_scored,priority:2;not null;default:false"`
	Seats  []Seat `gorm:"constraint:OnDelete:CASCADE"`
}

// Seat is a place at a game: a user, a bot or still open. Slot is the order in
// which seats were offered; Index is the engine seat (play order) assigned at
// random when the game starts (-1 before).
type Seat struct {
	ID     uint  `gorm:"primaryKey"`
	GameID uint  `gorm:"index;not null"`
	Slot   int   `gorm:"not null"`
	Index  int   `gorm:"not null;default:-1"`
	UserID *uint `gorm:"index;index:idx_seats_user_chat,priority:1"`
	User   *User `gorm:"constraint:OnDelete:SET NULL"`
	Bot    string
	// Name is shown to everyone: the username or the bot's name.
	Name string
	// Guest: the seat's player is a guest (User.Guest), shown so beside
	// the name; cleared when they make an account.
	Guest bool `gorm:"not null;default:false"`
	// Robot: the seat's player is a bot account (User.BotAccount), shown
	// so beside the name.
	Robot bool `gorm:"not null;default:false"`
	// InvitedID reserves an open seat for one user, who was invited to it.
	InvitedID *uint `gorm:"index"`
	// ResignedID is the user who held the seat and resigned: the stand-in bot
	// plays it to the end (Bot), under their name.
	ResignedID *uint `gorm:"index"`
	// Abandoned seats are played by the stand-in bot until their player
	// (still UserID) takes them back; Timeouts counts the seat's timeouts
	// since its player last acted (AbandonAfter abandons it).
	Abandoned bool `gorm:"not null;default:false"`
	Timeouts  int  `gorm:"not null;default:0"`
	// WaitingSince is when this seat last started being waited on (its turn
	// or a pending choice); nil when nobody waits on it.
	WaitingSince *time.Time
	// Deadline is when a waited-on seat times out (nil without a limit);
	// RemindAt is when its player is reminded, Reminded once that is done.
	Deadline *time.Time `gorm:"index"`
	RemindAt *time.Time `gorm:"index"`
	Reminded bool       `gorm:"not null;default:false"`
	// SeenSeq is how many log entries the seat's player had seen when they
	// last opened the game, at SeenAt.
	SeenSeq int `gorm:"not null;default:0"`
	SeenAt  *time.Time
	// ChatUnread is how many messages of the game's chat the seat's player
	// has not seen; ChatMuted, that they muted it (it counts none).
	ChatUnread int  `gorm:"index:idx_seats_user_chat,priority:2;not null;default:0"`
	ChatMuted  bool `gorm:"not null;default:false"`
	// AbortTurn is the turn (of the game's count) at which the seat's
	// player agreed to end the game without a result (AskAbort): the
	// agreement holds while the game stays at that turn.
	AbortTurn *int
	// Once the game is finished: the seat's place (1 first; ties share
	// one) and total, and its player's rating before and after the game
	// (0: not rated). TimedOut counts the seat's timeouts.
	Place     int     `gorm:"not null;default:0"`
	Score     int     `gorm:"not null;default:0"`
	RatedFrom float64 `gorm:"not null;default:0"`
	RatedTo   float64 `gorm:"not null;default:0"`
	TimedOut  int     `gorm:"not null;default:0"`
}

// Player is who plays or played the seat: its user, or the user who
// resigned it (nil: a bot, an open seat, or an account since deleted).
func (s Seat) Player() *uint {
	if s.ResignedID != nil {
		return s.ResignedID
	}
	return s.UserID
}

// Open reports whether nobody has taken the seat.
func (s Seat) Open() bool { return s.UserID == nil && s.Bot == "" }

// FreeFor reports whether user may take the seat: it is open and not
// reserved for someone else.
func (s Seat) FreeFor(user uint) bool {
	return s.Open() && (s.InvitedID == nil || *s.InvitedID == user)
}

// Log entry kinds.
const (
	LogTurn    = "turn"    // a committed turn: Data is its record turn object (engine.MarshalTurn)
	LogResolve = "resolve" // a resolved batch: Data is its acts; Turn the turn that caused it
	LogResign  = "resign"  // the seat's player resigned: the stand-in bot plays it from here; no Data
	LogAbandon = "abandon" // the stand-in bot plays the seat until its player takes it back; Data {"by": seat that handed it over, or -1 after timeouts}
	LogBack    = "back"    // the seat's player took their abandoned seat back; no Data
)

// LogEntry is one line of a game's append-only log: a committed turn, or a
// player's resolution of a pending batch, with who made it and when. Seq is
// unique per game, so the same change cannot be written twice.
type LogEntry struct {
	ID     uint   `gorm:"primaryKey"`
	GameID uint   `gorm:"uniqueIndex:idx_log_game_seq;not null"`
	Seq    int    `gorm:"uniqueIndex:idx_log_game_seq;not null"`
	Kind   string `gorm:"not null"`
	Seat   int    `gorm:"not null"`
	Turn   int    `gorm:"not null"`
	UserID *uint
	// Version is the game's version once the entry was committed: a read
	// that took the game row at version v takes the entries up to v.
	Version int `gorm:"not null;default:0"`
	// Timeout marks a change the stand-in bot made for a seat whose time ran out.
	Timeout bool `gorm:"not null;default:false"`
	// Auto marks a choice made at once for a player whose standing policy
	// is "always decide for me" (not a move they made themselves).
	Auto bool `gorm:"not null;default:false"`
	// Stand marks a change the stand-in bot made for an abandoned seat.
	Stand     bool   `gorm:"not null;default:false"`
	Data      string `gorm:"not null"`
	CreatedAt time.Time
}

// Notification is a message for a user about a game.
type Notification struct {
	ID        uint   `gorm:"primaryKey"`
	UserID    uint   `gorm:"index:idx_notifications_user_read,priority:1;not null"`
	GameID    uint   `gorm:"index"`
	Kind      Kind   `gorm:"not null"`
	Text      string `gorm:"not null"` // in English
	Format    string // the message Text was made from, a key of the translations; "" in old rows
	Args      string // its arguments, a JSON array
	Read      bool   `gorm:"index:idx_notifications_user_read,priority:2;not null;default:false"`
	CreatedAt time.Time
}

// Mail is a message in the outbox. It is written in the same transaction
// as the change it tells about, and delivered later by a worker with
// retries, so a crash or a mail server outage loses nothing. To is empty
// for mail that goes to the user's verified address as it is when sent.
type Mail struct {
	ID     uint `gorm:"primaryKey"`
	UserID uint `gorm:"index;not null"`
	GameID uint `gorm:"not null;default:0"`
	Kind   Kind `gorm:"not null;index:idx_mail_kind_created,priority:1"`
	// Channel is how it goes: ChanMail, ChanPush (To is the PushSub's id),
	// ChanHook, or ChanDigest (a line waiting, status MailForDigest, for
	// the user's next digest).
	Channel     string `gorm:"not null;default:mail"`
	Text        string `gorm:"not null"` // in English
	Format      string // the message Text was made from, as Notification's
	Args        string
	To          string
	Key         *string   `gorm:"uniqueIndex"` // dedupes digests and the like
	Status      string    `gorm:"index:idx_mail_due,priority:1;not null"`
	NextAttempt time.Time `gorm:"index:idx_mail_due,priority:2;not null"`
	Attempts    int       `gorm:"not null;default:0"`
	LastError   string
	CreatedAt   time.Time `gorm:"index:idx_mail_kind_created,priority:2"`
	SentAt      *time.Time
}

// Mail statuses.
const (
	MailPending = "pending"
	MailSent    = "sent"
	MailSkipped = "skipped" // no longer wanted when its time came (seen, unsubscribed, ...)
	MailFailed  = "failed"  // gave up after MailGiveUp of retries
	// MailForDigest is a line for the user's next digest, sent with it.
	MailForDigest = "for-digest"
)

// Setting is a site-wide value kept in the database (the link-signing key).
type Setting struct {
	Key   string `gorm:"primaryKey"`
	Value []byte `gorm:"not null"`
}

// Session is an scs session row.
type Session struct {
	Token  string    `gorm:"primaryKey;size:64"`
	Data   []byte    `gorm:"not null"`
	Expiry time.Time `gorm:"index;not null"`
}

// Invitation is one player invited by name, kept a day for
// MaxInvitesPerDay (the table may be gone by then).
type Invitation struct {
	ID        uint      `gorm:"primaryKey"`
	CreatorID uint      `gorm:"index:idx_invitations_creator,priority:1;not null"`
	InviteeID uint      `gorm:"index;not null;default:0"`
	CreatedAt time.Time `gorm:"index:idx_invitations_creator,priority:2;not null"`
}

// Block says that UserID takes no invitation from BlockedID.
type Block struct {
	UserID    uint `gorm:"primaryKey;autoIncrement:false"`
	BlockedID uint `gorm:"primaryKey;autoIncrement:false"`
	CreatedAt time.Time
}
