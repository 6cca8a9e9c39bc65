package main

import "time"

// Stats is what the virtual users did in the measured time.
type Stats struct {
	Elapsed                   time.Duration
	Turns, Resolves, Finished int
	Errors                    int
	ErrorSamples              []string
	Lat                       map[string][]time.Duration
	// Bytes sums, per kind, the response bodies as sent (wire) and as
	// read after un-gzipping (body).
	Bytes map[string]Size
	// Committed lists, for every turn or choice that got a success
	// response, its game and the game's version after it.
	Committed []Commit
	// StartLag is, for each turn of the open loop whose start was offered
	// in the measured time, how long after that start the player could
	// begin it (0 when on time).
	StartLag []time.Duration
}

// Commit is a change the server confirmed: the game's version after it,
// or Finished when the response showed the game over (no version on it).
type Commit struct {
	Game     uint
	Version  int
	Finished bool
}

// Size is bytes as sent and as read.
type Size struct{ Wire, Body int64 }

// addBytes counts b under kind.
func (s *Stats) addBytes(kind string, b Size) {
	if s.Bytes == nil {
		s.Bytes = map[string]Size{}
	}
	t := s.Bytes[kind]
	t.Wire, t.Body = t.Wire+b.Wire, t.Body+b.Body
	s.Bytes[kind] = t
}

// Requests counts the timed requests.
func (s *Stats) Requests() int {
	n := 0
	for _, ds := range s.Lat {
		n += len(ds)
	}
	return n
}

func (s *Stats) add(o *Stats) {
	s.Turns += o.Turns
	s.Resolves += o.Resolves
	s.Finished += o.Finished
	s.Errors += o.Errors
	if len(s.ErrorSamples) < 10 {
		s.ErrorSamples = append(s.ErrorSamples, o.ErrorSamples[:min(len(o.ErrorSamples), 10-len(s.ErrorSamples))]...)
	}
	if s.Lat == nil {
		s.Lat = map[string][]time.Duration{}
	}
	for k, ds := range o.Lat {
		s.Lat[k] = append(s.Lat[k], ds...)
	}
	for k, b := range o.Bytes {
		s.addBytes(k, b)
	}
	s.Committed = append(s.Committed, o.Committed...)
	s.StartLag = append(s.StartLag, o.StartLag...)
}

// window is the measured time: requests sent in it are timed, and turns
// committed in it counted. The zero window measures nothing; one without
// an end runs until the users stop.
type window struct{ from, to time.Time }

func (w window) has(t time.Time) bool {
	return !w.from.IsZero() && !t.Before(w.from) && (w.to.IsZero() || t.Before(w.to))
}
