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

var repoRoot = filepath.Join("..", "..")

// goLine is go.mod's go version, e.g. 1.27.3.
func goLine(t *testing.T) string {
	t.Helper()
	mod, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	require.NotNil(t, m, "go.mod has a go line")
	return string(m[1])
}

// The Dockerfile builds with cgo on the toolchain go.mod and .ci/run name, in a stage of
// its own, and runs as a non-root user with the database on a volume and the
// configuration from the environment. compose.yaml has the bot keep its state in a
// PostgreSQL service (database.url), started once that service is healthy, and takes the
// secrets from the environment.
func TestContainerFiles(t *testing.T) {
	toolchain := "GOTOOLCHAIN=go" + goLine(t)
	ci, err := os.ReadFile(filepath.Join(repoRoot, ".ci", "run"))
	require.NoError(t, err)
	assert.Contains(t, string(ci), "export "+toolchain, ".ci/run pins go.mod's toolchain")

	df, err := os.ReadFile(filepath.Join(repoRoot, "Dockerfile"))
	require.NoError(t, err)
	stages := strings.Split(string(df), "\nFROM ")
	require.Len(t, stages, 3, "two stages: build and runtime")
	build, runtime := stages[1], stages[2]
	assert.Contains(t, build, toolchain)
	assert.Contains(t, build, "CGO_ENABLED=1")
	assert.Contains(t, build, "go build")
	user := regexp.MustCompile(`(?m)^USER (\S+)`).FindStringSubmatch(runtime)
	require.NotNil(t, user, "the runtime stage names a user")
	assert.NotRegexp(t, `^(root|0)(:|$)`, user[1])
	assert.Contains(t, runtime, `VOLUME ["/data"]`)
	assert.Contains(t, runtime, "PONTOON_DATABASE_PATH=/data/pontoon.db")
	assert.NotRegexp(t, `(?m)^(ENV|ARG)\b[^\n]*PONTOON_DISCORD_TOKEN`, string(df), "no token is baked into the image")

	raw, err := os.ReadFile(filepath.Join(repoRoot, "compose.yaml"))
	require.NoError(t, err)
	var compose struct {
		Services map[string]struct {
			Image       string            `yaml:"image"`
			Environment map[string]string `yaml:"environment"`
			Volumes     []string          `yaml:"volumes"`
			DependsOn   map[string]struct {
				Condition string `yaml:"condition"`
			} `yaml:"depends_on"`
			Healthcheck struct {
				Test []string `yaml:"test"`
			} `yaml:"healthcheck"`
		} `yaml:"services"`
		Volumes map[string]any `yaml:"volumes"`
	}
	require.NoError(t, yaml.Unmarshal(raw, &compose))
	bot, db := compose.Services["bot"], compose.Services["db"]
	assert.Equal(t, "${PONTOON_DISCORD_TOKEN:?set PONTOON_DISCORD_TOKEN}", bot.Environment["PONTOON_DISCORD_TOKEN"])
	assert.True(t, strings.HasPrefix(db.Image, "postgres:"), "db is PostgreSQL: %q", db.Image)
	assert.Contains(t, db.Environment["POSTGRES_PASSWORD"], "${POSTGRES_PASSWORD:?")
	url := bot.Environment["PONTOON_DATABASE_URL"]
	assert.True(t, strings.HasPrefix(url, "postgres://"+db.Environment["POSTGRES_USER"]+":${POSTGRES_PASSWORD"), "the bot uses db: %q", url)
	assert.Contains(t, url, "@db:5432/"+db.Environment["POSTGRES_DB"])
	assert.Equal(t, "service_healthy", bot.DependsOn["db"].Condition, "the bot starts once PostgreSQL answers")
	assert.Contains(t, strings.Join(db.Healthcheck.Test, " "), "pg_isready")
	assert.Contains(t, compose.Volumes, "pontoon-pg")
}
