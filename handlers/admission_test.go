package handlers

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

// TestAdmission: with one place, a second request waits while the first
// works, but not while the first waits in unadmitted; event streams never
// wait.
func TestAdmission(t *testing.T) {
	e := echo.New()
	e.Use(admission(1))
	inside, release := make(chan struct{}, 4), make(chan struct{})
	hold := func(c echo.Context) error {
		inside <- struct{}{}
		<-release
		return c.NoContent(http.StatusOK)
	}
	e.GET("/work", hold)
	e.GET("/hash", func(c echo.Context) error {
		unadmitted(c, func() { inside <- struct{}{}; <-release })
		return c.NoContent(http.StatusOK)
	})
	e.GET("/quick", func(c echo.Context) error { return c.NoContent(http.StatusOK) })
	e.GET("/games/1/events", func(c echo.Context) error { return c.NoContent(http.StatusOK) })
	srv := httptest.NewServer(e)
	defer srv.Close()
	defer close(release) // first: a failed check must not leave handlers waiting
	get := func(path string) chan int {
		done := make(chan int, 1)
		go func() {
			res, err := http.Get(srv.URL + path)
			if err != nil {
				done <- 0
				return
			}
			res.Body.Close()
			done <- res.StatusCode
		}()
		return done
	}
	within := func(done chan int, what string) {
		t.Helper()
		select {
		case code := <-done:
			if code != http.StatusOK {
				t.Fatalf("%s: status %d", what, code)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s did not finish", what)
		}
	}

	entered := func(what string) {
		t.Helper()
		select {
		case <-inside:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s did not start", what)
		}
	}
	first := get("/work")
	entered("the first request")
	quick := get("/quick")
	within(get("/games/1/events"), "an event stream while the place is taken")
	select {
	case <-quick:
		t.Fatal("a second request worked while the only place was taken")
	case <-time.After(200 * time.Millisecond):
	}
	release <- struct{}{}
	within(first, "the first request")
	within(quick, "the waiting request")

	hash := get("/hash")
	entered("the hashing request")
	within(get("/quick"), "a request while another hashes a password")
	release <- struct{}{}
	within(hash, "the hashing request")
	within(get("/quick"), "a request after it")
}
