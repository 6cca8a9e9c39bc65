package views

import (
	"bytes"
	"context"
	"strconv"

	"cacao/engine"
	"cacao/static"
)

// tileSprite is the static file with the drawings of the pieces, one
// symbol each: every worker tile in each of its four turns (tileGlyph),
// every jungle tile and one face down (junglePicture) and the village's
// icons. Pages refer to its symbols (tileIcon) instead of carrying the
// drawings. spriteSVG draws it from the engine's tiles; the file is
// committed and embedded like the others (TestSpriteFile says when it is
// behind: go test ./views -run TestSpriteFile -update writes it).
const tileSprite = "tiles.svg"

// spriteSVG draws the tiles' sprite.
func spriteSVG() []byte {
	var b bytes.Buffer
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg">`)
	for w := engine.Worker(0); int(w) < engine.NumWorkerKinds; w++ {
		for rot := 0; rot < 4; rot++ {
			must(tileGlyph(w, rot).Render(context.Background(), &b))
		}
	}
	for j := engine.NoJungle; int(j) <= engine.NumJungleKinds; j++ {
		must(junglePicture(j).Render(context.Background(), &b))
	}
	must(villageIcons().Render(context.Background(), &b))
	b.WriteString(`</svg>`)
	return b.Bytes()
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// glyphID names worker tile w turned rot quarter turns in the sprite.
func glyphID(w engine.Worker, rot int) string { return "w" + w.String() + "-" + strconv.Itoa(rot) }

// tileIcon is the address of the sprite's symbol id.
func tileIcon(id string) string { return static.Path(tileSprite) + "#" + id }

// handIcon is the address of worker tile w turned rot.
func handIcon(w engine.Worker, rot int) string { return tileIcon(glyphID(w, rot)) }
