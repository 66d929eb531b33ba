package bot

import "testing"

// Every subcommand the router answers is declared in the command tree, whose options
// checkOptions holds it to: a route without a declaration would take no option at all.
func TestEveryCommandRouteIsDeclared(t *testing.T) {
	for name := range commandRoutes {
		if _, ok := commandSpecs[name]; !ok {
			t.Errorf("/pontoon %s is routed but not declared in commandTree", name)
		}
	}
	for name := range commandSpecs {
		if _, ok := commandRoutes[name]; !ok {
			t.Errorf("/pontoon %s is declared but not routed", name)
		}
	}
}
