package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/bot/logging/logtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// `pontoon demo --listen 127.0.0.1:0 --no-open` prints the address it took, serves the
// page and the demo channel (with the Dealer's table open) there, and on SIGTERM closes
// everything, removes its database's temporary directory and exits 0.
func TestDemoServesThePageAndStopsCleanlyOnSIGTERM(t *testing.T) {
	bin := sharedBinary(t)
	tmp := t.TempDir()
	cmd := exec.Command(bin, "demo", "--listen", "127.0.0.1:0", "--no-open")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	stderr := &logtest.Buffer{}
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	exited := make(chan struct{})
	var waitErr error
	t.Cleanup(func() {
		select {
		case <-exited:
		default:
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		waitErr = cmd.Wait()
		close(exited)
	}()
	var url string
	timeout := time.After(60 * time.Second)
	for url == "" {
		select {
		case l, ok := <-lines:
			require.True(t, ok, "the demo ended before printing its address; stderr:\n%s", stderr.String())
			if rest, found := strings.CutPrefix(l, "Pontoon demo at "); found {
				url = rest
			}
		case <-timeout:
			require.FailNow(t, "no address printed", "stderr:\n%s", stderr.String())
		}
	}
	require.True(t, strings.HasPrefix(url, "http://127.0.0.1:") && !strings.HasSuffix(url, ":0/"), "the real address: %s", url)
	go func() {
		for range lines {
		}
	}()

	dirs, err := os.ReadDir(tmp)
	require.NoError(t, err)
	require.Len(t, dirs, 1, "one temporary directory while it runs")
	_, err = os.Stat(tmp + "/" + dirs[0].Name() + "/pontoon.db")
	require.NoError(t, err, "the database lives there")

	resp, err := http.Get(url)
	require.NoError(t, err)
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(page), "<html", "the page")

	resp, err = http.Get(url + "demo/channel?user=tester")
	require.NoError(t, err)
	var ch struct {
		Messages []struct {
			Text []string `json:"text"`
		} `json:"messages"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&ch))
	resp.Body.Close()
	require.NotEmpty(t, ch.Messages, "the Dealer's table is in the channel")
	assert.Contains(t, strings.Join(ch.Messages[0].Text, "\n"), "@Dealer")

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-exited:
		require.NoError(t, waitErr, "exit status 0; stderr:\n%s", stderr.String())
	case <-time.After(30 * time.Second):
		require.FailNow(t, "the demo did not stop on SIGTERM")
	}
	dirs, err = os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, dirs, "the temporary directory is removed")
}
