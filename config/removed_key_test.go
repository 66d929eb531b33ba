package config_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/config"
)

// TestARemovedKeyIsRefusedSayingItWasRemoved: a file that still sets
// runtime.steady_sysmon, as config.example.yaml of earlier versions did, is
// refused with a message that names the key and says it is gone, not that it
// might be a typo.
func TestARemovedKeyIsRefusedSayingItWasRemoved(t *testing.T) {
	path := writeFile(t, "runtime:\n  max_procs: 1\n  steady_sysmon: true\n")
	_, err := config.Load(path, noEnv)
	require.Error(t, err)
	assert.Equal(t, "config: runtime.steady_sysmon in "+path+
		" was removed (the bot no longer starts itself again with a GODEBUG scheduler trace); delete it", err.Error())
	assert.False(t, strings.Contains(err.Error(), "unknown key"))
	assert.NotContains(t, config.Keys(), "runtime.steady_sysmon")
}
