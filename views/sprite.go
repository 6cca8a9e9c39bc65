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
// icons. Pages refer
// to its symbols (tileIcon) instead of carrying the drawings.
const tileSprite = "tiles.svg"

// RegisterSprite adds the tiles' sprite to the static files (static.Add).
// The program that serves pages calls it before it serves (handlers.New
// does): a page links to the sprite by its content's hash, and until the
// sprite is added such a page panics in static.Path rather than link to
// nothing. Calling it again does nothing.
func RegisterSprite() { static.Add(tileSprite, spriteSVG()) }

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
