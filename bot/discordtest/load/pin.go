package load

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

// Pinning gives the bot a processor of its own, as on a machine that is otherwise
// idle: the bot runs on CPU 0 and this process (the fake Discord and the members) on
// every other one. Without it the two share every processor, and the bot's figures
// carry the cost of being preempted by the members and of its caches being taken
// over (some task waits for a CPU a fifth of the window on two processors).

// botCPU is the processor a pinned bot runs on.
const botCPU = 0

// pinnedCommand is the bot's command line run on botCPU: taskset (util-linux) sets the
// affinity and execs the bot, so the process id is the bot's and every thread the
// bot's runtime starts inherits it.
func pinnedCommand(bin string) (*exec.Cmd, error) {
	taskset, err := exec.LookPath("taskset")
	if err != nil {
		return nil, fmt.Errorf("-pin needs taskset (util-linux): %w", err)
	}
	return exec.Command(taskset, "-c", strconv.Itoa(botCPU), bin), nil
}

// pinSelf moves every thread of this process off botCPU; threads started later
// inherit the mask of the thread that starts them. It fails on a machine of one
// processor, where there is nothing to share out.
func pinSelf() (string, error) {
	n := runtime.NumCPU()
	if n < 2 {
		return "", fmt.Errorf("-pin needs two processors or more; this machine has %d", n)
	}
	var set unix.CPUSet
	for c := range n {
		if c != botCPU {
			set.Set(c)
		}
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return "", err
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, &set); err != nil {
			return "", fmt.Errorf("pinning thread %d: %w", tid, err)
		}
	}
	if n == 2 {
		return fmt.Sprintf("bot on CPU %d, the fake and the members on CPU 1", botCPU), nil
	}
	return fmt.Sprintf("bot on CPU %d, the fake and the members on CPUs 1-%d", botCPU, n-1), nil
}
