package handlers

import "testing"

// TestMemo: a value is computed once per key, and a full memo starts afresh
// rather than growing.
func TestMemo(t *testing.T) {
	m := newMemo[int](3)
	calls := 0
	f := func(v int) func() int { return func() int { calls++; return v } }
	if m.get("a", f(1)) != 1 || m.get("a", f(2)) != 1 || calls != 1 {
		t.Fatalf("a computed %d times", calls)
	}
	m.get("b", f(2))
	m.get("c", f(3))
	m.get("d", f(4))
	if len(m.m) > 3 {
		t.Fatalf("%d values kept, at most 3 wanted", len(m.m))
	}
	if m.get("d", f(9)) != 4 {
		t.Fatal("the newest value was lost")
	}
}
