package config

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// otherVariables are PONTOON_ variables that are not settings: the tests and the
// development tools read them, and a developer's shell may hold them while the bot runs.
var otherVariables = []string{
	"PONTOON_TEST_POSTGRES_URL", // store/storetest: the PostgreSQL server of the tests
	"PONTOON_DISCORD_OPENAPI",   // bot/discordtest: Discord's OpenAPI description
	"PONTOON_CRASH_CHILD_DB",    // store's crash test: the child process's database
	"PONTOON_LOAD_PIN_CHILD",    // bot/discordtest/load: the pinning test's child
}

// UnknownEnv returns a warning for each PONTOON_ variable of env that is set and that no
// key reads, naming the closest variable that is one; a nil env reads the process
// environment. Load ignores such a variable, so a typo in its name would otherwise go
// unnoticed. The warnings name variables, never their values. Variables under
// PONTOON_GAME_RULES_ are house rules, which Load checks itself.
func UnknownEnv(env map[string]string) []string {
	if env == nil {
		env = environ()
	}
	var known []string
	for _, f := range fields {
		known = append(known, EnvName(f.key))
	}
	rulesPrefix := EnvName(rulesKey) + "_"
	var out []string
	for name, v := range env {
		if v == "" || !strings.HasPrefix(name, EnvPrefix) || slices.Contains(known, name) ||
			slices.Contains(otherVariables, name) || strings.HasPrefix(name, rulesPrefix) {
			continue
		}
		msg := fmt.Sprintf("%s is not a setting and is ignored", name)
		if key, gone := removedEnv(name); gone != "" {
			out = append(out, fmt.Sprintf("%s is ignored: %s %s", name, key, gone))
			continue
		}
		if near := closest(name, known); near != "" {
			msg += fmt.Sprintf("; did you mean %s?", near)
		}
		out = append(out, msg)
	}
	sort.Strings(out)
	return out
}

// removedEnv returns the key a variable set before it was removed, and what became of
// it, or "", "".
func removedEnv(name string) (key, gone string) {
	for k, g := range removedKeys {
		if EnvName(k) == name {
			return k, g
		}
	}
	return "", ""
}

// sectionKey reports whether key is a section, a key that holds other keys (discord,
// game), and returns some of the keys it holds.
func sectionKey(key string) (holds []string, ok bool) {
	for _, f := range fields {
		if strings.HasPrefix(f.key, key+".") {
			holds = append(holds, f.key)
		}
	}
	if key == "game" {
		holds = append(holds, rulesKey+".*")
	}
	return holds, len(holds) > 0
}

// ruleNames returns the names of the house rules, sorted.
func ruleNames() []string {
	var names []string
	for k := range DefaultRules() {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// closest returns the candidate nearest to name, when it is near enough to be a
// likely typo of it (a letter or two changed, dropped, added or swapped), or "". The
// PONTOON_ that every variable starts with does not count.
func closest(name string, candidates []string) string {
	name = strings.ToLower(strings.TrimPrefix(name, EnvPrefix))
	best, bestD := "", len(name)/4+2
	for _, c := range candidates {
		if d := distance(name, strings.ToLower(strings.TrimPrefix(c, EnvPrefix))); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the optimal string alignment distance between a and b: the fewest
// insertions, deletions, substitutions and swaps of neighbours that turn one into the
// other.
func distance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// unknownRule is the error for a house rule no table has: where it was set (the file
// or the variable), the closest rule, and the rules there are.
func unknownRule(name, file string, fromEnv bool) error {
	rules := ruleNames()
	where := rulesKey + "." + name
	if file != "" {
		where += " in " + file
	}
	near := closest(name, rules)
	if fromEnv {
		where = EnvName(rulesKey + "." + name)
		if near != "" {
			near = EnvName(rulesKey + "." + near)
		}
	} else if near != "" {
		near = rulesKey + "." + near
	}
	msg := fmt.Sprintf("config: %s is not a house rule", where)
	if near != "" {
		msg += fmt.Sprintf("; did you mean %s?", near)
	}
	return fmt.Errorf("%s (house rules: %s)", msg, strings.Join(rules, ", "))
}
