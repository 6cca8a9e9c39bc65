package models

import (
	"cacao/engine"
)

// At is game l as it was after its first n log entries: its position and
// their events (n from 0, the start, to the length of the log).
func (l *Loaded) At(n int) (*Loaded, error) {
	if l.Game.Status == StatusOpen || n < 0 || n > len(l.Log) {
		return nil, ErrNotFound
	}
	at := &Loaded{Game: l.Game, Seats: l.Seats, record: l.record}
	if err := at.start(); err != nil {
		return nil, err
	}
	for _, e := range l.Log[:n] {
		if err := at.apply(e); err != nil {
			return nil, err
		}
	}
	at.Log = l.Log[:n:n]
	return at, nil
}

// FromRecord is record rec as a finished game of its own (not stored):
// one log entry a turn, each with its reactions, so that At steps
// through it as through a game of the site. A turn that cannot be
// played gives an *engine.TurnError.
func FromRecord(rec *engine.Record) (*Loaded, error) {
	if rec.Seed != nil {
		su, err := engine.NewSetup(len(rec.Players), *rec.Seed)
		if err != nil {
			return nil, &engine.RecordError{Reason: err.Error()}
		}
		rec.Setup = su
	}
	setup, err := engine.MarshalSetup(rec.Setup)
	if err != nil {
		return nil, &engine.RecordError{Reason: err.Error()}
	}
	l := &Loaded{Game: Game{Status: StatusFinished, NumPlayers: len(rec.Players), Setup: string(setup), First: rec.First}, record: true}
	for i, name := range rec.Players {
		l.Seats = append(l.Seats, Seat{Slot: i, Index: i, Name: name})
	}
	for k, t := range rec.Turns {
		data, err := engine.MarshalTurn(t)
		if err != nil {
			return nil, &engine.TurnError{Turn: k, Reason: err.Error()}
		}
		l.Log = append(l.Log, LogEntry{Seq: k, Kind: LogTurn, Seat: t.Seat, Turn: k + 1, Data: string(data)})
	}
	full := &Loaded{Game: l.Game, Seats: l.Seats, record: true}
	if err := full.start(); err != nil {
		return nil, &engine.RecordError{Reason: err.Error()}
	}
	for k, e := range l.Log {
		if err := full.apply(e); err != nil {
			return nil, &engine.TurnError{Turn: k, Reason: err.Error()}
		}
	}
	if !full.Play.State().Over() {
		l.Game.Status = StatusActive
	}
	return l, nil
}
