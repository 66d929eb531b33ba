package table_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// maxInterfaceMethods is the most methods an interface of this module may have, its
// embedded ones counted: an interface is declared where it is used, for what that use
// needs, and a wide one is a sign of a caller taking more than it uses.
const maxInterfaceMethods = 8

// Every interface type in the module's code (named or not, tests aside) has at most
// maxInterfaceMethods methods, counting those of the interfaces it embeds. Embedded
// interfaces declared in the module are resolved by name, through aliases and across
// packages; error counts its one method; an interface from another module counts as
// none, since its methods cannot be read from the source parsed here.
func TestNoInterfaceHasMoreThanEightMethods(t *testing.T) {
	root, modPath := moduleRoot(t)
	mod := parseModule(t, root, modPath)

	var over []string
	for _, p := range mod.pkgs {
		for _, f := range p.files {
			ast.Inspect(f.file, func(n ast.Node) bool {
				it, ok := n.(*ast.InterfaceType)
				if !ok {
					return true
				}
				if got := len(mod.methods(it, f, map[string]bool{})); got > maxInterfaceMethods {
					over = append(over, fmt.Sprintf("%s: %s has %d methods", mod.fset.Position(it.Pos()), mod.nameOf(it), got))
				}
				return true
			})
		}
	}
	sort.Strings(over)
	if len(over) > 0 {
		t.Errorf("interfaces over %d methods (embedded ones counted):\n%s", maxInterfaceMethods, strings.Join(over, "\n"))
	}
}

type parsedFile struct {
	file    *ast.File
	pkg     string            // the import path of its package
	imports map[string]string // the name a file uses for an import -> its path
}

type parsedPkg struct {
	name  string
	files []*parsedFile
}

type typeDecl struct {
	spec *ast.TypeSpec
	file *parsedFile
}

type module struct {
	fset  *token.FileSet
	path  string
	pkgs  map[string]*parsedPkg // import path -> package
	types map[string]typeDecl   // import path + "." + type name -> its declaration
	names map[*ast.InterfaceType]string
}

// moduleRoot walks up from the test's directory to the go.mod and reads the module path.
func moduleRoot(t *testing.T) (dir, modPath string) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
					return dir, strings.Trim(strings.TrimSpace(rest), `"`)
				}
			}
			t.Fatalf("%s/go.mod names no module", dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// parseModule parses every non-test Go file of the module, leaving out testdata,
// vendor, hidden folders and nested modules, as the go command does.
func parseModule(t *testing.T, root, modPath string) *module {
	t.Helper()
	m := &module{fset: token.NewFileSet(), path: modPath, pkgs: map[string]*parsedPkg{}, types: map[string]typeDecl{},
		names: map[*ast.InterfaceType]string{}}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			base := d.Name()
			if p != root && (base == "testdata" || base == "vendor" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); p != root && err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(m.fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		pkgPath := modPath
		if rel != "." {
			pkgPath = modPath + "/" + filepath.ToSlash(rel)
		}
		pf := &parsedFile{file: f, pkg: pkgPath}
		pkg := m.pkgs[pkgPath]
		if pkg == nil {
			pkg = &parsedPkg{name: f.Name.Name}
			m.pkgs[pkgPath] = pkg
		}
		pkg.files = append(pkg.files, pf)
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				m.types[pkgPath+"."+ts.Name.Name] = typeDecl{spec: ts, file: pf}
				if it, ok := ts.Type.(*ast.InterfaceType); ok {
					m.names[it] = pkgPath + "." + ts.Name.Name
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A file names an import by its package's name unless it renames it; the module's
	// own packages' names are known now, others are guessed from the path's last element.
	for _, pkg := range m.pkgs {
		for _, f := range pkg.files {
			f.imports = map[string]string{}
			for _, imp := range f.file.Imports {
				ip, err := strconv.Unquote(imp.Path.Value)
				if err != nil {
					t.Fatal(err)
				}
				name := path.Base(ip)
				if p := m.pkgs[ip]; p != nil {
					name = p.name
				}
				if imp.Name != nil {
					name = imp.Name.Name
				}
				f.imports[name] = ip
			}
		}
	}
	if len(m.types) == 0 {
		t.Fatal("no type declarations found: the walk missed the module")
	}
	return m
}

func (m *module) nameOf(it *ast.InterfaceType) string {
	if n, ok := m.names[it]; ok {
		return n
	}
	return "an interface literal"
}

// methods are the names of the methods of the type expression e, written in file f: an
// interface's own and its embedded ones' (a method embedded twice is one, as in Go's
// method sets). seen stops a cycle of declarations.
func (m *module) methods(e ast.Expr, f *parsedFile, seen map[string]bool) map[string]bool {
	set := map[string]bool{}
	switch e := e.(type) {
	case *ast.InterfaceType:
		for _, field := range e.Methods.List {
			for _, n := range field.Names {
				set[n.Name] = true
			}
			if len(field.Names) == 0 { // embedded; a type-set element (~T, A | B) has none
				for n := range m.methods(field.Type, f, seen) {
					set[n] = true
				}
			}
		}
	case *ast.ParenExpr:
		return m.methods(e.X, f, seen)
	case *ast.IndexExpr:
		return m.methods(e.X, f, seen)
	case *ast.IndexListExpr:
		return m.methods(e.X, f, seen)
	case *ast.Ident:
		if d, ok := m.types[f.pkg+"."+e.Name]; ok {
			return m.declMethods(f.pkg+"."+e.Name, d, seen)
		}
		if e.Name == "error" {
			set["Error"] = true
		}
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		if !ok {
			break
		}
		if ip, ok := f.imports[x.Name]; ok {
			key := ip + "." + e.Sel.Name
			if d, ok := m.types[key]; ok {
				return m.declMethods(key, d, seen)
			}
		}
		// another module's: its methods are not in the source parsed here
	}
	return set
}

func (m *module) declMethods(key string, d typeDecl, seen map[string]bool) map[string]bool {
	if seen[key] {
		return map[string]bool{}
	}
	seen[key] = true
	defer delete(seen, key)
	return m.methods(d.spec.Type, d.file, seen)
}
