package main

import (
	"os"
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
