package handlers

import (
	"maps"
	"time"

	"github.com/alexedwards/scs/v2"
)

// sessionCodec is scs's gob codec with the sessions it decoded remembered:
// every request decodes its session, gob builds its decoder afresh each
// time, and a session's bytes change only when it is written. Callers get
// a copy of the values (scs changes them in place); they hold only ints
// and strings, so a shallow copy is a full one.
type sessionCodec struct {
	inner scs.Codec
	seen  *memo[decodedSession]
}

type decodedSession struct {
	deadline time.Time
	values   map[string]any
}

// maxDecodedSessions bounds the memory: past it the memo starts afresh.
const maxDecodedSessions = 20_000

func newSessionCodec() *sessionCodec {
	return &sessionCodec{inner: scs.GobCodec{}, seen: newMemo[decodedSession](maxDecodedSessions)}
}

func (c *sessionCodec) Encode(deadline time.Time, values map[string]any) ([]byte, error) {
	return c.inner.Encode(deadline, values)
}

func (c *sessionCodec) Decode(b []byte) (time.Time, map[string]any, error) {
	if d, ok := c.seen.load(string(b)); ok {
		return d.deadline, maps.Clone(d.values), nil
	}
	deadline, values, err := c.inner.Decode(b)
	if err != nil {
		return deadline, values, err
	}
	for _, v := range values {
		switch v.(type) {
		case int, string, bool:
		default:
			return deadline, values, nil // not safe to share: not remembered
		}
	}
	c.seen.store(string(b), decodedSession{deadline, maps.Clone(values)})
	return deadline, values, nil
}
