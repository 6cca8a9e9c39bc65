package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestSlowSendersAndManyConnections: requests whose bodies trickle in
// (a byte a second) take nobody's place: the site answers others at once;
// one address holds at most MaxConnsPerAddress connections (more are
// closed), and a connection closed frees its place.
func TestSlowSendersAndManyConnections(t *testing.T) {
	base, _ := startSiteWith(t, Config{MaxConnsPerAddress: 20})
	addr := strings.TrimPrefix(base, "http://")
	var conns []net.Conn
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	dial := func() net.Conn {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		return c
	}
	// Eight slow log-ins, each sending its 1000-byte body a byte at a time.
	for i := 0; i < 8; i++ {
		c := dial()
		fmt.Fprintf(c, "POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nu")
		go func() {
			for j := 0; j < 30; j++ {
				time.Sleep(100 * time.Millisecond)
				if _, err := c.Write([]byte("x")); err != nil {
					return
				}
			}
		}()
	}
	client := &http.Client{Timeout: 5 * time.Second}
	for i := 0; i < 5; i++ {
		res, err := client.Get("http://" + addr + "/healthz")
		if err != nil {
			t.Fatalf("the site did not answer while slow bodies trickle in: %v", err)
		}
		res.Body.Close()
		time.Sleep(100 * time.Millisecond)
	}
	client.CloseIdleConnections()

	// Idle connections up to the limit (the 8 slow ones count too).
	for len(conns) < 20 {
		dial()
	}
	extra := dial()
	extra.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := bufio.NewReader(extra).ReadByte(); err == nil || strings.Contains(err.Error(), "timeout") {
		t.Fatalf("a connection past the limit was kept: %v", err)
	}
	conns[0].Close()
	time.Sleep(100 * time.Millisecond) // the server sees it closed
	c := dial()
	fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if line, err := bufio.NewReader(c).ReadString('\n'); err != nil || !strings.Contains(line, "200") {
		t.Fatalf("a connection once another closed: %q %v", line, err)
	}
}
