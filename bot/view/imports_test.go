package view_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The renderer draws from its own types, game's and table's snapshots, never from the
// store's rows: none of its files imports package store, so a change to a row's shape
// is made in package bot, which fills the view's types, and not in every view.
func TestViewRendersWithoutImportingTheStore(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			if p == "github.com/pontoon-bot/pontoon/store" || strings.HasPrefix(p, "github.com/pontoon-bot/pontoon/store/") {
				t.Errorf("%s imports %s", name, p)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no view files found")
	}
}
