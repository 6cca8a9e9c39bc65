package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const samples = "../../engine/testdata/records"

func sampleFiles(t testing.TB) []string {
	files, _ := filepath.Glob(filepath.Join(samples, "*.json"))
	var out []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".expected.json") {
			out = append(out, f)
		}
	}
	if len(out) < 20 {
		t.Fatalf("found %d sample records", len(out))
	}
	return out
}

type want struct {
	Exit   int            `json:"exit"`
	Output map[string]any `json:"output"`
}

func loadWant(t *testing.T, f string) want {
	t.Helper()
	raw, err := os.ReadFile(strings.TrimSuffix(f, ".json") + ".expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var w want
	if err := json.Unmarshal(raw, &w); err != nil {
		t.Fatal(err)
	}
	return w
}

// check compares a replay's output with the sample's expectation: every field
// for a legal record; ok, turn and a non-empty error sentence otherwise.
func check(t *testing.T, w want, code int, stdout []byte) {
	t.Helper()
	var got map[string]any
	if err := json.Unmarshal(stdout, &got); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, stdout)
	}
	if code != w.Exit {
		t.Fatalf("exit %d; want %d (%s)", code, w.Exit, stdout)
	}
	if code == 0 {
		if !reflect.DeepEqual(got, w.Output) {
			t.Fatalf("output\n%s\nwant\n%v", stdout, w.Output)
		}
		return
	}
	if got["ok"] != false || !reflect.DeepEqual(got["turn"], w.Output["turn"]) {
		t.Fatalf("ok/turn %v/%v; want false/%v", got["ok"], got["turn"], w.Output["turn"])
	}
	if msg, _ := got["error"].(string); len(msg) < 5 {
		t.Fatalf("error sentence %q is not a sentence", msg)
	}
}

func TestReplaySamples(t *testing.T) {
	for _, f := range sampleFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run([]string{"replay", f}, nil, &out, &errOut)
			check(t, loadWant(t, f), code, out.Bytes())
		})
	}
}

func TestReplayStdin(t *testing.T) {
	f := filepath.Join(samples, "03-full.json")
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	code := run([]string{"replay", "-"}, bytes.NewReader(data), &out, &bytes.Buffer{})
	check(t, loadWant(t, f), code, out.Bytes())
}

func TestReplayNotARecord(t *testing.T) {
	for name, in := range map[string]string{
		"not json":       "{",
		"unknown format": `{"format":"cacao-record/2","players":["a","b"],"seed":1,"turns":[]}`,
		"one player":     `{"format":"cacao-record/1","players":["a"],"seed":1,"turns":[]}`,
		"seed and setup": `{"format":"cacao-record/1","players":["a","b"],"seed":1,"setup":{"jungle":[],"workers":[[],[]]},"turns":[]}`,
		"neither":        `{"format":"cacao-record/1","players":["a","b"],"turns":[]}`,
		"turns object":   `{"format":"cacao-record/1","players":["a","b"],"seed":1,"turns":{}}`,
		"short piles":    `{"format":"cacao-record/1","players":["a","b"],"setup":{"jungle":["P1"],"workers":[["1111"],["1111"]]},"turns":[]}`,
	} {
		var out bytes.Buffer
		code := run([]string{"replay", "-"}, strings.NewReader(in), &out, &bytes.Buffer{})
		var got map[string]any
		if err := json.Unmarshal(out.Bytes(), &got); err != nil || code != 2 || got["ok"] != false || got["turn"] != nil {
			t.Errorf("%s: exit %d output %s; want exit 2 with turn null", name, code, out.Bytes())
		}
	}
	var out bytes.Buffer
	if code := run([]string{"replay", "/nonexistent/record.json"}, nil, &out, &bytes.Buffer{}); code != 2 {
		t.Errorf("missing file: exit %d; want 2", code)
	}
}

// TestReplayBinary runs the command in a process of its own (the test
// binary as the cacao command): exit codes reach the shell.
func TestReplayBinary(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// Built with -race, a process waits a second at its exit for late
	// reports unless told not to.
	goRace := strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0")
	for _, f := range sampleFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			cmd := exec.Command(self, "replay", f)
			cmd.Env = append(os.Environ(), asMain+"=1", "GORACE="+goRace)
			out, _ := cmd.Output()
			check(t, loadWant(t, f), cmd.ProcessState.ExitCode(), out)
		})
	}
}

func buildBinary(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "cacao")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// BenchmarkReplayCommand times `cacao replay` of a full 4-player record,
// process start included (target: under 20 ms).
func BenchmarkReplayCommand(b *testing.B) {
	bin := buildBinary(b)
	f := filepath.Join(samples, "09-full.json")
	for b.Loop() {
		if err := exec.Command(bin, "replay", f).Run(); err != nil {
			b.Fatal(err)
		}
	}
}
