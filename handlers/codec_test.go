package handlers

import (
	"testing"
	"time"
)

// TestSessionCodecCopies: a remembered session comes back equal each time,
// and changing what one request got changes nothing for the next.
func TestSessionCodecCopies(t *testing.T) {
	c := newSessionCodec()
	deadline := time.Date(2026, 12, 3, 4, 0, 0, 0, time.UTC)
	b, err := c.Encode(deadline, map[string]any{"user_id": 7, "flash": "Saved."})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		d, v, err := c.Decode(b)
		if err != nil || !d.Equal(deadline) || v["user_id"] != 7 || v["flash"] != "Saved." || len(v) != 2 {
			t.Fatalf("decode %d: %v %v %v", i, d, v, err)
		}
		delete(v, "flash") // as PopString does
		v["user_id"] = 8
	}
	if len(c.seen.m) != 1 {
		t.Fatalf("%d sessions remembered, want 1", len(c.seen.m))
	}
	if _, _, err := c.Decode([]byte("not gob")); err == nil {
		t.Fatal("garbage decoded")
	}
}
