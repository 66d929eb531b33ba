package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// SpecEnv names the environment variable that may point at Discord's OpenAPI
// spec (openapi.json). Without it the fake looks for shared/discord/openapi.json
// in the working directory and each of its parents.
const SpecEnv = "PONTOON_DISCORD_OPENAPI"

// openAPI is the part of Discord's OpenAPI 3.1 spec the fake uses: the JSON
// request body schema of each operation, compiled once and checked by a small
// JSON Schema interpreter covering the keywords those schemas use ($ref, type
// (also as a list, with null), properties, required, additionalProperties,
// min/maxProperties, min/maxLength, pattern, min/maxItems, uniqueItems,
// items, minimum/maximum, enum, const, allOf, anyOf, oneOf). format is not
// checked.
type openAPI struct {
	path  string
	named map[string]*schemaNode
	ops   map[string]*schemaNode // "POST /channels/{channel_id}/messages" -> request body
}

// schemaNode is one compiled schema.
type schemaNode struct {
	isBool, allow bool // a boolean schema: true allows anything, false nothing
	ref           *schemaNode
	onlyRef       bool     // the schema is nothing but a $ref
	types         []string // nil: any type
	enum          []any
	hasEnum       bool
	constV        any
	hasConst      bool
	minLen        int // -1: none
	maxLen        int
	pattern       *regexp.Regexp
	patternSrc    string
	minimum       json.Number // "": none
	maximum       json.Number
	exMin, exMax  json.Number
	minItems      int
	maxItems      int
	unique        bool
	items         *schemaNode
	required      []string
	props         map[string]*schemaNode
	addl          *schemaNode
	minProps      int
	maxProps      int
	allOf         []*schemaNode
	anyOf         []*schemaNode
	oneOf         []*schemaNode
	typeProp      []any // allowed values of properties.type (enum or const), for quick rejection
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

// newOpenAPI compiles named schemas (components.schemas) and operations.
func newOpenAPI(schemas map[string]any, ops map[string]any) (*openAPI, error) {
	o := &openAPI{named: map[string]*schemaNode{}, ops: map[string]*schemaNode{}}
	for name := range schemas {
		o.named[name] = &schemaNode{} // placeholders, so $refs can point at them
	}
	for name, raw := range schemas {
		n, err := o.compile(raw)
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", name, err)
		}
		*o.named[name] = *n
	}
	for op, raw := range ops {
		n, err := o.compile(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		o.ops[op] = n
	}
	return o, nil
}

func (o *openAPI) compile(v any) (*schemaNode, error) {
	switch s := v.(type) {
	case bool:
		return &schemaNode{isBool: true, allow: s}, nil
	case map[string]any:
		n := &schemaNode{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1}
		var err error
		if ref, ok := s["$ref"].(string); ok {
			n.ref = o.named[strings.TrimPrefix(ref, "#/components/schemas/")]
			n.onlyRef = len(s) == 1
		}
		switch t := s["type"].(type) {
		case string:
			n.types = []string{t}
		case []any:
			for _, e := range t {
				if str, ok := e.(string); ok {
					n.types = append(n.types, str)
				}
			}
		}
		n.enum, n.hasEnum = s["enum"].([]any)
		n.constV, n.hasConst = s["const"]
		n.minLen, n.maxLen = intKeyword(s, "minLength"), intKeyword(s, "maxLength")
		n.minItems, n.maxItems = intKeyword(s, "minItems"), intKeyword(s, "maxItems")
		n.minProps, n.maxProps = intKeyword(s, "minProperties"), intKeyword(s, "maxProperties")
		if p, ok := s["pattern"].(string); ok {
			n.patternSrc = p
			n.pattern, _ = regexp.Compile(p) // a pattern RE2 cannot express is skipped
		}
		n.minimum, _ = s["minimum"].(json.Number)
		n.maximum, _ = s["maximum"].(json.Number)
		n.exMin, _ = s["exclusiveMinimum"].(json.Number)
		n.exMax, _ = s["exclusiveMaximum"].(json.Number)
		n.unique, _ = s["uniqueItems"].(bool)
		if it, ok := s["items"]; ok {
			if n.items, err = o.compile(it); err != nil {
				return nil, err
			}
		}
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if name, ok := r.(string); ok {
					n.required = append(n.required, name)
				}
			}
		}
		if props, ok := s["properties"].(map[string]any); ok {
			n.props = map[string]*schemaNode{}
			for k, ps := range props {
				if n.props[k], err = o.compile(ps); err != nil {
					return nil, err
				}
			}
			if ts, ok := props["type"].(map[string]any); ok {
				if e, ok := ts["enum"].([]any); ok {
					n.typeProp = e
				} else if c, ok := ts["const"]; ok {
					n.typeProp = []any{c}
				}
			}
		}
		if a, ok := s["additionalProperties"]; ok {
			if n.addl, err = o.compile(a); err != nil {
				return nil, err
			}
		}
		for _, kw := range [...]struct {
			key string
			dst *[]*schemaNode
		}{{"allOf", &n.allOf}, {"anyOf", &n.anyOf}, {"oneOf", &n.oneOf}} {
			list, _ := s[kw.key].([]any)
			for _, sub := range list {
				c, err := o.compile(sub)
				if err != nil {
					return nil, err
				}
				*kw.dst = append(*kw.dst, c)
			}
		}
		return n, nil
	}
	return nil, fmt.Errorf("schema of type %T", v)
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
	n, ok := o.ops[op]
	if !ok {
		return nil
	}
	return o.check(n, body, "", 0)
}

const maxSchemaDepth = 64

func (o *openAPI) check(n *schemaNode, v any, path string, depth int) []fieldError {
	if n == nil {
		return nil
	}
	if depth > maxSchemaDepth {
		return []fieldError{invalid(path, "SCHEMA_TOO_DEEP", "Value is nested too deeply.")}
	}
	if n.isBool {
		if !n.allow {
			return []fieldError{invalid(path, "UNKNOWN_FIELD", "Field is not allowed.")}
		}
		return nil
	}
	var errs []fieldError
	if n.ref != nil {
		errs = append(errs, o.check(n.ref, v, path, depth+1)...)
	}
	if n.types != nil {
		// Discord takes integers written as strings (permissions, snowflakes);
		// discordgo sends default_member_permissions that way.
		if num, ok := numericString(v); ok && typeAllows(n.types, "integer") && !typeAllows(n.types, "string") {
			v = num
		}
		if !typeMatches(n.types, v) {
			return append(errs, invalid(path, typeCode(n.types), fmt.Sprintf("Must be of type %s.", typeName(n.types))))
		}
	}
	if n.hasEnum {
		match := false
		for _, c := range n.enum {
			if jsonEqual(c, v) {
				match = true
				break
			}
		}
		if !match {
			errs = append(errs, invalid(path, "BASE_TYPE_CHOICES", fmt.Sprintf("Value must be one of %s.", compactJSON(n.enum))))
		}
	}
	if n.hasConst && !jsonEqual(n.constV, v) {
		errs = append(errs, invalid(path, "BASE_TYPE_CHOICES", fmt.Sprintf("Value must be %s.", compactJSON(n.constV))))
	}

	switch x := v.(type) {
	case string:
		if n.maxLen >= 0 || n.minLen >= 0 {
			l := utf8.RuneCountInString(x)
			if n.maxLen >= 0 && l > n.maxLen {
				errs = append(errs, maxLen(path, n.maxLen))
			}
			if n.minLen >= 0 && l < n.minLen {
				errs = append(errs, minLen(path, n.minLen))
			}
		}
		if n.pattern != nil && !n.pattern.MatchString(x) {
			errs = append(errs, invalid(path, "STRING_TYPE_REGEX", fmt.Sprintf("String value did not match validation regex %s.", n.patternSrc)))
		}
	case json.Number:
		errs = append(errs, checkRange(n, x, path)...)
	case []any:
		if n.maxItems >= 0 && len(x) > n.maxItems {
			errs = append(errs, maxLen(path, n.maxItems))
		}
		if n.minItems >= 0 && len(x) < n.minItems {
			errs = append(errs, minLen(path, n.minItems))
		}
		if n.unique {
			seen := map[string]bool{}
			for _, item := range x {
				k := canonicalJSON(item)
				if seen[k] {
					errs = append(errs, invalid(path, "BASE_TYPE_DUPLICATE", "Values must be unique."))
					break
				}
				seen[k] = true
			}
		}
		if n.items != nil {
			for i, item := range x {
				errs = append(errs, o.check(n.items, item, joinPath(path, i), depth+1)...)
			}
		}
	case map[string]any:
		if n.maxProps >= 0 && len(x) > n.maxProps {
			errs = append(errs, maxLen(path, n.maxProps))
		}
		if n.minProps >= 0 && len(x) < n.minProps {
			errs = append(errs, minLen(path, n.minProps))
		}
		for _, name := range n.required {
			if _, present := x[name]; !present {
				errs = append(errs, required(joinPath(path, name)))
			}
		}
		if n.props != nil || n.addl != nil {
			// Map order does not matter: errInvalidForm sorts the errors.
			for k, val := range x {
				if ps, ok := n.props[k]; ok {
					errs = append(errs, o.check(ps, val, joinPath(path, k), depth+1)...)
				} else if n.addl != nil {
					errs = append(errs, o.check(n.addl, val, joinPath(path, k), depth+1)...)
				}
			}
		}
	}

	for _, sub := range n.allOf {
		errs = append(errs, o.check(sub, v, path, depth+1)...)
	}
	if n.anyOf != nil {
		if matched, best := o.union(n.anyOf, v, path, depth); matched == 0 {
			errs = append(errs, best...)
		}
	}
	if n.oneOf != nil {
		matched, best := o.union(n.oneOf, v, path, depth)
		switch {
		case matched == 0:
			errs = append(errs, best...)
		case matched > 1:
			errs = append(errs, invalid(path, "UNION_TYPE_CHOICES", "Value matches more than one allowed type."))
		}
	}
	return errs
}

// union validates v against each branch and returns how many matched and,
// when none did, the errors of the branch v most plausibly meant: one whose
// type and "type" discriminator fit, with the fewest errors. Branches whose
// JSON type or "type" discriminator cannot fit are skipped cheaply.
func (o *openAPI) union(branches []*schemaNode, v any, path string, depth int) (int, []fieldError) {
	matched := 0
	var best []fieldError
	bestScore := -1
	checked := 0
	for _, b := range branches {
		if quickReject(b, v) {
			continue
		}
		checked++
		errs := o.check(b, v, path, depth+1)
		if len(errs) == 0 {
			matched++
			continue
		}
		score := 1000 - len(errs)
		for _, e := range errs {
			if e.Path == path || e.Path == joinPath(path, "type") {
				score -= 500 // wrong kind of value: a poor explanation
				break
			}
		}
		if score > bestScore {
			bestScore, best = score, errs
		}
	}
	if matched == 0 && checked == 0 {
		// Every branch was ruled out by kind: explain with the first one.
		for _, b := range branches {
			if errs := o.check(b, v, path, depth+1); len(errs) > 0 {
				return 0, errs
			}
		}
	}
	return matched, best
}

// quickReject reports whether v certainly fails n, judging only its JSON
// type and, for objects, the allowed values of its "type" property.
func quickReject(n *schemaNode, v any) bool {
	for i := 0; n != nil && n.onlyRef && i < 8; i++ {
		n = n.ref
	}
	if n == nil || n.isBool {
		return false
	}
	if n.types != nil {
		if _, isStr := v.(string); !(isStr && typeAllows(n.types, "integer")) && !typeMatches(n.types, v) {
			return true
		}
	}
	if n.typeProp == nil {
		return false
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return false
	}
	tv, present := obj["type"]
	if !present {
		return false
	}
	for _, c := range n.typeProp {
		if jsonEqual(c, tv) {
			return false
		}
	}
	return true
}

// checkRange applies minimum, maximum and their exclusive forms, in int64
// when both sides fit and exactly (big.Rat) otherwise.
func checkRange(n *schemaNode, x json.Number, path string) []fieldError {
	var errs []fieldError
	var r *big.Rat
	for _, b := range [...]struct {
		k     string
		bound json.Number
	}{{"maximum", n.maximum}, {"minimum", n.minimum}, {"exclusiveMaximum", n.exMax}, {"exclusiveMinimum", n.exMin}} {
		if b.bound == "" {
			continue
		}
		var cmp int
		xi, err1 := strconv.ParseInt(string(x), 10, 64)
		bi, err2 := strconv.ParseInt(string(b.bound), 10, 64)
		if err1 == nil && err2 == nil {
			switch {
			case xi < bi:
				cmp = -1
			case xi > bi:
				cmp = 1
			}
		} else {
			if r == nil {
				var ok bool
				if r, ok = new(big.Rat).SetString(x.String()); !ok {
					return nil
				}
			}
			br, ok := new(big.Rat).SetString(b.bound.String())
			if !ok {
				continue
			}
			cmp = r.Cmp(br)
		}
		switch {
		case b.k == "maximum" && cmp > 0:
			errs = append(errs, invalid(path, "NUMBER_TYPE_MAX", fmt.Sprintf("Value should be less than or equal to %s.", b.bound)))
		case b.k == "minimum" && cmp < 0:
			errs = append(errs, invalid(path, "NUMBER_TYPE_MIN", fmt.Sprintf("Value should be greater than or equal to %s.", b.bound)))
		case b.k == "exclusiveMaximum" && cmp >= 0:
			errs = append(errs, invalid(path, "NUMBER_TYPE_MAX", fmt.Sprintf("Value should be less than %s.", b.bound)))
		case b.k == "exclusiveMinimum" && cmp <= 0:
			errs = append(errs, invalid(path, "NUMBER_TYPE_MIN", fmt.Sprintf("Value should be greater than %s.", b.bound)))
		}
	}
	return errs
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

func typeName(types []string) string { return strings.Join(types, " or ") }

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

// intKeyword reads a non-negative integer keyword, -1 when absent.
func intKeyword(s map[string]any, k string) int {
	n, ok := s[k].(json.Number)
	if !ok {
		return -1
	}
	i, err := n.Int64()
	if err != nil || i < 0 {
		return -1
	}
	return int(i)
}

// jsonEqual compares two decoded JSON values, numbers by value.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		if x == y {
			return true
		}
		xi, err1 := strconv.ParseInt(string(x), 10, 64)
		yi, err2 := strconv.ParseInt(string(y), 10, 64)
		if err1 == nil && err2 == nil {
			return xi == yi
		}
		xr, ok1 := new(big.Rat).SetString(x.String())
		yr, ok2 := new(big.Rat).SetString(y.String())
		return ok1 && ok2 && xr.Cmp(yr) == 0
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	}
	if _, ok := b.(json.Number); ok {
		return false
	}
	return canonicalJSON(a) == canonicalJSON(b)
}

// canonicalJSON renders v with sorted keys (encoding/json sorts map keys).
func canonicalJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

func compactJSON(v any) string {
	s := canonicalJSON(v)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}
