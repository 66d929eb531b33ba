package discordtest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAUnionOfComponentTypesRefusesATypeNoBranchTakes: a component in a union of
// component types is judged by the branch its "type" names (the errors are that
// branch's), and a type no branch takes is refused, explained by the first branch,
// as under a plain oneOf; dispatching on the type (discriminatedUnions) changes the
// speed, not the answer.
func TestAUnionOfComponentTypesRefusesATypeNoBranchTakes(t *testing.T) {
	schemas := map[string]any{
		"Button": mustDecode(t, `{"type":"object","properties":{"type":{"type":"integer","enum":[2]},"label":{"type":"string","maxLength":3}},"required":["type"],"additionalProperties":false}`),
		"Select": mustDecode(t, `{"type":"object","properties":{"type":{"type":"integer","enum":[3]},"options":{"type":"array","minItems":1}},"required":["type","options"],"additionalProperties":false}`),
	}
	o, op := compileTest(t, schemas, mustDecode(t, `{"type":"array","items":{"oneOf":[
		{"$ref":"#/components/schemas/Button"},{"$ref":"#/components/schemas/Select"}]}}`))
	assert.Empty(t, o.validate(op, mustDecode(t, `[{"type":2,"label":"ok"},{"type":3,"options":[1]}]`), ""))

	errs := o.validate(op, mustDecode(t, `[{"type":3,"label":"x"}]`), "c")
	require.NotEmpty(t, errs)
	assert.Equal(t, []string{"c.0.label: Field is not allowed.", "c.0.options: This field is required"}, strs(errs),
		"a select is judged as a select only")

	errs = o.validate(op, mustDecode(t, `[{"type":9}]`), "c")
	require.Len(t, errs, 1)
	assert.Equal(t, "c.0.type: Value must be one of [2].", errs[0].String())
}

func strs(errs []fieldError) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.String())
	}
	return out
}
