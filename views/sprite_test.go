package views

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"cacao/engine"
	"cacao/views/i18n"
	"cacao/views/viewtest"
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

// TestEveryJungleTileDrawn: each kind of jungle tile has a picture in the
// sprite and a name of its own, so that a kind the views do not know
// (they panic) cannot be drawn or named as another.
func TestEveryJungleTileDrawn(t *testing.T) {
	sprite := string(spriteSVG())
	names := map[string]engine.Jungle{}
	for j := engine.Jungle(1); int(j) <= engine.NumJungleKinds; j++ {
		if !viewtest.Has(t, sprite, `[id="`+jungleID(j)+`"]`) {
			t.Errorf("%v has no picture in the sprite", j)
		}
		name := JungleName(i18n.En, j)
		if other, ok := names[name]; ok && other.Kind().Effect != j.Kind().Effect {
			t.Errorf("%v and %v are both named %q", other, j, name)
		}
		names[name] = j
	}
}
