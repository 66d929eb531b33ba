//go:build docker

package main

import (
	"crypto/rand"
	"encoding/hex"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The image builds, runs as a non-root user, and its binary migrates a fresh database
// on the volume. It needs a Docker engine and the registry the Dockerfile's base images
// come from, which neither CI's machine nor a contributor's need have, so it is built
// only with the docker tag (README, "Measured"); asked for and without an engine, it
// fails, never skips.
func TestContainerImageBuilds(t *testing.T) {
	if out, err := exec.Command("docker", "info", "--format", "{{.ServerVersion}}").CombinedOutput(); err != nil {
		t.Fatalf("-tags docker asks for the image build, and no Docker engine answers: %s", firstLine(string(out), err))
	}
	suffix := make([]byte, 4)
	_, _ = rand.Read(suffix)
	tag := "pontoon-test:" + hex.EncodeToString(suffix)
	volume := "pontoon-test-" + hex.EncodeToString(suffix)
	t.Cleanup(func() {
		_ = exec.Command("docker", "image", "rm", "-f", tag).Run()
		_ = exec.Command("docker", "volume", "rm", "-f", volume).Run()
	})
	out, err := exec.Command("docker", "build", "-t", tag, repoRoot).CombinedOutput()
	require.NoError(t, err, "docker build: %s", out)
	out, err = exec.Command("docker", "image", "inspect", "--format", "{{.Config.User}}", tag).CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Equal(t, "65532:65532", strings.TrimSpace(string(out)))
	out, err = exec.Command("docker", "run", "--rm", "-v", volume+":/data", tag, "migrate").CombinedOutput()
	require.NoError(t, err, "migrate in the container: %s", out)
	assert.Contains(t, string(out), "/data/pontoon.db: schema version")
}

func firstLine(out string, err error) string {
	out = strings.TrimSpace(out)
	if out == "" {
		return err.Error()
	}
	line, _, _ := strings.Cut(out, "\n")
	return line
}
