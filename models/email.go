package models

import (
	"net/mail"
	"strings"
	"time"

	"gorm.io/gorm"
)

// Confirmation mails: at most so many a day to one account, to one address
// (from all accounts together: nobody can mail a stranger over and over
// from many free accounts), and from the whole site.
const (
	MaxConfirmationsPerAccount = 3
	MaxConfirmationsPerAddress = 2
	MaxConfirmationsPerDay     = 500
	// A new account (not established: less than RatedAge old, or without
	// a game finished in its own seat) is sent one only while the site
	// sent fewer than MaxConfirmationsOfNewAccounts that day; the other
	// 300 stay for the players with a game behind them (a password reset
	// needs a confirmed address). A stranger with 40 addresses (5 mails a
	// day each: handlers' confirmations limit) can use up the new
	// accounts' share, day after day, however early they made the
	// accounts; the rest they reach only by playing a game to its end
	// with each account, in its own seat (a bounded number of games an
	// hour), and waiting a day.
	MaxConfirmationsOfNewAccounts = 200
)

// Refusals of a confirmation mail past its limits.
var (
	ErrTooManyConfirmations = invalid("too many confirmation mails today: try another address tomorrow")
	ErrTooManyToAddress     = invalid("that address was sent confirmation mails already today: try again tomorrow")
	ErrNewAccountsConfirmed = invalid("new players have been sent all the confirmation mails they may have today: try again tomorrow, or once your account is a day old and you have finished a game")
)

// checkConfirmations refuses a confirmation mail to address for u past
// the limits of the day before now.
func (s *Store) checkConfirmations(tx *gorm.DB, u *User, address string, now time.Time) error {
	day := tx.Model(&Mail{}).Where("kind = ? AND created_at > ?", KindVerify, now.Add(-24*time.Hour))
	var all, mine, to int64
	if err := day.Session(&gorm.Session{}).Count(&all).Error; err != nil {
		return err
	}
	if err := day.Session(&gorm.Session{}).Where("user_id = ?", u.ID).Count(&mine).Error; err != nil {
		return err
	}
	if all >= MaxConfirmationsPerDay || mine >= MaxConfirmationsPerAccount {
		return ErrTooManyConfirmations
	}
	if all >= MaxConfirmationsOfNewAccounts {
		old, err := s.established(tx, u, 0)
		if err != nil {
			return err
		}
		if !old {
			return ErrNewAccountsConfirmed
		}
	}
	if err := day.Session(&gorm.Session{}).Where("lower(\"to\") = lower(?)", address).Count(&to).Error; err != nil {
		return err
	}
	if to >= MaxConfirmationsPerAddress {
		return ErrTooManyToAddress
	}
	return nil
}

// SetEmail sets user's address and, unless preset is "", the mail they
// want: none (MailOff), an email for each event (MailEach) or a daily
// digest (MailDigest). A new address is unverified until its owner
// follows the link in the verification mail queued here.
func (s *Store) SetEmail(userID uint, address, preset string) (*User, error) {
	address = strings.TrimSpace(address)
	mailNews, digestNews, ok := mailPreset(preset)
	if !ok && preset != "" {
		return nil, invalid("choose no email, an email for each event, or a daily digest")
	}
	if address != "" {
		a, err := mail.ParseAddress(address)
		if err != nil || a.Address != address || len(address) > 254 {
			return nil, invalid("“%s” is not an email address", address)
		}
	}
	if address == "" && preset != MailOff && preset != "" {
		return nil, invalid("give an email address to get email")
	}
	var u User
	err := s.transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, userID); err != nil {
			return err
		}
		if err := tx.Take(&u, userID).Error; err != nil {
			return err
		}
		changed := u.Email != address
		u.Email = address
		if changed {
			u.EmailVerified = false
		}
		upd := map[string]any{"email": u.Email, "email_verified": u.EmailVerified}
		if preset != "" {
			u.MailNews, u.DigestNews = mailNews, digestNews
			upd["mail_news"], upd["digest_news"] = int(mailNews), int(digestNews)
		}
		if err := tx.Model(&User{}).Where("id = ?", u.ID).Updates(upd).Error; err != nil {
			return err
		}
		if changed && address != "" {
			if err := s.lockCounting(tx, confirmationsLock); err != nil {
				return err
			}
			now := s.now()
			if err := s.checkConfirmations(tx, &u, address, now); err != nil {
				return err
			}
			return tx.Create(&Mail{UserID: u.ID, Kind: KindVerify, To: address, Text: "Confirm your email address",
				Status: MailPending, NextAttempt: now, CreatedAt: now}).Error
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// VerifyEmail marks address verified for user, if it is still their address.
func (s *Store) VerifyEmail(userID uint, address string) error {
	res := s.w.Model(&User{}).Where("id = ? AND email = ? AND email <> ''", userID, address).Update("email_verified", true)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return invalid("this link is for an address that is no longer yours")
	}
	return nil
}

// Unsubscribe turns all of user's email off, each and digest (one click
// from any mail).
func (s *Store) Unsubscribe(userID uint) error {
	return s.w.Model(&User{}).Where("id = ?", userID).Updates(map[string]any{"mail_news": 0, "digest_news": 0}).Error
}
