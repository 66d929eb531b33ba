package load

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allowedCPUs is the Cpus_allowed_list of a thread's /proc status file.
func allowedCPUs(t *testing.T, status string) string {
	t.Helper()
	b, err := os.ReadFile(status)
	require.NoError(t, err)
	return cpusAllowed(string(b))
}

// cpusAllowed is the Cpus_allowed_list line's value in a /proc status text, "" if none.
func cpusAllowed(status string) string {
	for _, line := range strings.Split(status, "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// A pinned bot runs on CPU 0 alone: taskset execs it there.
func TestPinnedCommandRunsOnTheBotsCPU(t *testing.T) {
	cmd, err := pinnedCommand("/bin/grep")
	require.NoError(t, err)
	cmd.Args = append(cmd.Args, "Cpus_allowed_list", "/proc/self/status")
	out, err := cmd.Output()
	require.NoError(t, err)
	assert.Equal(t, "Cpus_allowed_list:\t"+strconv.Itoa(botCPU), strings.TrimSpace(string(out)))
}

// pinSelf moves every thread of the process off the bot's CPU, and a thread started
// afterwards stays off it too. It runs in a child process, since it pins the whole
// process for good.
func TestPinSelfLeavesTheBotsCPU(t *testing.T) {
	if os.Getenv("PONTOON_LOAD_PIN_CHILD") == "1" {
		pinChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestPinSelfLeavesTheBotsCPU$", "-test.v")
	cmd.Env = append(os.Environ(), "PONTOON_LOAD_PIN_CHILD=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "--- PASS: TestPinSelfLeavesTheBotsCPU", "%s", out)
}

func pinChild(t *testing.T) {
	said, err := pinSelf()
	if runtime.NumCPU() < 2 {
		require.Error(t, err, "one processor: nothing to share out")
		return
	}
	require.NoError(t, err)
	assert.Contains(t, said, "bot on CPU 0")
	want := "1"
	if n := runtime.NumCPU(); n > 2 {
		want = "1-" + strconv.Itoa(n-1)
	}
	tasks, err := os.ReadDir("/proc/self/task")
	require.NoError(t, err)
	for _, task := range tasks {
		assert.Equal(t, want, allowedCPUs(t, "/proc/self/task/"+task.Name()+"/status"), "thread %s", task.Name())
	}
	// A thread the runtime starts from here on inherits the mask: hold many goroutines
	// locked to their threads at once, so that new threads must be made. Each reads
	// its own thread's status; the test checks them here.
	const threads = 8
	statuses := make([]string, threads)
	var read, done sync.WaitGroup
	release := make(chan struct{})
	for i := range threads {
		read.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b, _ := os.ReadFile("/proc/thread-self/status")
			statuses[i] = string(b)
			read.Done()
			<-release // keep the thread until every one has read its own
		}()
	}
	read.Wait()
	close(release)
	done.Wait()
	for i, st := range statuses {
		assert.Equal(t, want, cpusAllowed(st), "locked thread %d", i)
	}
}
