package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/klauspost/compress/gzip"
)

// The floor: what HTTP alone costs on this machine. After the load run,
// the same number of users send the same mix of requests per turn to a
// server that does nothing but answer with the answers the real server
// gave (recorded during the run), gzipped as the site gzips them. No
// session, no database, no rendering: whatever turns/s the floor reaches,
// the site cannot beat on this machine with this generator.

// floorEnv names the directory of recorded answers when this program runs
// as the floor's server (a process of its own, so its CPU is told apart).
const floorEnv = "CACAO_LOADTEST_FLOOR"

// floorKinds are the kinds of request the floor replays, in a turn's order,
// with the method the real run used.
var floorKinds = []struct{ kind, method string }{
	{"create", "POST"}, {"join", "POST"}, {"select", "GET"}, {"turn", "POST"}, {"resolve", "POST"}, {"page", "GET"},
}

// samplesPerKind is how many answers of each kind are kept for the floor.
const samplesPerKind = 64

// sampler keeps a uniform sample of the answers of each kind (reservoir
// sampling), for the floor to send again.
type sampler struct {
	mu     sync.Mutex
	r      *rand.Rand
	seen   map[string]int
	bodies map[string][]string
}

func newSampler(seed uint64) *sampler {
	return &sampler{r: rand.New(rand.NewPCG(seed, 7)), seen: map[string]int{}, bodies: map[string][]string{}}
}

// add offers one answer of kind.
func (s *sampler) add(kind, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen[kind]++
	if b := s.bodies[kind]; len(b) < samplesPerKind {
		s.bodies[kind] = append(b, body)
	} else if i := s.r.IntN(s.seen[kind]); i < samplesPerKind {
		b[i] = body
	}
}

// save writes the samples into dir as <kind>-<i>.html, and nothing else
// (dir is emptied first: a kept work directory has an earlier run's).
func (s *sampler) save(dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for kind, bodies := range s.bodies {
		for i, b := range bodies {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%d.html", kind, i)), []byte(b), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// FloorMix is how many requests of each kind a turn took in the load run.
func FloorMix(st *Stats) map[string]float64 {
	mix := map[string]float64{}
	if st.Turns == 0 {
		return mix
	}
	for _, k := range floorKinds {
		if n := len(st.Lat[k.kind]); n > 0 {
			mix[k.kind] = float64(n) / float64(st.Turns)
		}
	}
	return mix
}

// FloorReport is what the floor measured.
type FloorReport struct {
	Stats
	Users             int
	ServerCPU, GenCPU time.Duration
}

// RunFloor starts the floor's server on the answers in dir and lets users
// virtual users send the mix of requests per turn for d.
func RunFloor(ctx context.Context, dir string, mix map[string]float64, users int, seed uint64, d time.Duration) (*FloorReport, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), floorEnv+"="+dir)
	srv, err := startCmd(cmd, filepath.Join(dir, "floor.log"))
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	l := NewLoad(srv.URL, users, seed)
	srv0, gen0 := srv.CPUTime(), selfCPU()
	st := l.each(ctx, d, func(u *vuser, ctx context.Context) { u.floorLoop(ctx, mix) })
	return &FloorReport{Stats: st, Users: users, ServerCPU: spent(srv0, srv.CPUTime()), GenCPU: spent(gen0, selfCPU())}, nil
}

// floorLoop sends turn after turn: each kind as many times as a turn took
// it on average (the fraction drawn at random), reading the answers as the
// real users do.
func (u *vuser) floorLoop(ctx context.Context, mix map[string]float64) {
	if mix["turn"] == 0 {
		return // no turn to count
	}
	form := url.Values{"_csrf": {"floor"}, "tile": {"1111"}, "rot": {"0"}, "at": {"1,0"}, "version": {"12"}}
	for ctx.Err() == nil {
		for _, k := range floorKinds {
			n := int(mix[k.kind])
			if u.r.Float64() < mix[k.kind]-float64(n) {
				n++
			}
			for ; n > 0; n-- {
				var f url.Values
				if k.method == "POST" {
					f = form
				}
				_, body, err := u.do(ctx, k.kind, k.method, "/floor/"+k.kind, f, true)
				if err == errStop {
					return
				}
				if err != nil { // counted; the user goes on, as the run's do
					time.Sleep(10 * time.Millisecond)
					continue
				}
				switch k.kind {
				case "select":
					links(body, `class="cell"`)
				case "page":
					links(body, `data-tile="`)
				case "turn", "resolve":
					shownVersion(body)
				}
			}
			if k.kind == "turn" {
				u.st.Turns++
			}
		}
	}
}

// Print writes the floor's line, to be read beside the load run's.
func (f *FloorReport) Print(w io.Writer) {
	all := make([]time.Duration, 0, f.Requests())
	for _, ds := range f.Lat {
		all = append(all, ds...)
	}
	turns := float64(f.Turns) / f.Elapsed.Seconds()
	fmt.Fprintf(w, "floor: %d users (the run's requests under way), the run's requests per turn, against a server that only sends the run's answers again, gzipped: %.0f turns/s, p99 %.2f ms, %d errors",
		f.Users, turns, ms(pct(all, 99)), f.Errors)
	if f.Turns > 0 && f.ServerCPU >= 0 && f.GenCPU >= 0 {
		per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(f.Turns) }
		fmt.Fprintf(w, "; CPU per turn: server %.2f ms, generator %.2f ms", per(f.ServerCPU), per(f.GenCPU))
	}
	fmt.Fprintln(w)
	for _, e := range f.ErrorSamples {
		fmt.Fprintln(w, "floor error:", e)
	}
}

// serveFloor is the floor's server: it answers /floor/<kind> with the
// recorded answers of that kind in turn, gzipped as the site's send does,
// until SIGTERM.
func serveFloor(dir string) int {
	answers := map[string][][]byte{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	sort.Strings(files)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".html")
		i := strings.LastIndexByte(name, '-')
		if _, err := strconv.Atoi(name[i+1:]); i < 0 || err != nil {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		answers[name[:i]] = append(answers[name[:i]], b)
	}
	var next atomic.Uint64
	zips := sync.Pool{New: func() any { zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed); return zw }}
	bufs := sync.Pool{New: func() any { return new(bytes.Buffer) }}
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	mux.HandleFunc("/floor/{kind}", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		bs := answers[r.PathValue("kind")]
		if len(bs) == 0 {
			http.Error(w, "no answers of this kind", http.StatusNotFound)
			return
		}
		body := bs[next.Add(1)%uint64(len(bs))]
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=UTF-8")
		h.Set("Vary", "Accept-Encoding")
		if len(body) < 1024 || !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			w.Write(body)
			return
		}
		out := bufs.Get().(*bytes.Buffer)
		zw := zips.Get().(*gzip.Writer)
		zw.Reset(out)
		zw.Write(body)
		zw.Close()
		zips.Put(zw)
		h.Set("Content-Encoding", "gzip")
		w.Write(out.Bytes())
		out.Reset()
		bufs.Put(out)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// The line StartServer waits for, as the site logs it.
	json.NewEncoder(os.Stdout).Encode(map[string]string{"msg": "listening", "addr": ln.Addr().String()})
	srv := &http.Server{Handler: mux}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	go func() { <-sig; srv.Close() }()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
