package views

import (
	"fmt"
	"time"
)

// ChatVM is a game's table chat as one viewer sees it: a page of its
// messages (the newest, or those before Before) and, for a player, the
// form to write.
type ChatVM struct {
	GameID uint
	CSRF   string
	Lines  []ChatLine
	// Earlier is the message before which the earlier page starts (0:
	// none); Before, the one this page ends before (0: the newest page).
	Earlier, Before uint
	// Version is the newest message shown: the page follows the chat live
	// (Live) from there.
	Version uint
	Live    bool
	// Write: the viewer plays at the table and may write; Mute: they may
	// mute it, or (Muted) have, and see no message.
	Write, Mute, Muted bool
	Max                int    // a message's most characters
	Draft              string // the text of a refused message, kept
	Error              string
	Focus              bool // the writing box takes the focus (after sending)
	Announce           []string
	Unread             int // the header's count of unread messages
}

// ChatLine is one message. A Hidden one shows no text.
type ChatLine struct {
	ID     uint
	Name   string
	Text   string
	At     time.Time
	Mine   bool
	Hidden bool
}

func (vm ChatVM) url() string { return fmt.Sprintf("/games/%d/chat", vm.GameID) }

// liveURL is the chat's refetch, which announces the messages after those
// shown.
func (vm ChatVM) liveURL() string { return fmt.Sprintf("%s?after=%d", vm.url(), vm.Version) }

// eventsURL is the game page's stream: the game's events after the version
// shown, and its chat's after the newest message shown.
func (vm GameVM) eventsURL() string {
	u := fmt.Sprintf("/games/%d/events?since=%d", vm.ID, vm.Version)
	if vm.Chat != nil {
		u += fmt.Sprintf("&chat=%d", vm.Chat.Version)
	}
	return u
}
