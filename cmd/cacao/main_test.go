package main

import (
	"os"
	"runtime"
	"testing"
)

// asMain, set to 1 in the environment, makes the test binary the cacao
// command (TestReplayBinary): TestMain runs main with the arguments instead
// of the tests.
const asMain = "CACAO_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMain) == "1" {
		main()
	}
	code := m.Run()
	closeChromes()
	os.Exit(code)
}

// cacao serve gives each of the bots' search slots a P of its own beside
// the cores'.
func TestBotPs(t *testing.T) {
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	if slots := botPs(); slots != 2 || runtime.GOMAXPROCS(0) != 6 {
		t.Errorf("with 4 Ps: %d slots, %d Ps; want 2 slots and 6 Ps", slots, runtime.GOMAXPROCS(0))
	}
}
