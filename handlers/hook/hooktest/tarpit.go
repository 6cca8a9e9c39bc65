// Package hooktest has what tests and load runs point webhooks and push
// devices at: a Tarpit, the server that takes a post and never answers.
package hooktest

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"sync"
)

// Tarpit is an HTTP server on loopback that accepts every connection,
// reads the request's line and headers, and never answers: each post to
// it lasts until the poster gives up. Its methods are safe for concurrent
// use.
type Tarpit struct {
	URL string // e.g. "http://127.0.0.1:41234"

	ln    net.Listener
	mu    sync.Mutex
	conns map[net.Conn]bool
	open  map[string]int // requests held now, by path
	taken int
	wg    sync.WaitGroup
}

// NewTarpit starts a Tarpit on 127.0.0.1.
func NewTarpit() (*Tarpit, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	tp := &Tarpit{URL: "http://" + ln.Addr().String(), ln: ln, conns: map[net.Conn]bool{}, open: map[string]int{}}
	tp.wg.Add(1)
	go tp.accept()
	return tp, nil
}

func (tp *Tarpit) accept() {
	defer tp.wg.Done()
	for {
		c, err := tp.ln.Accept()
		if err != nil {
			return
		}
		tp.mu.Lock()
		tp.conns[c] = true
		tp.mu.Unlock()
		tp.wg.Add(1)
		go tp.hold(c)
	}
}

// hold reads c's request and then waits, answering nothing, until the
// poster closes the connection (or the Tarpit closes).
func (tp *Tarpit) hold(c net.Conn) {
	defer tp.wg.Done()
	defer func() {
		tp.mu.Lock()
		delete(tp.conns, c)
		tp.mu.Unlock()
		c.Close()
	}()
	r := bufio.NewReader(c)
	req, err := http.ReadRequest(r)
	if err != nil {
		return
	}
	path := req.URL.Path
	tp.mu.Lock()
	tp.taken++
	tp.open[path]++
	tp.mu.Unlock()
	io.Copy(io.Discard, r) // until the poster hangs up
	tp.mu.Lock()
	if tp.open[path]--; tp.open[path] == 0 {
		delete(tp.open, path)
	}
	tp.mu.Unlock()
}

// Held returns the requests held now, by path.
func (tp *Tarpit) Held() map[string]int {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	out := make(map[string]int, len(tp.open))
	for p, n := range tp.open {
		out[p] = n
	}
	return out
}

// Taken counts the requests the Tarpit has read since it started.
func (tp *Tarpit) Taken() int {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return tp.taken
}

// Close stops the Tarpit: it closes the listener and every connection
// held, and waits for them.
func (tp *Tarpit) Close() error {
	err := tp.ln.Close()
	tp.mu.Lock()
	for c := range tp.conns {
		c.Close()
	}
	tp.mu.Unlock()
	tp.wg.Wait()
	return err
}
