package bench

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// PeakRSS returns the peak resident set size (VmHWM) of process pid in
// bytes: the most memory the process held at once since it started or since
// the last ResetPeakRSS.
func PeakRSS(pid int) (int64, error) {
	return statusKiB(pid, "VmHWM")
}

// RSS returns the current resident set size (VmRSS) of process pid in bytes.
func RSS(pid int) (int64, error) {
	return statusKiB(pid, "VmRSS")
}

// ResetPeakRSS starts a new peak measurement for pid (Linux: writing 5 to
// /proc/PID/clear_refs resets VmHWM to the current RSS).
func ResetPeakRSS(pid int) error {
	return os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0)
}

func statusKiB(pid int, field string) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kib, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kib * 1024, err
		}
	}
	return 0, fmt.Errorf("/proc/%d/status has no %s", pid, field)
}

// mib converts bytes to MiB.
func mib(b int64) float64 { return float64(b) / (1 << 20) }

// Machine is what the figures were measured on.
type Machine struct {
	CPUModel       string `json:"cpu_model"`
	Cores          int    `json:"cores"`
	MemoryMiB      int64  `json:"memory_mib"`
	Kernel         string `json:"kernel"`
	LoadAverage    string `json:"load_average_at_start"`
	Go             string `json:"go"`
	Postgres       string `json:"postgres"`
	TemporalServer string `json:"temporal_server"`
	TemporalCLI    string `json:"temporal_cli"`
	Chromium       string `json:"chromium,omitempty"`
}

// localMachine reads the CPU, memory, kernel and load from /proc; the
// service versions are filled in by the caller.
func localMachine() Machine {
	m := Machine{Cores: runtime.NumCPU(), Go: runtime.Version()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "model name"); ok {
				m.CPUModel = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				kib, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				m.MemoryMiB = kib / 1024
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 3 {
			m.LoadAverage = strings.Join(f[:3], " ")
		}
	}
	return m
}
