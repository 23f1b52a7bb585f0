package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// cpuClock reads the CPU time (user + system) spent so far by this process
// (the API and the load generator) and by the Postgres server: on a shared
// machine a rate depends on what else runs, while the CPU time a page costs
// does not, or much less.
type cpuClock struct {
	// postmaster is the Postgres server's process id; 0 when it cannot be
	// read from /proc (a server on another machine), and then only this
	// process is measured.
	postmaster int
}

// cpuTicks is the unit of /proc/<pid>/stat times: USER_HZ, 100 on Linux.
const cpuTicks = 100

func newCPUClock(ctx context.Context, pool *pgxpool.Pool) cpuClock {
	var backend int
	if err := pool.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&backend); err != nil {
		return cpuClock{}
	}
	f, err := procStat(backend)
	if err != nil || len(f) < 2 {
		return cpuClock{}
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return cpuClock{}
	}
	return cpuClock{postmaster: ppid}
}

// cpuTime is what a cpuClock read.
type cpuTime struct {
	self, postgres time.Duration
	// machine is the busy time of all the machine's cores, whoever used
	// it: on a shared machine, what the others took.
	machine time.Duration
}

func (c cpuClock) read() cpuTime {
	var t cpuTime
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		t.self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if c.postmaster != 0 {
		t.postgres = c.postgresTime()
	}
	t.machine = machineCPU()
	return t
}

// machineCPU is the machine's busy time so far, summed over its cores, from
// the first line of /proc/stat (user, nice, system, irq, softirq and steal
// ticks; guest time is within user); 0 when it cannot be read.
func machineCPU() time.Duration {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0
	}
	var ticks int64
	for _, i := range []int{1, 2, 3, 6, 7, 8} {
		n, _ := strconv.ParseInt(f[i], 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * time.Second / cpuTicks
}

// postgresTime sums the postmaster and its children (the backends, the
// WAL writer…), with the time of the children that have exited.
func (c cpuClock) postgresTime() time.Duration {
	var ticks int64
	add := func(f []string, fields ...int) {
		for _, i := range fields {
			if i < len(f) {
				n, _ := strconv.ParseInt(f[i], 10, 64)
				ticks += n
			}
		}
	}
	// Fields counted from the state (field 3 of proc(5)): utime is 14,
	// stime 15, cutime 16, cstime 17.
	if f, err := procStat(c.postmaster); err == nil {
		add(f, 11, 12, 13, 14)
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	parent := strconv.Itoa(c.postmaster)
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == c.postmaster {
			continue
		}
		if f, err := procStat(pid); err == nil && len(f) > 1 && f[1] == parent {
			add(f, 11, 12)
		}
	}
	return time.Duration(ticks) * time.Second / cpuTicks
}

// procStat returns the fields of /proc/<pid>/stat from the state on (the
// command name before it may hold spaces).
func procStat(pid int) ([]string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	return strings.Fields(s[i+1:]), nil
}

// meter counts the successful calls of call once warmup has passed; cpu
// then tells the CPU time per counted call spent since then.
func (c cpuClock) meter(call func(context.Context) error, warmup time.Duration) (counted func(context.Context) error, cpu func() string) {
	var from atomic.Pointer[cpuTime]
	var n atomic.Int64
	time.AfterFunc(warmup, func() {
		t := c.read()
		from.Store(&t)
	})
	counted = func(ctx context.Context) error {
		err := call(ctx)
		if err == nil && from.Load() != nil {
			n.Add(1)
		}
		return err
	}
	cpu = func() string {
		to, start, calls := c.read(), from.Load(), time.Duration(n.Load())
		if start == nil || calls == 0 {
			return "CPU per page: no page read after the warm-up"
		}
		s := fmt.Sprintf("CPU per page: this process (API and load generator) %.2f ms", ms((to.self-start.self)/calls))
		if c.postmaster != 0 {
			s += fmt.Sprintf(", Postgres %.2f ms", ms((to.postgres-start.postgres)/calls))
		}
		return s
	}
	return counted, cpu
}

// procCPU is the CPU time (user + system) a process has used, all its
// threads included; 0 when it cannot be read.
func procCPU(pid int) time.Duration {
	if pid == 0 {
		return 0
	}
	f, err := procStat(pid)
	if err != nil || len(f) < 13 {
		return 0
	}
	var ticks int64
	for _, i := range []int{11, 12} {
		n, _ := strconv.ParseInt(f[i], 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * time.Second / cpuTicks
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadAverage is /proc/loadavg's three figures (1, 5 and 15 minutes), or
// "?": on a shared machine a figure is read beside what else ran.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "?"
}
