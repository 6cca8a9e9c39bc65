package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// login posts the log-in form as c.
func (c *client) login(name, pw string) (int, string) {
	c.t.Helper()
	return c.post("/login", url.Values{"username": {name}, "password": {pw}})
}

// TestPasswordChecksPerAddress: every request that checks a password
// (here correct log-ins, and a sign-up refused for its name) takes one of
// its address's password checks: 20 at once, then one every 3 seconds;
// past that it is refused (429, Retry-After) before any hash, and other
// addresses are not affected.
func TestPasswordChecksPerAddress(t *testing.T) {
	s := newSiteWith(t, proxied)
	for i := range 3 {
		if _, err := s.store.CreateUser(fmt.Sprintf("user%d", i), "password-x1"); err != nil {
			t.Fatal(err)
		}
	}
	eve := s.client("eve").from("203.0.113.5")
	for i := range 19 {
		if code, _ := eve.login(fmt.Sprintf("user%d", i%3), "password-x1"); code != http.StatusOK {
			t.Fatalf("log-in %d: %d", i+1, code)
		}
	}
	eve.get("/signup")
	if code, _ := eve.post("/signup", url.Values{"username": {"user0"}, "password": {"password-x1"}}); code != http.StatusUnprocessableEntity {
		t.Fatalf("a sign-up as a taken name: %d", code)
	}
	code, body := eve.login("user1", "password-x1")
	if code != http.StatusTooManyRequests || !strings.Contains(body, "Too many log-ins, sign-ups or password changes from your address") || eve.last.Get("Retry-After") == "" {
		t.Fatalf("a 21st password check from one address: %d\n%.600s", code, body)
	}
	eve.get("/signup")
	if code, _ := eve.post("/signup", url.Values{"username": {"user0"}, "password": {"password-x1"}}); code != http.StatusTooManyRequests {
		t.Fatalf("a sign-up as a taken name past the address's checks: %d", code)
	}
	if code, _ := s.client("ana").from("198.51.100.5").login("user1", "password-x1"); code != http.StatusOK {
		t.Fatalf("a log-in from another address: %d", code)
	}
	s.clock.Advance(3 * time.Second)
	if code, _ := eve.login("user2", "password-x1"); code != http.StatusOK {
		t.Fatalf("a log-in once the next check is due: %d", code)
	}
}

// TestLoginsPerAccount: an account is logged in to at most 10 times in a
// row, from any addresses (one who knows its password cannot make the
// site hash it over and over), then one every 6 minutes; others' failed
// tries on it do not count (a stranger cannot lock its owner out).
func TestLoginsPerAccount(t *testing.T) {
	s := newSiteWith(t, proxied)
	if _, err := s.store.CreateUser("mallory", "password-x1"); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if code, _ := s.client("eve").from("192.0.2.99").login("mallory", fmt.Sprintf("guess-%d", i)); code != http.StatusUnauthorized {
			t.Fatalf("a wrong guess: %d", code)
		}
	}
	for i := range 10 {
		if code, _ := s.client("mallory").from(fmt.Sprintf("198.51.100.%d", i+1)).login("Mallory", "password-x1"); code != http.StatusOK {
			t.Fatalf("log-in %d: %d", i+1, code)
		}
	}
	m := s.client("mallory").from("198.51.100.50")
	code, body := m.login("mallory", "password-x1")
	if code != http.StatusTooManyRequests || !strings.Contains(body, "This account was logged in to many times in a row") || m.last.Get("Retry-After") == "" {
		t.Fatalf("an 11th log-in to one account: %d\n%.600s", code, body)
	}
	s.clock.Advance(6 * time.Minute)
	if code, _ := m.login("mallory", "password-x1"); code != http.StatusOK {
		t.Fatalf("a log-in once the next is due: %d", code)
	}
}
