package bot

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/pontoon-bot/pontoon/bot/i18n"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// visibleFields are the fields of Discord payloads that members read.
var visibleFields = map[string]bool{"Content": true, "Title": true, "Description": true, "Value": true, "Text": true,
	"Label": true, "Placeholder": true, "Name": true}

// identifierTypes hold a Name that is Discord's canonical command identifier, localized
// through NameLocalizations rather than the catalog.
var identifierTypes = map[string]bool{"ApplicationCommand": true, "ApplicationCommandOption": true, "optSpec": true, "subSpec": true}

// catalogCalls take catalog keys (and placeholder names) as literal arguments.
var catalogCalls = map[string]bool{"T": true, "refuse": true, "Refuse": true, "button": true, "localized": true, "kindText": true,
	"Offer": true, "Auction": true, "OfferEnded": true, "AuctionChanged": true}

// catalogArg is the position of the catalog key among each catalog call's arguments.
var catalogArg = map[string]int{"T": 1, "refuse": 0, "Refuse": 0, "button": 1, "localized": 0, "kindText": -1, "Offer": 2, "Auction": 2,
	"OfferEnded": 1, "AuctionChanged": 1}

// botDirs are the packages whose code reaches members: the adapter, the table and the view.
var botDirs = []string{".", "table", "view"}

// discordMarkup is text Discord renders itself (timestamps, mentions), not language.
var discordMarkup = regexp.MustCompile(`^<[t@][^>]*>$`)

func hasLetters(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

func parseBot(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	var files []string
	for _, d := range botDirs {
		fs, err := filepath.Glob(filepath.Join(d, "*.go"))
		require.NoError(t, err)
		files = append(files, fs...)
	}
	var out []*ast.File
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		require.NoError(t, err)
		out = append(out, af)
	}
	return fset, out
}

func callName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

func typeName(e ast.Expr) string {
	switch v := e.(type) {
	case *ast.Ident:
		return v.Name
	case *ast.SelectorExpr:
		return v.Sel.Name
	case *ast.StarExpr:
		return typeName(v.X)
	}
	return ""
}

// literalsOutsideCatalog lists the string literals with letters in an expression, except
// inside calls that take catalog keys.
func literalsOutsideCatalog(e ast.Expr) []string {
	var out []string
	ast.Inspect(e, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.CallExpr:
			if catalogCalls[callName(v)] {
				return false
			}
		case *ast.BasicLit:
			if v.Kind == token.STRING {
				s, _ := strconv.Unquote(v.Value)
				if hasLetters(s) && !discordMarkup.MatchString(s) {
					out = append(out, s)
				}
			}
		}
		return true
	})
	return out
}

// TestNoLiteralReachesDiscord fails when a string with letters is written straight into
// a field members read (content, embed texts, labels, placeholders, names) instead of
// coming from the catalog. Put the text in locales/en.toml and use b.cat.T.
func TestNoLiteralReachesDiscord(t *testing.T) {
	fset, files := parseBot(t)
	checked := 0
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			cl, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			tn := typeName(cl.Type)
			for _, el := range cl.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				key, ok := kv.Key.(*ast.Ident)
				if !ok || !visibleFields[key.Name] || (key.Name == "Name" && identifierTypes[tn]) {
					continue
				}
				checked++
				for _, lit := range literalsOutsideCatalog(kv.Value) {
					t.Errorf("%s: %s.%s is the literal %q; take it from the catalog", fset.Position(kv.Pos()), tn, key.Name, lit)
				}
			}
			return true
		})
	}
	assert.Greater(t, checked, 20, "the check found the payload fields it guards")
}

// TestCatalogKeysExist checks every literal catalog key the bot names, and every refusal
// the engine can give (err.<code>[.<why>]), against the English catalog.
func TestCatalogKeysExist(t *testing.T) {
	cat := i18n.MustLoad()
	fset, files := parseBot(t)
	n := 0
	for _, f := range files {
		ast.Inspect(f, func(node ast.Node) bool {
			c, ok := node.(*ast.CallExpr)
			if !ok || !catalogCalls[callName(c)] {
				return true
			}
			idx := catalogArg[callName(c)]
			if idx < 0 || idx >= len(c.Args) {
				return true
			}
			if lit, ok := c.Args[idx].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				key, _ := strconv.Unquote(lit.Value)
				if !strings.HasSuffix(key, ".") {
					n++
					assert.True(t, cat.Has(key), "%s: catalog key %q is missing", fset.Position(lit.Pos()), key)
				}
			}
			return true
		})
	}
	assert.Greater(t, n, 100)

	// Engine refusals: every code, and every code.why the engine writes.
	src := ""
	for _, f := range []string{"errors.go", "game.go", "turns.go"} {
		b, err := os.ReadFile(filepath.Join("..", "game", f))
		require.NoError(t, err)
		src += string(b)
	}
	for _, m := range regexp.MustCompile(`Code: "([a-z_]+)"`).FindAllStringSubmatch(src, -1) {
		assert.True(t, cat.Has("err."+m[1]), "engine code %s has no catalog entry", m[1])
	}
	whys := regexp.MustCompile(`newErr\((Err[A-Za-z]+), "[^"]*", (?:why\("([a-z_]+)"\)|map\[string\]any\{"why": "([a-z_]+)")`).FindAllStringSubmatch(src, -1)
	require.NotEmpty(t, whys)
	codes := map[string]string{}
	for _, m := range regexp.MustCompile(`(Err[A-Za-z]+) += &Error\{Code: "([a-z_]+)"`).FindAllStringSubmatch(src, -1) {
		codes[m[1]] = m[2]
	}
	for _, m := range whys {
		why := m[2] + m[3]
		assert.True(t, cat.Has("err."+codes[m[1]]+"."+why), "refusal err.%s.%s has no catalog entry", codes[m[1]], why)
	}
}
