package api_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"cacao/engine"
	"cacao/handlers/api"
)

// Acts written as JSON read back as they were, every worker (AllWorkers)
// as an omitted use.
func TestActsReadBack(t *testing.T) {
	acts := []engine.Act{
		{Tile: engine.Cell{X: 1, Y: 0}, Side: engine.W, Use: engine.AllWorkers},
		{Tile: engine.Cell{X: -2, Y: 3}, Side: engine.N, Use: 0},
		{Tile: engine.Cell{X: 0, Y: -1}, Side: engine.S, Use: 2},
	}
	body, err := json.Marshal(api.ActsOf(acts))
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"tile":[1,0],"side":"W"},{"tile":[-2,3],"side":"N","use":0},{"tile":[0,-1],"side":"S","use":2}]`; string(body) != want {
		t.Fatalf("acts written as %s, want %s", body, want)
	}
	var back []api.Act
	if err := json.Unmarshal(body, &back); err != nil {
		t.Fatal(err)
	}
	got, err := api.ParseActs(back)
	if err != nil || !reflect.DeepEqual(got, acts) {
		t.Fatalf("acts read back as %v (%v), want %v", got, err, acts)
	}
	if body, _ := json.Marshal(api.ActsOf(nil)); string(body) != "[]" {
		t.Fatalf("no acts written as %s, want [] (a choice's acts are required)", body)
	}
}
