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

// The floor (-floor): what HTTP alone costs on this machine at the run's
// rate. After an open-loop run, the same turns a second are offered to a
// server that does nothing but answer with answers the real server gave
// in the run (a sample of each kind, kept during the measured time),
// gzipped as the site gzips them: each turn sends as many requests of each
// kind as a turn of the run took on average (the event streams aside). No
// session, no database, no rendering: the floor's CPU a turn is what no
// site can go below with these pages on this machine, and the server's
// divided by it says how far the site is from it.

// floorEnv names the directory of sampled answers when this program runs
// as the floor's server (a process of its own, so that its CPU is told
// apart from the generator's).
const floorEnv = "CACAO_LOADTEST_FLOOR"

// floorKinds are the kinds of request the floor sends, in a turn's order,
// with the method the run used.
var floorKinds = []struct{ kind, method string }{
	{"create", "POST"}, {"join", "POST"}, {"page", "GET"}, {"select", "GET"}, {"turn", "POST"}, {"resolve", "POST"}, {"refetch", "GET"},
}

// samplesPerKind is how many answers of each kind are kept for the floor.
const samplesPerKind = 64

// sampler keeps a uniform sample of the answers of each kind (reservoir
// sampling).
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

// save writes the samples into dir as <kind>-<i>.html, and nothing else.
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

// floorMix is how many requests of each kind a committed turn took in the
// run.
func floorMix(st *Stats) map[string]float64 {
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

// Floor is what the floor measured.
type Floor struct {
	Turns, Requests, Errors int
	Elapsed                 time.Duration
	ServerCPU               time.Duration
}

// perTurn is the floor's server CPU a turn in ms (-1 when not measured).
func (f *Floor) perTurn() float64 {
	if f == nil || f.Turns == 0 || f.ServerCPU < 0 {
		return -1
	}
	return perTurn(f.ServerCPU, f.Turns)
}

// runFloor starts the floor's server on the samples (saved under dir) and
// offers it rate turns a second of mix for d, each turn's requests one
// after the other, as many turns at once as come due.
func runFloor(ctx context.Context, smp *sampler, dir string, mix map[string]float64, rate float64, d time.Duration, seed uint64) (*Floor, error) {
	if mix["turn"] == 0 {
		return nil, fmt.Errorf("the floor needs a run with committed turns")
	}
	if err := smp.save(dir); err != nil {
		return nil, err
	}
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
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConns: 1000, MaxIdleConnsPerHost: 1000, IdleConnTimeout: time.Minute}}
	form := url.Values{"_csrf": {"floor"}, "tile": {"1111"}, "rot": {"0"}, "at": {"1,0"}, "version": {"12"}}.Encode()
	var requests, errs atomic.Int64
	send := func(kind, method string) {
		var body io.Reader
		if method == "POST" {
			body = strings.NewReader(form)
		}
		req, _ := http.NewRequestWithContext(ctx, method, srv.URL+"/floor/"+kind, body)
		req.Header.Set("Accept-Encoding", "gzip")
		req.Header.Set("HX-Request", "true")
		res, err := client.Do(req)
		requests.Add(1)
		if err != nil {
			errs.Add(1)
			return
		}
		if _, _, err := readBody(res); err != nil || res.StatusCode != http.StatusOK {
			errs.Add(1)
		}
		res.Body.Close()
	}
	r := rand.New(rand.NewPCG(seed, 11))
	turn := func(draws []float64) {
		for i, k := range floorKinds {
			n := int(mix[k.kind])
			if draws[i] < mix[k.kind]-float64(n) {
				n++
			}
			for ; n > 0; n-- {
				send(k.kind, k.method)
			}
		}
	}
	var wg sync.WaitGroup
	start := time.Now()
	srv0 := srv.CPUTime()
	turns := 0
	for next := start; next.Before(start.Add(d)); next = next.Add(time.Duration(float64(time.Second) / rate)) {
		time.Sleep(time.Until(next))
		draws := make([]float64, len(floorKinds))
		for i := range draws {
			draws[i] = r.Float64()
		}
		turns++
		wg.Add(1)
		go func() { defer wg.Done(); turn(draws) }()
	}
	wg.Wait()
	return &Floor{Turns: turns, Requests: int(requests.Load()), Errors: int(errs.Load()), Elapsed: time.Since(start), ServerCPU: spent(srv0, srv.CPUTime())}, nil
}

// print writes the floor's line, beside the run's.
func (f *Floor) print(w io.Writer) {
	fmt.Fprintf(w, "floor: the run's requests a turn, %d turns in %s against a server that only sends the run's answers again, gzipped: %d requests, %d errors, server CPU %.2f ms a turn\n",
		f.Turns, f.Elapsed.Round(time.Millisecond), f.Requests, f.Errors, f.perTurn())
}

// serveFloor is the floor's server: it answers /floor/<kind> with the
// sampled answers of that kind in turn, gzipped as the site does (from a
// kilobyte on, in one go, without state: handlers' compress), until
// SIGTERM.
func serveFloor(dir string) int {
	answers := map[string][][]byte{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	sort.Strings(files)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".html")
		i := strings.LastIndexByte(name, '-')
		if i < 0 {
			continue
		}
		if _, err := strconv.Atoi(name[i+1:]); err != nil {
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
		out := bytes.NewBuffer(make([]byte, 0, len(body)/3+64))
		zw, _ := gzip.NewWriterLevel(out, gzip.StatelessCompression)
		zw.Write(body)
		zw.Close()
		h.Set("Content-Encoding", "gzip")
		w.Write(out.Bytes())
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// The line startCmd waits for, as the site logs it.
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
