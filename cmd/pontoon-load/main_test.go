package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A command line that cannot make a run exits 2 with a line saying why, before
// anything is built or started. (A whole run is tested in package load.)
func TestBadCommandLines(t *testing.T) {
	for name, tc := range map[string]struct {
		args []string
		says string
	}{
		"unknown flag":   {[]string{"-tabels", "5"}, "flag provided but not defined: -tabels"},
		"extra argument": {[]string{"now"}, `unexpected argument "now"`},
		"one seat":       {[]string{"-seats", "1"}, "seats: 1 is not between 2"},
		"no rate":        {[]string{"-rate", "-5"}, "rate: -5 is not between 0 and 100000"},
		"not a setting":  {[]string{"-env", "GOGC=50"}, `invalid value "GOGC=50" for flag -env: "GOGC=50" is not PONTOON_KEY=value`},
	} {
		t.Run(name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			assert.Equal(t, 2, run(tc.args, &out, &errOut))
			assert.Contains(t, errOut.String(), tc.says)
			assert.Empty(t, out.String())
		})
	}
}
