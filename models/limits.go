package models

import (
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Limit is the state of one rate limit key (LimitRule), kept in the
// database so that every instance of the site counts the same tries.
type Limit struct {
	Key string `gorm:"primaryKey;size:200"`
	// Tokens is a bucket's level at Last; Tries a back-off's run of tries,
	// the last at Last.
	Tokens float64 `gorm:"not null;default:0"`
	Tries  int     `gorm:"not null;default:0"`
	Last   time.Time
}

// LimitRule is a limit: a bucket of Burst tries that refills one every
// Every; or, with Backoff, Burst tries and then a wait that doubles with
// each further try (from Backoff, at most Every), forgotten after Every
// without a try.
type LimitRule struct {
	Burst   int
	Every   time.Duration
	Backoff time.Duration
}

// LimitKey is one thing limited (an address's sign-ups, a user's hints)
// under its rule.
type LimitKey struct {
	Key  string
	Rule LimitRule
}

// wait is how long a try on k must wait at now, from its state st (nil:
// never tried).
func (k LimitKey) wait(st *Limit, now time.Time) time.Duration {
	r := k.Rule
	if st == nil {
		return 0
	}
	if r.Backoff == 0 {
		tokens := k.tokens(st, now)
		if tokens >= 1 {
			return 0
		}
		return time.Duration((1 - tokens) * float64(r.Every))
	}
	if now.Sub(st.Last) >= r.Every || st.Tries < r.Burst {
		return 0 // a quiet spell forgets the run
	}
	d := r.Every
	if n := st.Tries - r.Burst; n < 20 {
		d = min(r.Every, r.Backoff<<n)
	}
	return max(0, st.Last.Add(d).Sub(now))
}

// tokens is k's bucket level at now.
func (k LimitKey) tokens(st *Limit, now time.Time) float64 {
	if st == nil {
		return float64(k.Rule.Burst)
	}
	return min(float64(k.Rule.Burst), st.Tokens+float64(now.Sub(st.Last))/float64(k.Rule.Every))
}

// LimitWait returns how long tries on keys must wait (0: go ahead). With
// LimitSpend it is for a limit on what is known only once the work is done
// (a failed log-in); a limit on the work itself is taken with LimitTake.
func (s *Store) LimitWait(keys ...LimitKey) (time.Duration, error) {
	now := s.now()
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.Key
	}
	var rows []Limit
	if err := s.db.Where("key IN ?", names).Find(&rows).Error; err != nil {
		return 0, err
	}
	var d time.Duration
	for _, k := range keys {
		var st *Limit
		for i := range rows {
			if rows[i].Key == k.Key {
				st = &rows[i]
			}
		}
		d = max(d, k.wait(st, now))
	}
	return d, nil
}

// LimitSpend counts a try on keys (a failed log-in), all in one
// transaction with the keys' rows locked, so that two instances do not
// both take the last try.
func (s *Store) LimitSpend(keys ...LimitKey) error {
	return s.transaction(func(tx *gorm.DB) error {
		for _, k := range keys {
			if _, err := s.limitTry(tx, k, false); err != nil {
				return err
			}
		}
		return nil
	})
}

// LimitTake takes a try on k if it may go now, and otherwise returns how
// long it must wait: the check and the count in one step, before the work
// it guards (a game opened, a sign-up, a webhook's post), so that tries at
// once cannot pass the limit together. A try that must wait is refused by
// a read alone, without a transaction: in a flood most are, and on SQLite
// each write waits for the one writer, ahead of the players' moves. The
// transaction checks again.
func (s *Store) LimitTake(k LimitKey) (time.Duration, error) {
	if wait, err := s.LimitWait(k); err != nil || wait > 0 {
		return wait, err
	}
	var wait time.Duration
	err := s.transaction(func(tx *gorm.DB) error {
		var err error
		wait, err = s.limitTry(tx, k, true)
		return err
	})
	return wait, err
}

// limitTry counts a try on k in tx, its row locked; with check, only a try
// that need not wait, else it returns the wait.
func (s *Store) limitTry(tx *gorm.DB, k LimitKey, check bool) (time.Duration, error) {
	now := s.now()
	fresh := Limit{Key: k.Key, Tokens: float64(k.Rule.Burst), Last: now}
	if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&fresh).Error; err != nil {
		return 0, err
	}
	var st Limit
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("key = ?", k.Key).Take(&st).Error; err != nil {
		return 0, err
	}
	if check {
		if wait := k.wait(&st, now); wait > 0 {
			return wait, nil
		}
	}
	if k.Rule.Backoff == 0 {
		tokens := k.tokens(&st, now)
		if tokens < 1 {
			return 0, nil // refused tries take nothing
		}
		st.Tokens, st.Last = tokens-1, now
	} else {
		if now.Sub(st.Last) >= k.Rule.Every {
			st.Tries = 0
		}
		st.Tries, st.Last = st.Tries+1, now
	}
	return 0, tx.Model(&Limit{}).Where("key = ?", k.Key).Updates(map[string]any{"tokens": st.Tokens, "tries": st.Tries, "last": st.Last}).Error
}

// LimitForget clears a key (an account's tries after a successful log-in).
func (s *Store) LimitForget(k LimitKey) error {
	return s.w.Where("key = ?", k.Key).Delete(&Limit{}).Error
}

// PruneLimits forgets the keys untouched for a day: every rule is back at
// rest by then.
func (s *Store) PruneLimits() (int64, error) {
	res := s.w.Where("last < ?", s.now().Add(-24*time.Hour)).Delete(&Limit{})
	return res.RowsAffected, res.Error
}
