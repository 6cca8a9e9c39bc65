package main

import (
	"cacao/models"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// site is the servers of one run: Instances of them on one database (o.DB,
// else a new SQLite file in o.Dir), each with a log of its own; and on
// PostgreSQL, its server processes on this machine, whose CPU counts as the
// site's.
type site struct {
	servers []*Server
	pg      bool
}

// startSite starts o's servers with flags, and env added to their
// environment.
func startSite(ctx context.Context, o Options, env []string, flags ...string) (site, error) {
	db := o.DB
	if db == "" {
		db = filepath.Join(o.Dir, "load.db")
	}
	n := max(1, o.Instances)
	if n > 1 && !models.IsPostgres(db) {
		return site{}, errors.New("several instances share a PostgreSQL database: give -db postgres://…")
	}
	s := site{pg: models.IsPostgres(db)}
	for i := range n {
		logPath := filepath.Join(o.Dir, "server.log")
		if i > 0 {
			logPath = filepath.Join(o.Dir, fmt.Sprintf("server%d.log", i+1))
		}
		srv, err := startCmd(serverCmd(o.Server, db, env, flags...), logPath)
		if err != nil {
			s.Stop()
			return site{}, err
		}
		s.servers = append(s.servers, srv)
	}
	return s, nil
}

// URLs are the servers' addresses: the players are spread over them.
func (s site) URLs() []string {
	out := make([]string, len(s.servers))
	for i, srv := range s.servers {
		out[i] = srv.URL
	}
	return out
}

// String names the servers for the run's first line.
func (s site) String() string {
	parts := make([]string, len(s.servers))
	for i, srv := range s.servers {
		parts[i] = fmt.Sprintf("pid %d on %s", srv.Cmd.Process.Pid, srv.URL)
	}
	if s.pg {
		return "server " + strings.Join(parts, ", ") + " (PostgreSQL's CPU on this machine counts as the server's)"
	}
	return "server " + strings.Join(parts, ", ")
}

// CPUTime is the servers' CPU time together, with PostgreSQL's (-1 when
// a reading failed).
func (s site) CPUTime() time.Duration {
	var d time.Duration
	if s.pg {
		d = postgresCPU()
	}
	for _, srv := range s.servers {
		t := srv.CPUTime()
		if t < 0 {
			return -1
		}
		d += t
	}
	return d
}

// PeakRSSMB is the sum of the servers' peak resident memory.
func (s site) PeakRSSMB() float64 {
	var mb float64
	for _, srv := range s.servers {
		mb += srv.PeakRSSMB()
	}
	return mb
}

// Stop stops every server.
func (s site) Stop() {
	for _, srv := range s.servers {
		srv.Stop()
	}
}

// postgresCPU is the CPU time of the PostgreSQL processes on this machine
// so far: each one's, and its children's that ended (a connection's
// backend that closed counts in the postmaster's).
func postgresCPU() time.Duration {
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	var d time.Duration
	for _, p := range dirs {
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), "(postgres)") {
			continue
		}
		d += statCPU(string(b)) + statChildrenCPU(string(b))
	}
	return d
}
