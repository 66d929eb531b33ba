package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// The image and compose check the bot's health with the binary itself (the runtime image
// has no shell and no curl): `pontoon healthcheck`, against an admin listener the image
// turns on. Under PostgreSQL, compose sets none of SQLite's settings.
func TestContainersCheckHealthWithTheBinary(t *testing.T) {
	df, err := os.ReadFile(filepath.Join(repoRoot, "Dockerfile"))
	require.NoError(t, err)
	runtime := string(df)[strings.LastIndex(string(df), "\nFROM "):]
	assert.Regexp(t, `(?m)^HEALTHCHECK .*\\\n\s+CMD \["/pontoon", "healthcheck"\]$`, runtime)
	assert.Regexp(t, `(?m)^\s+PONTOON_ADMIN_LISTEN=127\.0\.0\.1:9464`, runtime, "the health check has a listener to ask, on loopback")
	entry := regexp.MustCompile(`(?m)^ENTRYPOINT \["(/[^"]+)"\]`).FindStringSubmatch(runtime)
	require.NotNil(t, entry)
	assert.Equal(t, "/pontoon", entry[1], "the health check runs the entrypoint's binary")

	raw, err := os.ReadFile(filepath.Join(repoRoot, "compose.yaml"))
	require.NoError(t, err)
	var compose struct {
		Services map[string]struct {
			Environment map[string]string `yaml:"environment"`
			Volumes     []string          `yaml:"volumes"`
			Healthcheck struct {
				Test []string `yaml:"test"`
			} `yaml:"healthcheck"`
		} `yaml:"services"`
		Volumes map[string]any `yaml:"volumes"`
	}
	require.NoError(t, yaml.Unmarshal(raw, &compose))
	bot := compose.Services["bot"]
	assert.Equal(t, []string{"CMD", "/pontoon", "healthcheck"}, bot.Healthcheck.Test)
	assert.NotEmpty(t, bot.Environment["PONTOON_ADMIN_LISTEN"])
	assert.Equal(t, "${PONTOON_ADMIN_TOKEN:-}", bot.Environment["PONTOON_ADMIN_TOKEN"], "the admin token is passed on when set")
	require.True(t, strings.HasPrefix(bot.Environment["PONTOON_DATABASE_URL"], "postgres://"))
	assert.NotContains(t, bot.Environment, "PONTOON_DATABASE_PATH", "database.path is SQLite's")
	for _, v := range bot.Volumes {
		assert.NotContains(t, v, ":/data", "no volume for a SQLite file")
	}
	assert.NotContains(t, compose.Volumes, "pontoon-data")
}
