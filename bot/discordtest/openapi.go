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
	"unicode/utf8"
)

// SpecEnv names the environment variable that may point at Discord's OpenAPI
// spec (openapi.json). Without it the fake looks for shared/discord/openapi.json
// in the working directory and each of its parents.
const SpecEnv = "PONTOON_DISCORD_OPENAPI"

// openAPI is the part of Discord's OpenAPI 3.1 spec the fake uses: the JSON
// request body schema of each operation, validated by a small JSON Schema
// interpreter covering the keywords those schemas use ($ref, type (also as a
// list, with null), properties, required, additionalProperties,
// min/maxProperties, min/maxLength, pattern, min/maxItems, uniqueItems,
// items, minimum/maximum, enum, const, allOf, anyOf, oneOf). format is not
// checked.
type openAPI struct {
	path    string
	schemas map[string]any
	ops     map[string]any // "POST /channels/{channel_id}/messages" -> schema

	reMu sync.Mutex
	res  map[string]*regexp.Regexp
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

// loadSpec parses the spec at path once per process.
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
	o := &openAPI{path: path, schemas: map[string]any{}, ops: map[string]any{}, res: map[string]*regexp.Regexp{}}
	for name, s := range doc.Components.Schemas {
		v, err := decodeJSON(s)
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", name, err)
		}
		o.schemas[name] = v
	}
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
			o.ops[strings.ToUpper(m)+" "+p] = v
		}
	}
	if len(o.ops) == 0 {
		return nil, fmt.Errorf("%s: no request bodies found", path)
	}
	if specCache.byPath == nil {
		specCache.byPath = map[string]*openAPI{}
	}
	specCache.byPath[path] = o
	return o, nil
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
	s, ok := o.ops[op]
	if !ok {
		return nil
	}
	return o.check(s, body, "", 0)
}

const maxSchemaDepth = 64

func (o *openAPI) check(schema, v any, path string, depth int) []fieldError {
	if depth > maxSchemaDepth {
		return []fieldError{invalid(path, "SCHEMA_TOO_DEEP", "Value is nested too deeply.")}
	}
	switch s := schema.(type) {
	case bool:
		if !s {
			return []fieldError{invalid(path, "UNKNOWN_FIELD", "Field is not allowed.")}
		}
		return nil
	case map[string]any:
		return o.checkObject(s, v, path, depth)
	default:
		return nil
	}
}

func (o *openAPI) checkObject(s map[string]any, v any, path string, depth int) []fieldError {
	var errs []fieldError
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		if target, ok := o.schemas[name]; ok {
			errs = append(errs, o.check(target, v, path, depth+1)...)
		}
	}

	// Discord takes integers written as strings (permissions, snowflakes);
	// discordgo sends default_member_permissions that way.
	if n, ok := numericString(v); ok && typeAllows(s["type"], "integer") && !typeAllows(s["type"], "string") {
		v = n
	}

	if t, ok := s["type"]; ok && !typeMatches(t, v) {
		return append(errs, invalid(path, typeCode(t), fmt.Sprintf("Must be of type %s.", typeName(t))))
	}
	if e, ok := s["enum"].([]any); ok {
		match := false
		for _, c := range e {
			if jsonEqual(c, v) {
				match = true
				break
			}
		}
		if !match {
			errs = append(errs, invalid(path, "BASE_TYPE_CHOICES", fmt.Sprintf("Value must be one of %s.", compactJSON(e))))
		}
	}
	if c, ok := s["const"]; ok && !jsonEqual(c, v) {
		errs = append(errs, invalid(path, "BASE_TYPE_CHOICES", fmt.Sprintf("Value must be %s.", compactJSON(c))))
	}

	switch x := v.(type) {
	case string:
		n := utf8.RuneCountInString(x)
		if m, ok := intKeyword(s, "maxLength"); ok && n > m {
			errs = append(errs, maxLen(path, m))
		}
		if m, ok := intKeyword(s, "minLength"); ok && n < m {
			errs = append(errs, minLen(path, m))
		}
		if p, ok := s["pattern"].(string); ok {
			if re := o.regexp(p); re != nil && !re.MatchString(x) {
				errs = append(errs, invalid(path, "STRING_TYPE_REGEX", fmt.Sprintf("String value did not match validation regex %s.", p)))
			}
		}
	case json.Number:
		r, ok := new(big.Rat).SetString(x.String())
		if ok {
			if m, ok := ratKeyword(s, "maximum"); ok && r.Cmp(m) > 0 {
				errs = append(errs, invalid(path, "NUMBER_TYPE_MAX", fmt.Sprintf("Value should be less than or equal to %s.", m.RatString())))
			}
			if m, ok := ratKeyword(s, "minimum"); ok && r.Cmp(m) < 0 {
				errs = append(errs, invalid(path, "NUMBER_TYPE_MIN", fmt.Sprintf("Value should be greater than or equal to %s.", m.RatString())))
			}
			if m, ok := ratKeyword(s, "exclusiveMaximum"); ok && r.Cmp(m) >= 0 {
				errs = append(errs, invalid(path, "NUMBER_TYPE_MAX", fmt.Sprintf("Value should be less than %s.", m.RatString())))
			}
			if m, ok := ratKeyword(s, "exclusiveMinimum"); ok && r.Cmp(m) <= 0 {
				errs = append(errs, invalid(path, "NUMBER_TYPE_MIN", fmt.Sprintf("Value should be greater than %s.", m.RatString())))
			}
		}
	case []any:
		if m, ok := intKeyword(s, "maxItems"); ok && len(x) > m {
			errs = append(errs, maxLen(path, m))
		}
		if m, ok := intKeyword(s, "minItems"); ok && len(x) < m {
			errs = append(errs, minLen(path, m))
		}
		if u, _ := s["uniqueItems"].(bool); u {
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
		if items, ok := s["items"]; ok {
			for i, item := range x {
				errs = append(errs, o.check(items, item, joinPath(path, i), depth+1)...)
			}
		}
	case map[string]any:
		if m, ok := intKeyword(s, "maxProperties"); ok && len(x) > m {
			errs = append(errs, maxLen(path, m))
		}
		if m, ok := intKeyword(s, "minProperties"); ok && len(x) < m {
			errs = append(errs, minLen(path, m))
		}
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				name, _ := r.(string)
				if _, present := x[name]; !present {
					errs = append(errs, required(joinPath(path, name)))
				}
			}
		}
		props, _ := s["properties"].(map[string]any)
		addl, hasAddl := s["additionalProperties"]
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ps, ok := props[k]; ok {
				errs = append(errs, o.check(ps, x[k], joinPath(path, k), depth+1)...)
			} else if hasAddl {
				errs = append(errs, o.check(addl, x[k], joinPath(path, k), depth+1)...)
			}
		}
	}

	if all, ok := s["allOf"].([]any); ok {
		for _, sub := range all {
			errs = append(errs, o.check(sub, v, path, depth+1)...)
		}
	}
	if anyOf, ok := s["anyOf"].([]any); ok {
		if ok, best := o.union(anyOf, v, path, depth); ok == 0 {
			errs = append(errs, best...)
		}
	}
	if oneOf, ok := s["oneOf"].([]any); ok {
		n, best := o.union(oneOf, v, path, depth)
		switch {
		case n == 0:
			errs = append(errs, best...)
		case n > 1:
			errs = append(errs, invalid(path, "UNION_TYPE_CHOICES", "Value matches more than one allowed type."))
		}
	}
	return errs
}

// union validates v against each branch and returns how many matched and,
// when none did, the errors of the branch v most plausibly meant: one whose
// type and "type" discriminator fit, with the fewest errors.
func (o *openAPI) union(branches []any, v any, path string, depth int) (int, []fieldError) {
	matched := 0
	var best []fieldError
	bestScore := -1
	for _, b := range branches {
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
	return matched, best
}

func (o *openAPI) regexp(p string) *regexp.Regexp {
	o.reMu.Lock()
	defer o.reMu.Unlock()
	if re, ok := o.res[p]; ok {
		return re
	}
	re, err := regexp.Compile(p)
	if err != nil {
		re = nil // a pattern RE2 cannot express is skipped
	}
	o.res[p] = re
	return re
}

func typeAllows(t any, name string) bool {
	switch x := t.(type) {
	case string:
		return x == name || (name == "integer" && x == "number")
	case []any:
		for _, e := range x {
			if typeAllows(e, name) {
				return true
			}
		}
	}
	return false
}

func typeMatches(t any, v any) bool {
	switch x := t.(type) {
	case string:
		return matchesType(x, v)
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok && matchesType(s, v) {
				return true
			}
		}
		return false
	}
	return true
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
		r, ok := new(big.Rat).SetString(n.String())
		return ok && r.IsInt()
	}
	return true
}

func typeName(t any) string {
	switch x := t.(type) {
	case string:
		return x
	case []any:
		var parts []string
		for _, e := range x {
			parts = append(parts, fmt.Sprint(e))
		}
		return strings.Join(parts, " or ")
	}
	return fmt.Sprint(t)
}

func typeCode(t any) string {
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

func intKeyword(s map[string]any, k string) (int, bool) {
	n, ok := s[k].(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	if err != nil {
		return 0, false
	}
	return int(i), true
}

func ratKeyword(s map[string]any, k string) (*big.Rat, bool) {
	n, ok := s[k].(json.Number)
	if !ok {
		return nil, false
	}
	return new(big.Rat).SetString(n.String())
}

// jsonEqual compares two decoded JSON values, numbers by value.
func jsonEqual(a, b any) bool {
	an, aok := a.(json.Number)
	bn, bok := b.(json.Number)
	if aok && bok {
		ar, ok1 := new(big.Rat).SetString(an.String())
		br, ok2 := new(big.Rat).SetString(bn.String())
		return ok1 && ok2 && ar.Cmp(br) == 0
	}
	if aok != bok {
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
