package models

import (
	"slices"

	"gorm.io/gorm"
)

// people is what one transaction's notices and clocks need of users: their
// choices of news, devices and vacation, read in the transaction, each user
// once.
type people struct {
	tx   *gorm.DB
	m    map[uint]User
	subs map[uint][]uint // the users' devices switched on (PushSub ids)
}

// peopleIn reads in tx the settings of the users seated or invited at
// seats, and of more.
func peopleIn(tx *gorm.DB, seats []Seat, more ...uint) (*people, error) {
	ids := slices.Clone(more)
	for _, seat := range seats {
		if seat.UserID != nil {
			ids = append(ids, *seat.UserID)
		}
		if seat.InvitedID != nil {
			ids = append(ids, *seat.InvitedID)
		}
	}
	p := &people{tx: tx, m: map[uint]User{}, subs: map[uint][]uint{}}
	return p, p.read(ids)
}

// get returns user id's settings, reading them when they were not read.
func (p *people) get(id uint) (User, error) {
	if u, ok := p.m[id]; ok {
		return u, nil
	}
	if err := p.read([]uint{id}); err != nil {
		return User{}, err
	}
	u, ok := p.m[id]
	if !ok {
		return User{}, ErrNotFound
	}
	return u, nil
}

func (p *people) read(ids []uint) error {
	if len(ids) == 0 {
		return nil
	}
	var us []User
	err := p.tx.Select("id", "username", "email", "email_verified", "vacation_until", "app_news", "mail_news", "push_news", "hook_news", "digest_news", "hook_url", "hook_off_at", "guest", "bot_account").
		Where("id IN ?", ids).Find(&us).Error
	if err != nil {
		return err
	}
	for _, u := range us {
		p.m[u.ID] = u
	}
	var subs []PushSub
	if err := p.tx.Select("id", "user_id").Where("user_id IN ? AND off_at IS NULL", ids).Order("id").Find(&subs).Error; err != nil {
		return err
	}
	for _, sub := range subs {
		p.subs[sub.UserID] = append(p.subs[sub.UserID], sub.ID)
	}
	return nil
}
