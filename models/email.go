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
	// An account younger than NewAccountAge is sent one only while the
	// site sent fewer than MaxConfirmationsOfNewAccounts that day: a
	// stranger opens accounts by the hundred in minutes, from a few
	// addresses, but not accounts a day old; the rest of the day's mails
	// stay for those (a password reset needs a confirmed address).
	MaxConfirmationsOfNewAccounts = 200
	NewAccountAge                 = 24 * time.Hour
)

// Refusals of a confirmation mail past its limits.
var (
	ErrTooManyConfirmations = invalid("too many confirmation mails today: try another address tomorrow")
	ErrTooManyToAddress     = invalid("that address was sent confirmation mails already today: try again tomorrow")
	ErrNewAccountsConfirmed = invalid("new accounts have been sent all the confirmation mails they may have today: try again once your account is a day old")
)

// checkConfirmations refuses a confirmation mail to address for u past
// the limits of the day before now.
func checkConfirmations(tx *gorm.DB, u *User, address string, now time.Time) error {
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
	if all >= MaxConfirmationsOfNewAccounts && now.Sub(u.CreatedAt) < NewAccountAge {
		return ErrNewAccountsConfirmed
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
		if err := s.lockUser(tx, userID); err != nil {
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
			if err := checkConfirmations(tx, &u, address, now); err != nil {
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
