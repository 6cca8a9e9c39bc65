package views

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestSpriteFile: the sprite the site serves (static/tiles.svg, embedded)
// is the one spriteSVG draws from the engine's tiles now; -update (which
// rewrites the golden files) writes it.
func TestSpriteFile(t *testing.T) {
	name := filepath.Join("..", "static", tileSprite)
	want := spriteSVG()
	if *update {
		if err := os.WriteFile(name, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not what spriteSVG draws now: go test ./views -run TestSpriteFile -update, and commit it", name)
	}
}
