package models

// Kind is what a notice (Notification) or a message of the outbox (Mail)
// tells of. Every kind is in kinds, which says which news it is and how it
// goes out; a notice of a kind not there is refused when written
// (notify), never silently dropped at delivery.
type Kind string

// The kinds of notices and outbox messages.
const (
	KindTurn        Kind = "turn"         // it is the player's turn
	KindReaction    Kind = "reaction"     // the player's workers were activated: a choice waits
	KindReminder    Kind = "reminder"     // the player's time runs out soon
	KindTimeout     Kind = "timeout"      // a time ran out
	KindAbandoned   Kind = "abandoned"    // a seat went to the stand-in bot
	KindResigned    Kind = "resigned"     // a player resigned
	KindBack        Kind = "back"         // a player took their seat back from the stand-in
	KindInvited     Kind = "invited"      // an invitation to a table
	KindDeclined    Kind = "declined"     // an invitation declined
	KindWithdrawn   Kind = "withdrawn"    // an invitation withdrawn
	KindStarted     Kind = "started"      // a table started
	KindCancelled   Kind = "cancelled"    // a table cancelled
	KindExpired     Kind = "expired"      // a table's invitations ran out
	KindChat        Kind = "chat"         // a message at one of the player's tables
	KindFinished    Kind = "finished"     // a game is over, scored
	KindEnded       Kind = "ended"        // a game an admin ended without a result
	KindAbortAsk    Kind = "abort-ask"    // a player asks the others to end a game without a result
	KindAborted     Kind = "aborted"      // the players agreed to end a game without a result
	KindFollowed    Kind = "followed"     // a player one follows opened a public table
	KindTourInvited Kind = "tour-invited" // an invitation to a private tournament
	KindTourRound   Kind = "tour-round"   // a tournament's round started: the player's game, or a bye
	KindTourEnded   Kind = "tour-ended"   // a tournament ended: its winner, or cancelled for want of players
	KindTest        Kind = "test"         // a test notice a player sends themselves
	KindOff         Kind = "off"          // a device or webhook was switched off (PostFailed)
	KindVerify      Kind = "verify"       // confirm an email address
	KindReset       Kind = "reset"        // a link to set a new password
	KindDigest      Kind = "digest"       // the daily list of games waiting on the user
)

// kindRule is how the notices of a kind go out.
type kindRule struct {
	news News // the news a player chooses channels for; 0: the account's own (confirmation, reset, digest, switched off, test)
	// delayed is held back by the mail delay, so that a player at the
	// table gets none (it is skipped once they saw it).
	delayed bool
	// seat is about the player's seat: skipped once they left the game.
	seat bool
	// asked is mail the player asked for just now: quiet hours do not
	// hold it (Held).
	asked bool
	// page is where a notice of the kind that names no game leads ("":
	// the site's home).
	page string
}

// kinds is every kind there is.
var kinds = map[Kind]kindRule{
	KindTurn:        {news: NewsTurn, delayed: true, seat: true},
	KindReaction:    {news: NewsChoice, delayed: true, seat: true},
	KindReminder:    {news: NewsReminder, seat: true},
	KindTimeout:     {news: NewsTimeout},
	KindAbandoned:   {news: NewsTimeout},
	KindResigned:    {news: NewsTimeout},
	KindBack:        {news: NewsTimeout},
	KindInvited:     {news: NewsInvitation},
	KindDeclined:    {news: NewsInvitation},
	KindWithdrawn:   {news: NewsInvitation},
	KindStarted:     {news: NewsInvitation},
	KindCancelled:   {news: NewsInvitation},
	KindExpired:     {news: NewsInvitation},
	KindChat:        {news: NewsChat, delayed: true, seat: true},
	KindFinished:    {news: NewsResult},
	KindEnded:       {news: NewsResult},
	KindAbortAsk:    {news: NewsResult},
	KindAborted:     {news: NewsResult},
	KindFollowed:    {news: NewsFollow},
	KindTourInvited: {news: NewsInvitation, page: "/tournaments"},
	KindTourRound:   {news: NewsInvitation, page: "/tournaments"},
	KindTourEnded:   {news: NewsResult, page: "/tournaments"},
	KindTest:        {},
	KindOff:         {},
	KindVerify:      {asked: true},
	KindReset:       {asked: true},
	KindDigest:      {},
}

// Known reports whether k is a kind of kinds.
func (k Kind) Known() bool { _, ok := kinds[k]; return ok }

// Page is where a notice of kind that names no game leads: a page of the
// site ("/tournaments"), or "" for the home page.
func (k Kind) Page() string { return kinds[k].page }

// NewsOf is the news a notice of kind is (0 for the account's own mail:
// confirmation, reset, digest, a test, a channel switched off).
func NewsOf(kind Kind) News { return kinds[kind].news }

// delayed tells the kinds held back by the mail delay.
func delayed(kind Kind) bool { return kinds[kind].delayed }
