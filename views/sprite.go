package views

import (
	"bytes"
	"context"
	"strconv"

	"cacao/engine"
	"cacao/static"
)

// handSprite is the static file with every worker tile in each of its four
// turns, one symbol each (tileGlyph): the hand's icons refer to it.
const handSprite = "hand.svg"

// RegisterSprite adds the hand's sprite to the static files (static.Add).
// The program that serves pages calls it before it serves (handlers.New
// does): a page with a hand links to the sprite by its content's hash, and
// until the sprite is added such a page panics in static.Path rather than
// link to nothing. Calling it again does nothing.
func RegisterSprite() { static.Add(handSprite, handSpriteSVG()) }

// handSpriteSVG draws the hand's sprite.
func handSpriteSVG() []byte {
	var b bytes.Buffer
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg">`)
	for w := engine.Worker(0); int(w) < engine.NumWorkerKinds; w++ {
		for rot := 0; rot < 4; rot++ {
			if err := tileGlyph(w, rot).Render(context.Background(), &b); err != nil {
				panic(err)
			}
		}
	}
	b.WriteString(`</svg>`)
	return b.Bytes()
}

// glyphID names worker tile w turned rot quarter turns in the sprite.
func glyphID(w engine.Worker, rot int) string { return "w" + w.String() + "-" + strconv.Itoa(rot) }

// handIcon is the address of that symbol.
func handIcon(w engine.Worker, rot int) string {
	return static.Path(handSprite) + "#" + glyphID(w, rot)
}
