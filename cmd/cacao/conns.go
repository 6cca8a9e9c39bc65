package main

import (
	"net"
	"sync"

	"cacao/handlers"
)

// perAddress accepts at most max connections at once from one address (an
// IPv6 /64 is one); more are closed as soon as they come. Without it, one
// machine can hold every connection the process can open. Behind a proxy
// every connection comes from the proxy: the site does not use it then.
type perAddress struct {
	net.Listener
	max  int
	mu   sync.Mutex
	open map[string]int
}

func limitPerAddress(ln net.Listener, max int) net.Listener {
	return &perAddress{Listener: ln, max: max, open: map[string]int{}}
}

func (l *perAddress) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host, _, _ := net.SplitHostPort(c.RemoteAddr().String())
		key := handlers.AddressOf(host)
		l.mu.Lock()
		if l.open[key] >= l.max {
			l.mu.Unlock()
			c.Close()
			continue
		}
		l.open[key]++
		l.mu.Unlock()
		return &countedConn{Conn: c, done: sync.OnceFunc(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			if l.open[key]--; l.open[key] <= 0 {
				delete(l.open, key)
			}
		})}, nil
	}
}

// countedConn gives its place back once closed.
type countedConn struct {
	net.Conn
	done func()
}

func (c *countedConn) Close() error {
	c.done()
	return c.Conn.Close()
}
