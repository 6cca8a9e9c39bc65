package models

import (
	"encoding/base64"
	"errors"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// PushSub is a device (a browser) a user asked to be notified on: its
// Web Push subscription.
type PushSub struct {
	ID       uint   `gorm:"primaryKey"`
	UserID   uint   `gorm:"index;not null"`
	Endpoint string `gorm:"uniqueIndex;not null"`
	// P256dh and Auth are the browser's keys, unpadded base64url.
	P256dh    string `gorm:"not null"`
	Auth      string `gorm:"not null"`
	Device    string `gorm:"not null;default:''"` // as the browser names itself, for the list in Settings
	CreatedAt time.Time
	// Failures counts the pushes to the device that failed in a row, the
	// first at FailingSince; OffAt is when it was switched off for that
	// (PostFailed): no push goes to it until it registers again.
	Failures     int `gorm:"not null;default:0"`
	FailingSince *time.Time
	OffAt        *time.Time
}

// MaxPushDevices bounds the devices one user registers.
const MaxPushDevices = 10

// Refusals of a device.
var (
	ErrBadPushSub     = invalid("this browser gave a subscription the site cannot use")
	ErrTooManyDevices = invalid("you have %d devices registered already: remove one first", MaxPushDevices)
)

// AddPushSub registers sub for userID. A browser registered before (the
// same endpoint) moves to userID, with its new keys: it notifies whoever
// signed in on it last; switched off, it is on again.
func (s *Store) AddPushSub(userID uint, sub PushSub) error {
	if !webAddress(sub.Endpoint, 1024) {
		return ErrBadPushSub
	}
	if k, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(sub.P256dh, "=")); err != nil || len(k) != 65 || k[0] != 4 {
		return ErrBadPushSub
	}
	if a, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(sub.Auth, "=")); err != nil || len(a) != 16 {
		return ErrBadPushSub
	}
	sub.Device = strings.ToValidUTF8(sub.Device, "")
	for utf8.RuneCountInString(sub.Device) > 60 {
		_, n := utf8.DecodeLastRuneInString(sub.Device)
		sub.Device = sub.Device[:len(sub.Device)-n]
	}
	sub.ID, sub.UserID, sub.CreatedAt, sub.Failures, sub.FailingSince, sub.OffAt = 0, userID, s.now(), 0, nil, nil
	return s.transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, userID); err != nil { // the devices counted
			return err
		}
		var n int64
		if err := tx.Model(&PushSub{}).Where("user_id = ? AND endpoint <> ?", userID, sub.Endpoint).Count(&n).Error; err != nil {
			return err
		}
		if n >= MaxPushDevices {
			return ErrTooManyDevices
		}
		return tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "endpoint"}},
			DoUpdates: clause.AssignmentColumns([]string{"user_id", "p256dh", "auth", "device", "created_at", "failures", "failing_since", "off_at"})}).Create(&sub).Error
	})
}

// PushSubs lists userID's devices, oldest first.
func (s *Store) PushSubs(userID uint) ([]PushSub, error) {
	var subs []PushSub
	err := s.db.Where("user_id = ?", userID).Order("id").Find(&subs).Error
	return subs, err
}

// RemovePushSub forgets userID's device id (nothing if it is not theirs).
func (s *Store) RemovePushSub(userID, id uint) error {
	return s.w.Where("id = ? AND user_id = ?", id, userID).Delete(&PushSub{}).Error
}

// PushGone forgets a device whose push service says it no longer exists.
func (s *Store) PushGone(id uint) error {
	return s.w.Delete(&PushSub{}, id).Error
}

// pushSub reads the device an outbox message goes to (nil: gone, or
// switched off).
func (s *Store) pushSub(m *Mail) (*PushSub, error) {
	var sub PushSub
	err := s.db.Where("id = ? AND user_id = ? AND off_at IS NULL", m.To, m.UserID).Take(&sub).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	return &sub, err
}

// ErrBadHook refuses a webhook address.
var ErrBadHook = invalid("a webhook is a web address starting with https:// (at most 500 characters)")

// SetHook keeps the user's webhook: "" for none; switched off, it is on
// again. The key its posts are signed with is made at the first.
func (s *Store) SetHook(userID uint, raw string) error {
	raw = strings.TrimSpace(raw)
	if raw != "" {
		if !webAddress(raw, 500) {
			return ErrBadHook
		}
	}
	secret, err := newKey()
	if err != nil {
		return err
	}
	return s.transaction(func(tx *gorm.DB) error {
		err := tx.Model(&User{}).Where("id = ?", userID).Updates(map[string]any{"hook_url": raw, "hook_failures": 0, "hook_failing_since": nil, "hook_off_at": nil}).Error
		if err != nil {
			return err
		}
		return tx.Model(&User{}).Where("id = ? AND hook_secret IS NULL", userID).Update("hook_secret", secret).Error
	})
}

// webAddress reports whether raw is an http(s) address with a host and no
// user, at most max bytes long (the handlers require https outside tests,
// and the poster refuses private addresses when it connects).
func webAddress(raw string, max int) bool {
	u, err := url.Parse(raw)
	return err == nil && len(raw) <= max && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.User == nil
}

// A device or webhook is switched off once OffAfterFailures posts to it
// in a row have failed (no answer in time, or another error worth a
// retry), the first at least OffAfter before the last.
const (
	OffAfterFailures = 5
	OffAfter         = time.Hour
)

// HookOn reports whether news goes to the user's webhook: they gave one,
// and it is not switched off.
func (u *User) HookOn() bool { return u.HookURL != "" && u.HookOffAt == nil }

// postTarget is the row of the device or webhook post m goes to, in tx,
// and the prefix of its columns failures, failing_since and off_at.
func postTarget(tx *gorm.DB, m *Mail) (func() *gorm.DB, string) {
	if m.Channel == ChanPush {
		return func() *gorm.DB { return tx.Model(&PushSub{}).Where("id = ? AND user_id = ?", m.To, m.UserID) }, ""
	}
	return func() *gorm.DB { return tx.Model(&User{}).Where("id = ? AND hook_url <> ''", m.UserID) }, "hook_"
}

// PostFailed records a failed attempt at post m (a push or a webhook
// post), as MailRetry does, and counts it against the device or webhook.
// One that failed OffAfterFailures times in a row over OffAfter is
// switched off, once (guarded in the database): m is skipped, and its
// player told by a site notice. It reports whether it switched one off.
func (s *Store) PostFailed(m *Mail, cause error) (off bool, err error) {
	now := s.now()
	err = s.transaction(func(tx *gorm.DB) error {
		off = false
		target, p := postTarget(tx, m)
		err := target().Updates(map[string]any{p + "failures": gorm.Expr(p + "failures + 1"), p + "failing_since": gorm.Expr("COALESCE("+p+"failing_since, ?)", now)}).Error
		if err != nil {
			return err
		}
		res := target().Where(p+"off_at IS NULL AND "+p+"failures >= ? AND "+p+"failing_since <= ?", OffAfterFailures, now.Add(-OffAfter)).Update(p+"off_at", now)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return tx.Model(&Mail{}).Where("id = ?", m.ID).Updates(s.retry(m, cause)).Error
		}
		off = true
		var n Mail
		if m.Channel == ChanPush {
			n, err = newsOf(KindOff, 0, "Notices to one of your devices are switched off: none went through for over an hour. Settings lists it; to switch it back on, choose Notify this device on it.")
		} else {
			n, err = newsOf(KindOff, 0, "Posts to your webhook are switched off: none went through for over an hour. To switch them back on, save the webhook again in Settings.")
		}
		if err != nil {
			return err
		}
		err = tx.Create(&Notification{UserID: m.UserID, Kind: KindOff, Text: n.Text, Format: n.Format, Args: n.Args, CreatedAt: now}).Error
		if err != nil {
			return err
		}
		return tx.Model(&Mail{}).Where("id = ?", m.ID).Updates(map[string]any{"status": MailSkipped, "last_error": "switched off: " + cause.Error()}).Error
	})
	return off, err
}

// postWent starts the count of failures of the device or webhook post m
// went to again.
func postWent(tx *gorm.DB, m *Mail) error {
	target, p := postTarget(tx, m)
	return target().Where(p + "failures > 0").Updates(map[string]any{p + "failures": 0, p + "failing_since": nil}).Error
}
