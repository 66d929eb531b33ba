package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// Files holds the page, rooted at static/: index.html, app.js, channel.js, felt.css and
// vendor/ (the Embedded App SDK bundle and its licences). bot/activity serves it at "/".
var Files fs.FS = mustSub(static, "static")

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		// fs.Sub fails only on an invalid path, and dir is a constant.
		panic(err)
	}
	return sub
}
