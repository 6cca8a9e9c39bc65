package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	_ "github.com/mattn/go-sqlite3" // the driver the site uses, for the raw rate
)

// Server is a running cacao server process.
type Server struct {
	Cmd     *exec.Cmd
	URL     string
	done    chan error
	stop    sync.Once
	stopErr error
}

// StartServer runs bin on loopback with the database db, its logs going to
// logPath, and waits until it answers /healthz.
func StartServer(ctx context.Context, bin, db, logPath string, flags ...string) (*Server, error) {
	return startCmd(serverCmd(bin, db, nil, flags...), logPath)
}

// serverCmd is the command that serves the site from bin on loopback
// with the database db, env added to this process's environment.
func serverCmd(bin, db string, env []string, flags ...string) *exec.Cmd {
	// The players' addresses come in X-Forwarded-For (vuser.addr), as from
	// a proxy.
	cmd := exec.Command(bin, append([]string{"serve", "-addr", "127.0.0.1:0", "-db", db, "-trust-proxy"}, flags...)...)
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	return cmd
}

// startCmd starts a server, its output going to logPath, and waits until it
// logs the address it listens on and answers /healthz there.
func startCmd(cmd *exec.Cmd, logPath string) (*Server, error) {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	// Should the generator die first (a test's timeout), so does the server.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	start, _ := logf.Seek(0, 2)
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	s := &Server{Cmd: cmd, done: make(chan error, 1)}
	go func() { s.done <- cmd.Wait(); logf.Close() }()
	deadline := time.Now().Add(30 * time.Second)
	for s.URL == "" {
		if time.Now().After(deadline) {
			s.Kill()
			return nil, fmt.Errorf("the server did not start; see %s", logPath)
		}
		select {
		case err := <-s.done:
			return nil, fmt.Errorf("the server exited: %v; see %s", err, logPath)
		case <-time.After(20 * time.Millisecond):
		}
		s.URL = listenURL(logPath, start)
	}
	for time.Now().Before(deadline) {
		res, err := http.Get(s.URL + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return s, nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.Kill()
	return nil, fmt.Errorf("the server does not answer /healthz")
}

// listenURL finds the address in the server's "listening" log line after
// offset start.
func listenURL(logPath string, start int64) string {
	f, err := os.Open(logPath)
	if err != nil {
		return ""
	}
	defer f.Close()
	f.Seek(start, 0)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var line struct{ Msg, Addr string }
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "listening" && line.Addr != "" {
			return "http://" + line.Addr
		}
	}
	return ""
}

// PeakRSSMB is the process's peak resident set size so far (VmHWM), in MB.
func (s *Server) PeakRSSMB() float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.Cmd.Process.Pid))
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return -1
}

// CPUTime is the CPU time the process has used so far (user and system),
// or -1 when it cannot be read.
func (s *Server) CPUTime() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.Cmd.Process.Pid))
	if err != nil {
		return -1
	}
	return statCPU(string(b))
}

// statCPU reads utime and stime (fields 14 and 15, in clock ticks of
// 1/100 s) from a /proc/<pid>/stat line; the command name in parentheses
// may hold spaces, so fields are counted after its closing parenthesis.
func statCPU(stat string) time.Duration {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 13 {
		return -1
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	k, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return -1
	}
	return time.Duration(u+k) * 10 * time.Millisecond
}

// statChildrenCPU reads cutime and cstime (fields 16 and 17): the CPU
// time of the process's children that ended and were waited for.
func statChildrenCPU(stat string) time.Duration {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 15 {
		return 0
	}
	u, err1 := strconv.ParseInt(f[13], 10, 64)
	k, err2 := strconv.ParseInt(f[14], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(u+k) * 10 * time.Millisecond
}

// selfCPU is the CPU time this process (the generator) has used so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Stop asks the server to shut down and waits for it; once it is stopped
// (or killed), Stop returns at once.
func (s *Server) Stop() error {
	s.stop.Do(func() {
		s.Cmd.Process.Signal(syscall.SIGTERM)
		select {
		case s.stopErr = <-s.done:
		case <-time.After(20 * time.Second):
			s.Cmd.Process.Kill()
			s.stopErr = <-s.done
		}
	})
	return s.stopErr
}

// Kill ends the server with SIGKILL, as a crash would, and waits for it
// (once stopped, it does nothing).
func (s *Server) Kill() {
	s.stop.Do(func() {
		s.Cmd.Process.Signal(syscall.SIGKILL)
		s.stopErr = <-s.done
	})
}

// RawSQLiteRate commits one small row per transaction into a fresh SQLite
// file at path for about d, with the site's pragmas (WAL, synchronous
// NORMAL, busy timeout, immediate transactions), and returns commits per
// second: the ceiling a site on this disk cannot beat.
func RawSQLiteRate(path string, d time.Duration) (float64, error) {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(path + suffix)
	}
	q := url.Values{}
	q.Set("_busy_timeout", "5000")
	q.Set("_foreign_keys", "on")
	q.Set("_txlock", "immediate")
	q.Set("_synchronous", "NORMAL")
	q.Set("_journal_mode", "WAL")
	db, err := sql.Open("sqlite3", "file:"+path+"?"+q.Encode())
	if err != nil {
		return 0, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY, game INTEGER NOT NULL, data TEXT NOT NULL)"); err != nil {
		return 0, err
	}
	n := 0
	start := time.Now()
	for time.Since(start) < d {
		tx, err := db.Begin()
		if err != nil {
			return 0, err
		}
		if _, err := tx.Exec("INSERT INTO t (game, data) VALUES (?, ?)", n%100, `{"seat":0,"tile":"1111","at":[1,0],"rot":0}`); err != nil {
			tx.Rollback()
			return 0, err
		}
		if err := tx.Commit(); err != nil {
			return 0, err
		}
		n++
	}
	return float64(n) / time.Since(start).Seconds(), nil
}
