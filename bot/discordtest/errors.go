package discordtest

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// fieldError is one problem with one field of a request body, in the shape
// Discord reports inside a 50035 "Invalid Form Body" error.
type fieldError struct {
	Path    string // dotted, e.g. "data.embeds.0.title"; "" for the body itself
	Code    string // Discord's error code, e.g. BASE_TYPE_MAX_LENGTH
	Message string
}

func (e fieldError) String() string {
	if e.Path == "" {
		return e.Message
	}
	return e.Path + ": " + e.Message
}

func joinPath(base string, elem any) string {
	var s string
	switch e := elem.(type) {
	case string:
		s = e
	case int:
		s = strconv.Itoa(e)
	default:
		s = fmt.Sprint(elem)
	}
	if base == "" {
		return s
	}
	return base + "." + s
}

func maxLen(path string, n int) fieldError {
	return fieldError{path, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", n)}
}

func minLen(path string, n int) fieldError {
	return fieldError{path, "BASE_TYPE_MIN_LENGTH", fmt.Sprintf("Must be %d or more in length.", n)}
}

func badLen(path string, lo, hi int) fieldError {
	return fieldError{path, "BASE_TYPE_BAD_LENGTH", fmt.Sprintf("Must be between %d and %d in length.", lo, hi)}
}

func required(path string) fieldError {
	return fieldError{path, "BASE_TYPE_REQUIRED", "This field is required"}
}

func invalid(path, code, msg string) fieldError {
	return fieldError{path, code, msg}
}

// apiError is an error answer of the fake: HTTP status, Discord's JSON error
// code and message, and for 50035 the per-field errors.
type apiError struct {
	Status  int
	Code    int
	Message string
	Fields  []fieldError
	Note    string // for the failure log only, never sent
}

func (e *apiError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s (code %d)", e.Status, e.Message, e.Code)
	for i, f := range e.Fields {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(f.String())
	}
	if e.Note != "" {
		b.WriteString(" [" + e.Note + "]")
	}
	return b.String()
}

// body renders the error as Discord does: {"code":..,"message":..,"errors":{..}}
// where errors nests one object per path element and ends in _errors lists.
func (e *apiError) body() []byte {
	out := map[string]any{"code": e.Code, "message": e.Message}
	if len(e.Fields) > 0 {
		tree := map[string]any{}
		for _, f := range e.Fields {
			node := tree
			if f.Path != "" {
				for _, p := range strings.Split(f.Path, ".") {
					next, ok := node[p].(map[string]any)
					if !ok {
						next = map[string]any{}
						node[p] = next
					}
					node = next
				}
			}
			list, _ := node["_errors"].([]any)
			node["_errors"] = append(list, map[string]any{"code": f.Code, "message": f.Message})
		}
		out["errors"] = tree
	}
	b, _ := json.Marshal(out)
	return b
}

func errInvalidForm(fields []fieldError) *apiError {
	return &apiError{Status: 400, Code: 50035, Message: "Invalid Form Body", Fields: dedupe(fields)}
}

func errNotFound(code int, msg string) *apiError {
	return &apiError{Status: 404, Code: code, Message: msg}
}

func errBadRequest(code int, msg string) *apiError {
	return &apiError{Status: 400, Code: code, Message: msg}
}

var (
	errUnknownInteraction = func() *apiError { return errNotFound(10062, "Unknown interaction") }
	errUnknownChannel     = func() *apiError { return errNotFound(10003, "Unknown Channel") }
	errUnknownMessage     = func() *apiError { return errNotFound(10008, "Unknown Message") }
	errUnknownWebhook     = func() *apiError { return errNotFound(10015, "Unknown Webhook") }
	errUnknownGuild       = func() *apiError { return errNotFound(10004, "Unknown Guild") }
	errUnknownMember      = func() *apiError { return errNotFound(10007, "Unknown Member") }
	errUnknownCommand     = func() *apiError { return errNotFound(10063, "Unknown application command") }
	errEmptyMessage       = func() *apiError { return errBadRequest(50006, "Cannot send an empty message") }
	errAcknowledged       = func() *apiError { return errBadRequest(40060, "Interaction has already been acknowledged.") }
)

func dedupe(fields []fieldError) []fieldError {
	seen := map[fieldError]bool{}
	out := fields[:0:0]
	for _, f := range fields {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return pathLess(out[i].Path, out[j].Path) })
	return out
}

// pathLess orders paths element by element, numerically where both are numbers.
func pathLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if as[i] == bs[i] {
			continue
		}
		ai, aerr := strconv.Atoi(as[i])
		bi, berr := strconv.Atoi(bs[i])
		if aerr == nil && berr == nil {
			return ai < bi
		}
		return as[i] < bs[i]
	}
	return len(as) < len(bs)
}
