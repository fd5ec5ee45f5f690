package loadtest

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTick is the unit of the CPU times in /proc: USER_HZ, 100 on every
// Linux architecture Go runs on (sysconf(_SC_CLK_TCK) needs cgo).
const clockTick = 10 * time.Millisecond

// procCPU returns the user + system CPU time of a process, from fields 14
// and 15 of /proc/<pid>/stat (proc(5)).
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("loadtest: %w", err)
	}
	// The command name (field 2) may hold spaces: count after its ')'.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("loadtest: /proc/%d/stat: too few fields", pid)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("loadtest: /proc/%d/stat: bad utime or stime", pid)
	}
	return time.Duration(utime+stime) * clockTick, nil
}

// procRunDelay returns how long the threads of a process have waited for
// a CPU while ready to run: the second field of each
// /proc/<pid>/task/<tid>/schedstat (nanoseconds; threads that exited are
// not counted). On a machine shared with other work it is the time the
// bot lost to them (or to the load tool and Redis).
func procRunDelay(pid int) (time.Duration, error) {
	dir := fmt.Sprintf("/proc/%d/task", pid)
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("loadtest: %w", err)
	}
	var total int64
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/schedstat")
		if err != nil {
			continue // the thread has exited
		}
		if f := strings.Fields(string(b)); len(f) >= 2 {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			total += n
		}
	}
	return time.Duration(total), nil
}

// procStatus returns the memory fields of /proc/<pid>/status in bytes
// (VmRSS, VmHWM...).
func procStatus(pid int) (map[string]int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return nil, fmt.Errorf("loadtest: %w", err)
	}
	defer f.Close()
	out := map[string]int64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		val, unit, _ := strings.Cut(strings.TrimSpace(rest), " ")
		if !ok || unit != "kB" {
			continue
		}
		if n, err := strconv.ParseInt(val, 10, 64); err == nil {
			out[name] = n << 10
		}
	}
	return out, sc.Err()
}

// selfCPU is this process's user + system CPU time (the stand-in and the
// players; not its children).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// machineCPU is a reading of the first line of /proc/stat: time spent by
// all CPUs, busy and idle (idle and iowait), in ticks.
type machineCPU struct{ busy, idle int64 }

func readMachineCPU() machineCPU {
	f, err := os.Open("/proc/stat")
	if err != nil {
		return machineCPU{}
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return machineCPU{}
	}
	fields := strings.Fields(sc.Text())
	var m machineCPU
	for i, v := range fields[1:] {
		n, _ := strconv.ParseInt(v, 10, 64)
		switch i {
		case 3, 4: // idle, iowait
			m.idle += n
		case 8, 9: // guest and guest_nice are already in user and nice
		default:
			m.busy += n
		}
	}
	return m
}

// busyFraction is the share of all CPUs' time spent busy between a and b.
func busyFraction(a, b machineCPU) float64 {
	busy, idle := b.busy-a.busy, b.idle-a.idle
	if busy+idle <= 0 {
		return 0
	}
	return float64(busy) / float64(busy+idle)
}

// Machine describes the machine a run measured.
type Machine struct {
	CPUs       int     `json:"cpus"`       // runtime.NumCPU
	GOMAXPROCS int     `json:"gomaxprocs"` // of the load process; the bot's is its own default unless GOMAXPROCS is set
	CPUModel   string  `json:"cpu_model"`
	MemoryMiB  int64   `json:"memory_mib"`
	LoadAvg    string  `json:"load_avg_before"` // 1, 5 and 15 minutes, before the run
	GoVersion  string  `json:"go_version"`
	Busy       float64 `json:"busy"` // share of all CPUs busy during the run, every process counted
	// OthersCores is the CPU other processes than the bot, Redis and the
	// load tool used during the run, in cores: on a shared machine, what
	// competed with the bot.
	OthersCores float64 `json:"others_cores"`
}

func readMachine() Machine {
	m := Machine{CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), GoVersion: runtime.Version()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if name, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "model name" {
				m.CPUModel = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				m.MemoryMiB = kb >> 10
			}
		}
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 3 {
			m.LoadAvg = strings.Join(f[:3], " ")
		}
	}
	return m
}
