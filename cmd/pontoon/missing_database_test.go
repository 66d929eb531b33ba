package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// copy, audit and backup read a database: one that does not exist is refused, naming
// the operator's file, and no empty database is left behind in its place; a file that
// is not a database is named as the operator gave it, not as the scratch copy audit
// reads.
func TestReadingAMissingDatabaseIsRefused(t *testing.T) {
	bin := sharedBinary(t)
	dir := t.TempDir()
	run := func(env []string, args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = t.TempDir() // no config.yaml
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	typo := filepath.Join(dir, "typo.db")
	absent := func() {
		t.Helper()
		_, err := os.Stat(typo)
		assert.ErrorIs(t, err, os.ErrNotExist, "no empty database is created")
	}

	out, err := run(nil, "copy", "--from", typo, "--to", filepath.Join(dir, "dest.db"))
	require.Error(t, err, out)
	assert.Contains(t, out, "copy: --from "+typo+" does not exist")
	assert.NotContains(t, out, "copy OK")
	absent()

	out, err = run(nil, "audit", typo)
	require.Error(t, err, out)
	assert.Contains(t, out, "audit: "+typo+" does not exist")
	absent()

	for _, cmd := range [][]string{{"audit"}, {"backup", filepath.Join(dir, "backup.db")}} {
		out, err = run([]string{"PONTOON_DATABASE_PATH=" + typo}, cmd...)
		require.Error(t, err, out)
		assert.Contains(t, out, cmd[0]+": database.path "+typo+" does not exist; set PONTOON_DATABASE_PATH")
		assert.NotContains(t, out, "audit OK")
		absent()
	}

	notDB := filepath.Join(dir, "notes.db")
	require.NoError(t, os.WriteFile(notDB, []byte("these are not the chips you are looking for\n"), 0o600))
	out, err = run(nil, "audit", notDB)
	require.Error(t, err, out)
	assert.Contains(t, out, notDB+": file is not a database")
	assert.NotContains(t, out, "pontoon-audit-", "the scratch copy is not named")

	empty := filepath.Join(dir, "empty.db")
	require.NoError(t, os.WriteFile(empty, nil, 0o600))
	out, err = run(nil, "copy", "--from", empty, "--to", filepath.Join(dir, "dest2.db"))
	require.Error(t, err, out)
	assert.Contains(t, out, empty+" is empty, not a database")
}
