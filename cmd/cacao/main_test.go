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

// cacao serve gives each of the bots' search slots and each password
// hash that may run at once (one a core) a P of its own beside the
// cores'.
func TestLowPs(t *testing.T) {
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	if bots, hashes := lowPs(); bots != 2 || hashes != 4 || runtime.GOMAXPROCS(0) != 10 {
		t.Errorf("with 4 Ps: %d search slots, %d hashes, %d Ps; want 2, 4 and 10 Ps", bots, hashes, runtime.GOMAXPROCS(0))
	}
}
