package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	xmessage "golang.org/x/text/message"
)

// SpecEnv names the environment variable that may point at Discord's OpenAPI
// spec (openapi.json). Without it the fake looks for shared/discord/openapi.json
// in the working directory and each of its parents.
const SpecEnv = "PONTOON_DISCORD_OPENAPI"

// openAPI is the part of Discord's OpenAPI 3.1 spec the fake uses: the JSON
// request body schema of each operation, compiled by
// github.com/santhosh-tekuri/jsonschema (JSON Schema 2020-12, which OpenAPI 3.1's
// schemas are) with every schema of components.schemas they refer to. Whatever a
// schema states (types, lengths, counts, patterns, ranges, enums, required and
// unknown fields, the unions of component types) is checked here, for every
// component type alike; validate.go keeps only what a schema cannot state.
// format is not checked.
type openAPI struct {
	path string
	ops  map[string]*jsonschema.Schema // "POST /channels/{channel_id}/messages" -> request body
}

var specCache struct {
	sync.Mutex
	byPath map[string]*openAPI
}

// findSpec returns the path of openapi.json, or "" when there is none.
func findSpec() string {
	if p := os.Getenv(SpecEnv); p != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
		return ""
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(dir, "shared", "discord", "openapi.json")
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// loadSpec parses and compiles the spec at path once per process.
func loadSpec(path string) (*openAPI, error) {
	specCache.Lock()
	defer specCache.Unlock()
	if o, ok := specCache.byPath[path]; ok {
		return o, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	schemas := map[string]any{}
	for name, s := range doc.Components.Schemas {
		v, err := decodeJSON(s)
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", name, err)
		}
		schemas[name] = v
	}
	ops := map[string]any{}
	for p, methods := range doc.Paths {
		for m, opRaw := range methods {
			var op struct {
				RequestBody struct {
					Content map[string]struct {
						Schema json.RawMessage `json:"schema"`
					} `json:"content"`
				} `json:"requestBody"`
			}
			if json.Unmarshal(opRaw, &op) != nil {
				continue // "parameters" and other non-operation keys
			}
			c, ok := op.RequestBody.Content["application/json"]
			if !ok || len(c.Schema) == 0 {
				continue
			}
			v, err := decodeJSON(c.Schema)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", m, p, err)
			}
			ops[strings.ToUpper(m)+" "+p] = v
		}
	}
	if len(ops) == 0 {
		return nil, fmt.Errorf("%s: no request bodies found", path)
	}
	o, err := newOpenAPI(schemas, ops)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	o.path = path
	if specCache.byPath == nil {
		specCache.byPath = map[string]*openAPI{}
	}
	specCache.byPath[path] = o
	return o, nil
}

// specURL is where the compiler finds the spec's schemas: one document holding
// components.schemas, which the operations' $refs (#/components/schemas/...) name,
// and the operations' request bodies under opsKey, by number.
const (
	specURL = "discordtest:///openapi.json"
	opsKey  = "x-request-bodies"
)

// newOpenAPI compiles named schemas (components.schemas) and the request body
// schema of each operation. The schemas are changed in place (see
// discriminatedUnions and integerStrings).
func newOpenAPI(schemas map[string]any, ops map[string]any) (*openAPI, error) {
	names := make([]string, 0, len(ops))
	for op := range ops {
		names = append(names, op)
	}
	sort.Strings(names)
	bodies := map[string]any{}
	for i, op := range names {
		bodies[strconv.Itoa(i)] = ops[op]
	}
	// The unions first: an enumeration written as a union of constants becomes an enum,
	// which integerStrings leaves as it is.
	for _, s := range schemas {
		discriminatedUnions(s, schemas)
	}
	for _, s := range bodies {
		discriminatedUnions(s, schemas)
	}
	for _, s := range schemas {
		integerStrings(s)
	}
	for _, s := range bodies {
		integerStrings(s)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.RegisterVocabulary(discordVocabulary())
	c.AssertVocabs()
	c.UseRegexpEngine(lenientRegexp)
	doc := map[string]any{"components": map[string]any{"schemas": schemas}, opsKey: bodies}
	if err := c.AddResource(specURL, doc); err != nil {
		return nil, err
	}
	o := &openAPI{ops: map[string]*jsonschema.Schema{}}
	for i, op := range names {
		sch, err := c.Compile(specURL + "#/" + opsKey + "/" + strconv.Itoa(i))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		o.ops[op] = sch
	}
	return o, nil
}

// lenientRegexp compiles a pattern with Go's regexp; a pattern RE2 cannot express
// (a lookahead, say) matches everything, rather than costing the whole spec.
func lenientRegexp(s string) (jsonschema.Regexp, error) {
	if re, err := regexp.Compile(s); err == nil {
		return re, nil
	}
	return anything(s), nil
}

type anything string

func (anything) MatchString(string) bool { return true }
func (a anything) String() string        { return string(a) }

// Discord takes integers written as strings (permissions, snowflakes as numbers):
// discordgo sends default_member_permissions that way. JSON Schema cannot say so, so
// integerStrings moves the "type" of every schema that allows an integer but not a
// string, and is not an enumeration, into integerStringKeyword, which allows those types or a string of digits,
// and applies the schema's range to the digits as to a number. It walks every
// object in the schema (a "properties" map's values too), looking only at "type"s
// that are a string or a list.
func integerStrings(v any) {
	switch s := v.(type) {
	case []any:
		for _, e := range s {
			integerStrings(e)
		}
	case map[string]any:
		for _, e := range s {
			integerStrings(e)
		}
		var types []string
		switch t := s["type"].(type) {
		case string:
			types = []string{t}
		case []any:
			for _, e := range t {
				if name, ok := e.(string); ok {
					types = append(types, name)
				}
			}
		default:
			return
		}
		_, isEnum := s["enum"]
		_, isConst := s["const"]
		if !typeAllows(types, "integer") || typeAllows(types, "string") || isEnum || isConst {
			return // an enumeration's values are sent as numbers
		}
		kw := map[string]any{"types": toAny(types)}
		for _, k := range [...]string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
			if b, ok := s[k]; ok {
				kw[k] = b
			}
		}
		delete(s, "type")
		s[integerStringKeyword] = kw
	}
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

const integerStringKeyword = "x-pontoon-integer"

// A union of Discord's components (a message's, a row's, a section's) has a branch
// per component type, told apart by the value's "type": a JSON Schema validator tries
// every branch, and building the errors of each one the value was not meant for cost
// ten times the rest of the check. discriminatedUnions replaces each anyOf and oneOf
// whose branches name the "type" values they take (properties.type's enum or const,
// through a $ref) with unionKeyword, which validates a value with a "type" against
// only the branches that take it, and any other value against all of them. A value
// passes, or fails, exactly as under the anyOf or oneOf: a branch passed over could
// not have matched.
func discriminatedUnions(v any, schemas map[string]any) {
	switch s := v.(type) {
	case []any:
		for _, e := range s {
			discriminatedUnions(e, schemas)
		}
	case map[string]any:
		for _, e := range s {
			discriminatedUnions(e, schemas)
		}
		for _, key := range [...]string{"anyOf", "oneOf"} {
			branches, ok := s[key].([]any)
			if !ok || len(branches) < 2 {
				continue
			}
			if consts, ok := onlyConsts(branches); ok && s["enum"] == nil {
				delete(s, key)
				s["enum"] = consts
				continue
			}
			types := make([]any, len(branches))
			told := false
			for i, b := range branches {
				if t := discriminator(b, schemas); t != nil {
					types[i], told = t, true
				}
			}
			if !told || s[unionKeyword] != nil {
				continue
			}
			delete(s, key)
			s[unionKeyword] = map[string]any{"one": key == "oneOf", "branches": branches, "types": types}
		}
	}
}

// onlyConsts reports whether each branch of a union is a constant and nothing more
// (Discord's enumerations: {"title": "BUTTON", "const": 2}), and lists them. Such a
// union is an enum of distinct values, which the validator checks in one pass
// instead of a scope per branch.
func onlyConsts(branches []any) ([]any, bool) {
	var consts []any
	seen := map[string]bool{}
	for _, b := range branches {
		m, ok := b.(map[string]any)
		c, has := m["const"]
		if !ok || !has {
			return nil, false
		}
		for k := range m {
			if k != "const" && k != "title" && k != "description" && k != "deprecated" && !strings.HasPrefix(k, "x-") {
				return nil, false
			}
		}
		key := compactJSON(c)
		if seen[key] {
			return nil, false // a oneOf of two equal constants matches neither
		}
		seen[key] = true
		consts = append(consts, c)
	}
	return consts, true
}

// discriminator is the list of "type" values a union's branch takes, nil when it
// does not say.
func discriminator(b any, schemas map[string]any) []any {
	for range 8 {
		m, ok := b.(map[string]any)
		if !ok {
			return nil
		}
		ref, isRef := m["$ref"].(string)
		if !isRef {
			props, _ := m["properties"].(map[string]any)
			t, _ := props["type"].(map[string]any)
			if e, ok := t["enum"].([]any); ok {
				return e
			}
			if c, ok := t["const"]; ok {
				return []any{c}
			}
			return nil
		}
		name, ok := strings.CutPrefix(ref, "#/components/schemas/")
		if !ok {
			return nil
		}
		b = schemas[name]
	}
	return nil
}

const unionKeyword = "x-pontoon-union"

// union is a compiled unionKeyword.
type union struct {
	one      bool
	branches []*jsonschema.Schema
	types    [][]any // the "type" values each branch takes; nil: any
}

func (u *union) Validate(ctx *jsonschema.ValidatorContext, v any) {
	var typ any
	obj, hasType := v.(map[string]any)
	if hasType {
		typ, hasType = obj["type"]
	}
	var errs []*jsonschema.ValidationError
	matched := 0
	for i, b := range u.branches {
		if hasType && u.types[i] != nil && !u.takes(ctx, i, typ) {
			continue
		}
		if err := ctx.Validate(b, v, nil); err != nil {
			if ve, ok := err.(*jsonschema.ValidationError); ok {
				errs = append(errs, ve)
			}
			continue
		}
		matched++
	}
	switch {
	case matched == 0 && len(errs) == 0:
		// No branch takes this "type": the first branch explains why.
		if err := ctx.Validate(u.branches[0], v, nil); err != nil {
			if ve, ok := err.(*jsonschema.ValidationError); ok {
				errs = append(errs, ve)
			}
		}
		ctx.AddErrors(errs, &unionFailed{})
	case matched == 0:
		ctx.AddErrors(errs, &unionFailed{})
	case u.one && matched > 1:
		ctx.AddError(&unionFailed{many: true})
	}
}

func (u *union) takes(ctx *jsonschema.ValidatorContext, i int, typ any) bool {
	for _, t := range u.types[i] {
		if a, ok := t.(json.Number); ok {
			if b, ok := typ.(json.Number); ok && a == b {
				return true // the common case, without the library's exact arithmetic
			}
		}
		if eq, err := ctx.Equals(t, typ); err == nil && eq {
			return true
		}
	}
	return false
}

// unionFailed is a union that no branch matched, or (many) a oneOf that several did.
type unionFailed struct{ many bool }

func (*unionFailed) KeywordPath() []string { return []string{unionKeyword} }

func (u *unionFailed) LocalizedString(*xmessage.Printer) string {
	if u.many {
		return "value matches more than one allowed type"
	}
	return "value matches no allowed type"
}

// discordVocabulary is integerStringKeyword and unionKeyword as a vocabulary of the
// compiler.
func discordVocabulary() *jsonschema.Vocabulary {
	c := jsonschema.NewCompiler()
	if err := c.AddResource("discordtest:///vocabulary.json", map[string]any{}); err != nil {
		panic(err)
	}
	meta := c.MustCompile("discordtest:///vocabulary.json")
	return &jsonschema.Vocabulary{URL: "discordtest:///vocabulary.json", Schema: meta,
		Subschemas: []jsonschema.SchemaPath{{jsonschema.Prop(unionKeyword), jsonschema.Prop("branches"), jsonschema.AllItem{}}},
		Compile: func(ctx *jsonschema.CompilerContext, obj map[string]any) (jsonschema.SchemaExt, error) {
			if u, ok := obj[unionKeyword].(map[string]any); ok {
				// A schema holds at most one of the two: see discriminatedUnions and
				// integerStrings, which never meet on one object in Discord's spec.
				return compileUnion(ctx, u), nil
			}
			kw, ok := obj[integerStringKeyword].(map[string]any)
			if !ok {
				return nil, nil
			}
			var t integerType
			list, _ := kw["types"].([]any)
			for _, e := range list {
				t.types = append(t.types, e.(string))
			}
			for k, dst := range map[string]**big.Rat{"minimum": &t.min, "maximum": &t.max,
				"exclusiveMinimum": &t.exMin, "exclusiveMaximum": &t.exMax} {
				if n, ok := kw[k].(json.Number); ok {
					if r, ok := new(big.Rat).SetString(n.String()); ok {
						*dst = r
					}
				}
			}
			return &t, nil
		}}
}

func compileUnion(ctx *jsonschema.CompilerContext, kw map[string]any) *union {
	u := &union{}
	u.one, _ = kw["one"].(bool)
	branches, _ := kw["branches"].([]any)
	types, _ := kw["types"].([]any)
	for i := range branches {
		u.branches = append(u.branches, ctx.Enqueue([]string{unionKeyword, "branches", strconv.Itoa(i)}))
		t, _ := types[i].([]any)
		u.types = append(u.types, t)
	}
	return u
}

// integerType is a compiled integerStringKeyword.
type integerType struct {
	types                  []string
	min, max, exMin, exMax *big.Rat
}

func (t *integerType) Validate(ctx *jsonschema.ValidatorContext, v any) {
	if typeMatches(t.types, v) {
		return
	}
	n, ok := numericString(v)
	x, isInt := new(big.Rat).SetString(string(n))
	if !ok || !isInt {
		ctx.AddError(&kind.Type{Got: jsonType(v), Want: t.types})
		return
	}
	switch {
	case t.min != nil && x.Cmp(t.min) < 0:
		ctx.AddError(&kind.Minimum{Got: x, Want: t.min})
	case t.max != nil && x.Cmp(t.max) > 0:
		ctx.AddError(&kind.Maximum{Got: x, Want: t.max})
	case t.exMin != nil && x.Cmp(t.exMin) <= 0:
		ctx.AddError(&kind.ExclusiveMinimum{Got: x, Want: t.exMin})
	case t.exMax != nil && x.Cmp(t.exMax) >= 0:
		ctx.AddError(&kind.ExclusiveMaximum{Got: x, Want: t.exMax})
	}
}

// decodeJSON decodes with json.Number so integers keep every digit.
func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("trailing data after JSON value")
	}
	return v, nil
}

// validateOp checks body against the request schema of the operation
// "METHOD /template". An operation the spec does not describe passes.
func (o *openAPI) validateOp(op string, body any) []fieldError {
	return o.validate(op, body, "")
}

// validate is validateOp for a body that sits at path in what Discord reports.
func (o *openAPI) validate(op string, body any, path string) []fieldError {
	sch, ok := o.ops[op]
	if !ok {
		return nil
	}
	err := sch.Validate(body)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []fieldError{invalid(path, "BASE_TYPE_INVALID", err.Error())}
	}
	return settle(fieldErrors(ve, path))
}

// schemaError is a field error; with typeError set it is are a value of the wrong JSON type: at its path
// the other errors (a union's branches, an enum) say nothing more.
type schemaError struct {
	fieldError
	typeError bool
}

// fieldErrors turns the library's tree of errors into Discord's field errors, as
// Discord words them. Of a union (anyOf, oneOf) that nothing matched it reports the
// branch the value most plausibly meant (see pickBranch).
func fieldErrors(e *jsonschema.ValidationError, prefix string) []schemaError {
	path := prefix
	for _, tok := range e.InstanceLocation {
		path = joinPath(path, tok)
	}
	var out []schemaError
	add := func(p, code, msg string) { out = append(out, schemaError{fieldError: invalid(p, code, msg)}) }
	switch k := e.ErrorKind.(type) {
	case *kind.AnyOf:
		return pickBranch(e.Causes, prefix, path)
	case *unionFailed:
		if k.many {
			add(path, "UNION_TYPE_CHOICES", "Value matches more than one allowed type.")
			return out
		}
		return pickBranch(e.Causes, prefix, path)
	case *kind.OneOf:
		if len(k.Subschemas) > 1 {
			add(path, "UNION_TYPE_CHOICES", "Value matches more than one allowed type.")
			return out
		}
		return pickBranch(e.Causes, prefix, path)
	case *kind.Type:
		out = append(out, schemaError{invalid(path, typeCode(k.Want), fmt.Sprintf("Must be of type %s.", strings.Join(k.Want, " or "))), true})
	case *kind.Required:
		for _, m := range k.Missing {
			out = append(out, schemaError{fieldError: required(joinPath(path, m))})
		}
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			add(joinPath(path, p), "UNKNOWN_FIELD", "Field is not allowed.")
		}
	case *kind.FalseSchema:
		add(path, "UNKNOWN_FIELD", "Field is not allowed.")
	case *kind.Enum:
		add(path, "BASE_TYPE_CHOICES", fmt.Sprintf("Value must be one of %s.", compactJSON(k.Want)))
	case *kind.Const:
		add(path, "BASE_TYPE_CHOICES", fmt.Sprintf("Value must be %s.", compactJSON(k.Want)))
	case *kind.MaxLength:
		out = append(out, schemaError{fieldError: maxLen(path, k.Want)})
	case *kind.MinLength:
		out = append(out, schemaError{fieldError: minLen(path, k.Want)})
	case *kind.MaxItems:
		out = append(out, schemaError{fieldError: maxLen(path, k.Want)})
	case *kind.MinItems:
		out = append(out, schemaError{fieldError: minLen(path, k.Want)})
	case *kind.MaxProperties:
		out = append(out, schemaError{fieldError: maxLen(path, k.Want)})
	case *kind.MinProperties:
		out = append(out, schemaError{fieldError: minLen(path, k.Want)})
	case *kind.UniqueItems:
		add(path, "BASE_TYPE_DUPLICATE", "Values must be unique.")
	case *kind.Pattern:
		add(path, "STRING_TYPE_REGEX", fmt.Sprintf("String value did not match validation regex %s.", k.Want))
	case *kind.Maximum:
		add(path, "NUMBER_TYPE_MAX", fmt.Sprintf("Value should be less than or equal to %s.", k.Want.RatString()))
	case *kind.Minimum:
		add(path, "NUMBER_TYPE_MIN", fmt.Sprintf("Value should be greater than or equal to %s.", k.Want.RatString()))
	case *kind.ExclusiveMaximum:
		add(path, "NUMBER_TYPE_MAX", fmt.Sprintf("Value should be less than %s.", k.Want.RatString()))
	case *kind.ExclusiveMinimum:
		add(path, "NUMBER_TYPE_MIN", fmt.Sprintf("Value should be greater than %s.", k.Want.RatString()))
	case *kind.Schema, *kind.Group, *kind.AllOf, *kind.Reference:
		// Containers: their causes say what failed.
	default:
		if len(e.Causes) == 0 {
			add(path, "BASE_TYPE_INVALID", e.ErrorKind.LocalizedString(english))
		}
	}
	for _, c := range e.Causes {
		out = append(out, fieldErrors(c, prefix)...)
	}
	return out
}

var english = xmessage.NewPrinter(language.English)

// pickBranch reports the union branch a value most plausibly meant: the one with
// the fewest errors, passing over those that fail on the value's own type or its
// "type" discriminator (the wrong kind of value is a poor explanation).
func pickBranch(branches []*jsonschema.ValidationError, prefix, path string) []schemaError {
	var best []schemaError
	bestScore := 0
	for i, b := range branches {
		errs := settle(fieldErrors(b, prefix))
		score := 1000 - len(errs)
		for _, e := range errs {
			if e.Path == path || e.Path == joinPath(path, "type") {
				score -= 500
				break
			}
		}
		if i == 0 || score > bestScore {
			bestScore = score
			best = best[:0]
			for _, e := range errs {
				best = append(best, schemaError{fieldError: e})
			}
		}
	}
	return best
}

// settle drops, at each path that has a type error, every other error, and sorts
// the rest by path.
func settle(errs []schemaError) []fieldError {
	wrongType := map[string]bool{}
	for _, e := range errs {
		if e.typeError {
			wrongType[e.Path] = true
		}
	}
	var out []fieldError
	seen := map[fieldError]bool{}
	for _, e := range errs {
		if (wrongType[e.Path] && !e.typeError) || seen[e.fieldError] {
			continue
		}
		seen[e.fieldError] = true
		out = append(out, e.fieldError)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func typeAllows(types []string, name string) bool {
	for _, t := range types {
		if t == name || (name == "integer" && t == "number") {
			return true
		}
	}
	return false
}

func typeMatches(types []string, v any) bool {
	for _, t := range types {
		if matchesType(t, v) {
			return true
		}
	}
	return false
}

func matchesType(t string, v any) bool {
	switch t {
	case "null":
		return v == nil
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "number":
		_, ok := v.(json.Number)
		return ok
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		if _, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			return true
		}
		r, ok := new(big.Rat).SetString(n.String())
		return ok && r.IsInt()
	}
	return true
}

// jsonType names v's JSON type as the library does.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func typeCode(t []string) string {
	switch {
	case typeAllows(t, "integer") && !typeAllows(t, "string"):
		return "NUMBER_TYPE_COERCE"
	case typeAllows(t, "string"):
		return "BASE_TYPE_STRING"
	case typeAllows(t, "boolean"):
		return "BASE_TYPE_BOOLEAN"
	case typeAllows(t, "array"):
		return "BASE_TYPE_ARRAY"
	case typeAllows(t, "object"):
		return "DICT_TYPE_CONVERT"
	}
	return "BASE_TYPE_INVALID"
}

// numericString reads a string of digits (with a sign) as Discord reads an integer
// sent as a string.
func numericString(v any) (json.Number, bool) {
	s, ok := v.(string)
	if !ok || s == "" || len(s) > 40 {
		return "", false
	}
	if _, err := strconv.ParseInt(s, 10, 64); err != nil {
		if _, err := strconv.ParseUint(s, 10, 64); err != nil {
			return "", false
		}
	}
	return json.Number(s), true
}

// compactJSON renders v for a message, shortened.
func compactJSON(v any) string {
	b, err := json.Marshal(v)
	s := string(b)
	if err != nil {
		s = fmt.Sprintf("%#v", v)
	}
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}
