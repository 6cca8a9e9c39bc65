// Package static holds the site's CSS and vendored scripts (htmx 2.0.11 from
// npm, under its 0BSD licence in vendor/htmx-LICENSE.txt), embedded in the
// binary: no CDN, no build step.
package static

import "embed"

// FS is the static files, served under /static/.
//
//go:embed app.css app.js vendor
var FS embed.FS
