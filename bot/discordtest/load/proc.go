package load

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of the CPU times in /proc/<pid>/stat and /proc/stat
// (USER_HZ). It is 100 on every architecture Go runs Linux on; getconf
// confirms it where available, without cgo for sysconf.
var clockTick = func() float64 {
	out, err := exec.Command("getconf", "CLK_TCK").Output()
	if err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(out))); err == nil && n > 0 {
			return float64(n)
		}
	}
	return 100
}()

// procCPU is the CPU a process has used, user plus system, from
// /proc/<pid>/stat (pid "self" for this process).
func procCPU(pid string) (time.Duration, error) {
	user, sys, err := procTimes(pid)
	return user + sys, err
}

// procTimes is the CPU a process has used in its own code (user) and in the kernel
// on its behalf (system: its system calls, its page faults, its context switches), from
// /proc/<pid>/stat.
func procTimes(pid string) (user, sys time.Duration, err error) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, 0, err
	}
	// The command name (field 2) is in parentheses and may hold spaces: the
	// fields that follow are counted from its closing parenthesis.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, fmt.Errorf("/proc/%s/stat: no command name", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	// After the name: state is field 3, utime field 14, stime field 15.
	if len(f) < 13 {
		return 0, 0, fmt.Errorf("/proc/%s/stat: %d fields", pid, len(f))
	}
	ut, err1 := strconv.ParseUint(f[11], 10, 64)
	st, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("/proc/%s/stat: utime %q stime %q", pid, f[11], f[12])
	}
	return ticks(ut), ticks(st), nil
}

// threadCPU is the CPU each thread of a process has used, by thread id, from
// /proc/<pid>/task/<tid>/stat. A thread that ended between the listing and its read is
// left out.
func threadCPU(pid string) (map[int]time.Duration, error) {
	ents, err := os.ReadDir("/proc/" + pid + "/task")
	if err != nil {
		return nil, err
	}
	out := make(map[int]time.Duration, len(ents))
	for _, e := range ents {
		tid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		d, err := procCPU(pid + "/task/" + e.Name())
		if err != nil {
			continue
		}
		out[tid] = d
	}
	return out, nil
}

func ticks(n uint64) time.Duration {
	return time.Duration(float64(n) / clockTick * float64(time.Second))
}

// machineCPU is the CPU time every core of the machine has spent busy (not
// idle, not waiting for I/O), from the first line of /proc/stat.
func machineCPU() (time.Duration, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 6 || f[0] != "cpu" {
		return 0, fmt.Errorf("/proc/stat: unexpected first line %q", line)
	}
	var busy uint64
	for k, v := range f[1:] {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/stat: %q", v)
		}
		// user nice system idle iowait irq softirq steal guest guest_nice:
		// guest time is already in user, idle and iowait are not busy.
		if k == 3 || k == 4 || k >= 8 {
			continue
		}
		busy += n
	}
	return ticks(busy), nil
}

// procMemory is a process's resident set now and at its peak (VmRSS and
// VmHWM in /proc/<pid>/status), in bytes.
func procMemory(pid string) (rss, peak int64, err error) {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || (k != "VmRSS" && k != "VmHWM") {
			continue
		}
		f := strings.Fields(v) // "12345 kB"
		if len(f) != 2 || f[1] != "kB" {
			return 0, 0, fmt.Errorf("/proc/%s/status: %s: %q", pid, k, v)
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("/proc/%s/status: %s: %q", pid, k, v)
		}
		if k == "VmRSS" {
			rss = n << 10
		} else {
			peak = n << 10
		}
	}
	if peak == 0 {
		return 0, 0, fmt.Errorf("/proc/%s/status: no VmHWM", pid)
	}
	return rss, peak, nil
}

// loadAverage is the machine's 1, 5 and 15 minute load averages.
func loadAverage() [3]float64 {
	var out [3]float64
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return out
	}
	f := strings.Fields(string(b))
	for i := 0; i < 3 && i < len(f); i++ {
		out[i], _ = strconv.ParseFloat(f[i], 64)
	}
	return out
}

// cpuPressure is the time, over the machine's life, during which some runnable task
// waited for a CPU (the "some" total of /proc/pressure/cpu); false where the kernel
// does not report pressure.
func cpuPressure() (time.Duration, bool) {
	b, err := os.ReadFile("/proc/pressure/cpu")
	if err != nil {
		return 0, false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	if !strings.HasPrefix(line, "some ") {
		return 0, false
	}
	for _, f := range strings.Fields(line) {
		if v, ok := strings.CutPrefix(f, "total="); ok {
			us, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return 0, false
			}
			return time.Duration(us) * time.Microsecond, true
		}
	}
	return 0, false
}
