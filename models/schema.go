package models

import (
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// steps are the schema's changes, in order: step n brings a database from
// version n-1 to n. Each runs once, in the transaction that records it in
// schema_versions. A change to the tables is a new step at the end, never
// an edit of one that a site may have run.
var steps = []func(tx *gorm.DB) error{
	baseline,      // 1
	workerIndexes, // 2
	guests,        // 3
	notes,         // 4
	abortTurns,    // 5
	twoRatings,    // 6
	follows,       // 7
	botRatings,    // 8
	reviews,       // 9
	tournaments,   // 10
	accessTokens,  // 11
	botAccounts,   // 12
	formKeys,      // 13
}

// formKeys adds the key of the form that made a table or a tournament
// (Game.FormKey, Tournament.FormKey), one of each a key and creator.
func formKeys(tx *gorm.DB) error {
	if err := addColumns(tx, []column{{&Game{}, "FormKey"}, {&Tournament{}, "FormKey"}}); err != nil {
		return err
	}
	if err := tx.Exec("CREATE UNIQUE INDEX IF NOT EXISTS idx_games_form_key ON games (creator_id, form_key)").Error; err != nil {
		return err
	}
	return tx.Exec("CREATE UNIQUE INDEX IF NOT EXISTS idx_tournaments_form_key ON tournaments (creator_id, form_key)").Error
}

// botAccounts adds the marks of bot accounts (User.BotAccount,
// User.BotOpen, Seat.Robot), and the index of those others may seat, which
// the new-table form lists (OpenBots) without going through every account.
func botAccounts(tx *gorm.DB) error {
	if err := addColumns(tx, []column{{&User{}, "BotAccount"}, {&User{}, "BotOpen"}, {&Seat{}, "Robot"}}); err != nil {
		return err
	}
	return tx.Exec("CREATE INDEX IF NOT EXISTS idx_users_open_bots ON users (username) WHERE bot_account AND bot_open").Error
}

// accessTokens adds the personal access tokens (Token).
func accessTokens(tx *gorm.DB) error { return tx.AutoMigrate(&Token{}) }

// tournaments adds the tournaments the site runs (Tournament), their
// players (Entrant) and byes (TourBye), and the link of a game to its
// tournament's round (Game.TournamentID, Game.TourRound, indexed
// together).
func tournaments(tx *gorm.DB) error {
	if err := tx.AutoMigrate(&Tournament{}, &Entrant{}, &TourBye{}); err != nil {
		return err
	}
	for _, col := range []string{"TournamentID", "TourRound"} {
		if !tx.Migrator().HasColumn(&Game{}, col) {
			if err := tx.Migrator().AddColumn(&Game{}, col); err != nil {
				return err
			}
		}
	}
	return tx.Exec("CREATE INDEX IF NOT EXISTS idx_games_tournament ON games (tournament_id, tour_round)").Error
}

// guests adds the marks of guest players (User.Guest, Seat.Guest). The
// baseline makes them on a new database, so each is added only if missing.
func guests(tx *gorm.DB) error {
	return addColumns(tx, []column{{&User{}, "Guest"}, {&Seat{}, "Guest"}})
}

// column is a model's field, for addColumns.
type column struct {
	model any
	field string
}

// addColumns adds each column that is missing (the baseline makes them
// on a new database).
func addColumns(tx *gorm.DB, cs []column) error {
	for _, c := range cs {
		if tx.Migrator().HasColumn(c.model, c.field) {
			continue
		}
		if err := tx.Migrator().AddColumn(c.model, c.field); err != nil {
			return err
		}
	}
	return nil
}

// follows adds players following players (Follow), who may hide when they
// were last seen (User.HideLastSeen), and the news of a followed player's
// table, which the site's notices, push and webhook bring by default.
func follows(tx *gorm.DB) error {
	if err := tx.AutoMigrate(&Follow{}); err != nil {
		return err
	}
	for _, col := range []string{"HideLastSeen", "TablesToldAt"} {
		if !tx.Migrator().HasColumn(&User{}, col) {
			if err := tx.Migrator().AddColumn(&User{}, col); err != nil {
				return err
			}
		}
	}
	return tx.Exec("UPDATE users SET app_news = app_news | ?, push_news = push_news | ?, hook_news = hook_news | ?", int(NewsFollow), int(NewsFollow), int(NewsFollow)).Error
}

// twoRatings rates games of three or four apart from games of two (User's
// Multi ratings) and keeps when each rating last moved, for the
// leaderboards (Leaderboard), which read the ratings in order from an
// index. The ratings kept so far, from games of any size, stay as the
// two-player ones; a player is on the two-player board from their last
// rated game of two.
func twoRatings(tx *gorm.DB) error {
	for _, col := range []string{"RatedAt", "MultiRating", "MultiRatingDev", "MultiRatingVol", "MultiRatedGames", "MultiRatedAt"} {
		if !tx.Migrator().HasColumn(&User{}, col) {
			if err := tx.Migrator().AddColumn(&User{}, col); err != nil {
				return err
			}
		}
	}
	for _, q := range []string{
		`UPDATE users SET rated_at = (SELECT MAX(games.finished_at) FROM seats JOIN games ON games.id = seats.game_id AND games.num_players = 2
			WHERE (seats.user_id = users.id OR seats.resigned_id = users.id) AND seats.rated_to > 0) WHERE rated_games > 0 AND rated_at IS NULL`,
		"CREATE INDEX IF NOT EXISTS idx_users_board ON users (rating) WHERE rated_games > 0",
		"CREATE INDEX IF NOT EXISTS idx_users_multi_board ON users (multi_rating) WHERE multi_rated_games > 0",
	} {
		if err := tx.Exec(q).Error; err != nil {
			return err
		}
	}
	return nil
}

// abortTurns adds the seats' agreements to end a game without a result
// (Seat.AbortTurn), and the mark of a game so ended (Game.Aborted).
func abortTurns(tx *gorm.DB) error {
	if !tx.Migrator().HasColumn(&Seat{}, "AbortTurn") {
		if err := tx.Migrator().AddColumn(&Seat{}, "AbortTurn"); err != nil {
			return err
		}
	}
	if !tx.Migrator().HasColumn(&Game{}, "Aborted") {
		return tx.Migrator().AddColumn(&Game{}, "Aborted")
	}
	return nil
}

// botRatings adds the bot levels' ratings (BotRating).
func botRatings(tx *gorm.DB) error { return tx.AutoMigrate(&BotRating{}) }

// reviews adds the players' reviews of their turns (Review, ReviewedTurn).
func reviews(tx *gorm.DB) error { return tx.AutoMigrate(&Review{}, &ReviewedTurn{}) }

// notes adds the players' private notes on games (Note).
func notes(tx *gorm.DB) error { return tx.AutoMigrate(&Note{}) }

// workerIndexes lets the worker's and the public list's reads find their
// rows without going through every running game or every account: the bots'
// seats that wait, by how long (StalledBots); the accounts that take a
// digest, by their last (QueueDigests); the public running games, counted
// and listed from the index alone (PublicGames).
func workerIndexes(tx *gorm.DB) error {
	for _, q := range []string{
		"CREATE INDEX IF NOT EXISTS idx_seats_bots_waiting ON seats (waiting_since) WHERE bot <> '' OR abandoned",
		"CREATE INDEX IF NOT EXISTS idx_users_digest ON users (last_digest_at) WHERE digest_news <> 0 AND email_verified",
		"CREATE INDEX IF NOT EXISTS idx_games_public ON games (status, private, id)",
	} {
		if err := tx.Exec(q).Error; err != nil {
			return err
		}
	}
	return nil
}

// SchemaVersion is the version of the schema this release knows.
var SchemaVersion = len(steps)

// SchemaStep records a step run on the database.
type SchemaStep struct {
	Version int `gorm:"primaryKey;autoIncrement:false"`
	RanAt   time.Time
}

// ErrSchemaAhead refuses a database whose schema a newer release made.
var ErrSchemaAhead = errors.New("models: the database's schema is newer than this release")

// ErrSchemaBehind refuses, when the store may not migrate, a database
// whose schema is older than this release's.
var ErrSchemaBehind = errors.New("models: the database's schema is older than this release")

// upgrade brings the schema in tx to SchemaVersion, when migrate allows,
// running the steps it lacks; it refuses a schema ahead of this release's,
// and, without migrate, one behind it.
func upgrade(tx *gorm.DB, migrate bool) error {
	at, err := schemaAt(tx)
	if err != nil {
		return err
	}
	switch {
	case at > SchemaVersion:
		return fmt.Errorf("%w: it is at version %d, this release knows %d: run the release that made it, or a newer one", ErrSchemaAhead, at, SchemaVersion)
	case at == SchemaVersion:
		return nil
	case !migrate:
		return fmt.Errorf("%w: it is at version %d, this release needs %d: run `cacao schema upgrade` as the database's owner", ErrSchemaBehind, at, SchemaVersion)
	}
	if err := tx.AutoMigrate(&SchemaStep{}); err != nil {
		return err
	}
	for v := at + 1; v <= SchemaVersion; v++ {
		err := tx.Transaction(func(tx *gorm.DB) error { // a savepoint: the step and its record, or neither
			if err := steps[v-1](tx); err != nil {
				return err
			}
			return tx.Create(&SchemaStep{Version: v, RanAt: time.Now().UTC()}).Error
		})
		if err != nil {
			return fmt.Errorf("models: schema step %d: %w", v, err)
		}
	}
	return nil
}

// schemaAt is the version of the schema in db: 0 for an empty database or
// one from before versioned steps.
func schemaAt(db *gorm.DB) (int, error) {
	if !db.Migrator().HasTable(&SchemaStep{}) {
		return 0, nil
	}
	var at int
	err := db.Model(&SchemaStep{}).Select("COALESCE(MAX(version), 0)").Scan(&at).Error
	return at, err
}

// Schema is the version of the database's schema.
func (s *Store) Schema() (int, error) { return schemaAt(s.db) }
