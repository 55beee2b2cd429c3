package bench

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// CPUTime returns the CPU time (user + system) process pid has used.
func CPUTime(pid int) (time.Duration, error) {
	f, err := statFields(pid)
	if err != nil {
		return 0, err
	}
	return ticks(f[11]) + ticks(f[12]), nil
}

// TreeCPUTime returns the CPU time of pid and of its children, both those
// alive now and those that ended and were waited for (a Postgres
// postmaster and its backends, which come and go with connections).
func TreeCPUTime(pid int) (time.Duration, error) {
	f, err := statFields(pid)
	if err != nil {
		return 0, err
	}
	total := ticks(f[11]) + ticks(f[12]) + ticks(f[13]) + ticks(f[14]) // utime stime cutime cstime
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return total, err
	}
	parent := strconv.Itoa(pid)
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil || child == pid {
			continue
		}
		if cf, err := statFields(child); err == nil && cf[1] == parent {
			total += ticks(cf[11]) + ticks(cf[12])
		}
	}
	return total, nil
}

// statFields returns the fields of /proc/PID/stat after the command name,
// so that f[0] is the state (field 3 of proc(5)) and f[11] utime (field 14).
func statFields(pid int) ([]string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, err
	}
	s := string(b) // the command name (field 2) may hold spaces: cut after its ")"
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 15 {
		return nil, fmt.Errorf("/proc/%d/stat: too few fields", pid)
	}
	return f, nil
}

// ticks converts a count of clock ticks (USER_HZ, 100 on Linux) to time.
func ticks(field string) time.Duration {
	n, _ := strconv.ParseInt(field, 10, 64)
	return time.Duration(n) * time.Second / 100
}

// CPUMeter reads the CPU time of the processes under test, of this one
// and of the whole machine, so that a benchmark can say where its CPU went.
// A pid of 0 is not read.
type CPUMeter struct {
	API, Worker, Temporal, Postgres int
}

// CPUSample is one reading of a CPUMeter, or the difference of two.
type CPUSample struct {
	API, Worker, Temporal, Postgres, Self, Machine time.Duration
	// Wall is the time since an arbitrary origin (a reading) or between
	// two readings (a difference).
	Wall time.Duration
}

// processStart is the origin of CPUSample.Wall.
var processStart = time.Now()

// Sample reads the meters now (a meter that cannot be read reads 0).
func (m CPUMeter) Sample() CPUSample {
	s := CPUSample{Wall: time.Since(processStart), Machine: machineBusy()}
	read := func(pid int, tree bool) time.Duration {
		if pid <= 0 {
			return 0
		}
		f := CPUTime
		if tree {
			f = TreeCPUTime
		}
		t, _ := f(pid)
		return t
	}
	s.API, s.Worker, s.Temporal = read(m.API, false), read(m.Worker, false), read(m.Temporal, false)
	s.Postgres, s.Self = read(m.Postgres, true), read(os.Getpid(), false)
	return s
}

// Measure runs f and returns what it returned with the CPU used meanwhile.
func Measure[T any](m CPUMeter, f func() T) (T, CPUSample) {
	a := m.Sample()
	v := f()
	return v, m.Sample().Sub(a)
}

// Sub is s minus o, field by field.
func (s CPUSample) Sub(o CPUSample) CPUSample {
	return CPUSample{API: s.API - o.API, Worker: s.Worker - o.Worker, Temporal: s.Temporal - o.Temporal,
		Postgres: s.Postgres - o.Postgres, Self: s.Self - o.Self, Machine: s.Machine - o.Machine, Wall: s.Wall - o.Wall}
}

// Add is s plus o, field by field.
func (s CPUSample) Add(o CPUSample) CPUSample {
	return CPUSample{API: s.API + o.API, Worker: s.Worker + o.Worker, Temporal: s.Temporal + o.Temporal,
		Postgres: s.Postgres + o.Postgres, Self: s.Self + o.Self, Machine: s.Machine + o.Machine, Wall: s.Wall + o.Wall}
}

// CPUShare is where the CPU of a benchmark went, in milliseconds of CPU
// per operation, and how busy the machine was (in cores). Bench is this
// process (load generator, baseline code); Other is everything else on the
// machine (neighbours).
type CPUShare struct {
	APIMs      float64 `json:"api_ms"`
	WorkerMs   float64 `json:"worker_ms"`
	TemporalMs float64 `json:"temporal_ms"`
	PostgresMs float64 `json:"postgres_ms"`
	BenchMs    float64 `json:"bench_ms"`
	OtherMs    float64 `json:"other_ms"`
	BusyCores  float64 `json:"busy_cores"`
}

// Share divides the CPU of difference d by ops operations.
func (d CPUSample) Share(ops int) CPUShare {
	if ops == 0 || d.Wall <= 0 {
		return CPUShare{}
	}
	per := func(t time.Duration) float64 { return ms(t) / float64(ops) }
	known := d.API + d.Worker + d.Temporal + d.Postgres + d.Self
	return CPUShare{APIMs: per(d.API), WorkerMs: per(d.Worker), TemporalMs: per(d.Temporal), PostgresMs: per(d.Postgres),
		BenchMs: per(d.Self), OtherMs: per(max(0, d.Machine-known)), BusyCores: d.Machine.Seconds() / d.Wall.Seconds()}
}

// PerCPUSecond is how many operations one second of CPU of the system
// under test (every process but the neighbours) carries: a throughput that
// other work on the machine does not disturb.
func (c CPUShare) PerCPUSecond() float64 {
	system := c.APIMs + c.WorkerMs + c.TemporalMs + c.PostgresMs + c.BenchMs
	if system == 0 {
		return 0
	}
	return 1000 / system
}

// OtherPercent is the part of the machine's busy CPU that went to other work
// (neighbours), in percent: how much the figures beside it were disturbed.
func (c CPUShare) OtherPercent() float64 {
	total := c.APIMs + c.WorkerMs + c.TemporalMs + c.PostgresMs + c.BenchMs + c.OtherMs
	if total == 0 {
		return 0
	}
	return 100 * c.OtherMs / total
}

// machineBusy is the non-idle CPU time of the whole machine (/proc/stat).
func machineBusy() time.Duration {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line) // cpu user nice system idle iowait irq softirq steal …
	var busy int64
	for i, v := range f[1:] {
		n, _ := strconv.ParseInt(v, 10, 64)
		if i != 3 && i != 4 && i < 8 { // not idle, not iowait, not guest
			busy += n
		}
	}
	return time.Duration(busy) * time.Second / 100
}

// settled waits until process pid uses less than busy of one CPU over a
// window (it is done with what it does once per start), or timeout has
// passed: an error says which. cpu reads the process's CPU time (CPUTime in
// the benchmark; a stand-in in tests).
func settled(pid int, cpu func(int) (time.Duration, error), window time.Duration, busy float64, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	last, err := cpu(pid)
	if err != nil {
		return err
	}
	for {
		time.Sleep(window)
		now, err := cpu(pid)
		if err != nil {
			return err
		}
		if used := float64(now-last) / float64(window); used < busy {
			return nil
		} else if time.Now().After(deadline) {
			return fmt.Errorf("process %d still used %.0f %% of a CPU after %s", pid, 100*used, timeout)
		}
		last = now
	}
}
