package childproc

import (
	"log/slog"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"
)

// Supervised is a server process that is started again whenever it ends
// other than by a stop someone asked for, on the same ports, so that its
// clients carry on (they reconnect, retry their batch, make their next
// call). pgserver and chserver embed it.
type Supervised struct {
	mu  sync.Mutex // guards cmd, exited and stopping, which a restart changes
	cmd *exec.Cmd
	// exited is closed when the process ends, so any number of waiters
	// (Stop called twice, the start loop, Watch) see it.
	exited   <-chan struct{}
	stopping bool
	restarts atomic.Int64
}

// Started records the process just started.
func (p *Supervised) Started(cmd *exec.Cmd, exited <-chan struct{}) {
	p.mu.Lock()
	p.cmd, p.exited = cmd, exited
	p.mu.Unlock()
}

// Current is the process and the channel closed when it ends (nil before
// the first start).
func (p *Supervised) Current() (*exec.Cmd, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd, p.exited
}

// PID is the pid of the current process: what a test kills.
func (p *Supervised) PID() int {
	cmd, _ := p.Current()
	return cmd.Process.Pid
}

// Exited is closed when the current process ends.
func (p *Supervised) Exited() <-chan struct{} {
	_, exited := p.Current()
	return exited
}

// Stopping records that a stop was asked for, so that the process's end
// is not a crash to recover from, and returns the process to stop.
func (p *Supervised) Stopping() (*exec.Cmd, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopping = true
	return p.cmd, p.exited
}

// Resume forgets a stop, before the server is started again by hand.
func (p *Supervised) Resume() {
	p.mu.Lock()
	p.stopping = false
	p.mu.Unlock()
}

func (p *Supervised) stopAsked() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stopping
}

// Restarts is how many times the server was started again after it ended
// unexpectedly.
func (p *Supervised) Restarts() int { return int(p.restarts.Load()) }

// Watch waits for the current process to end and, unless a stop was asked
// for or it exited cleanly (status 0: a shutdown someone asked for, such as
// Pdeathsig's when this process is gone), calls launch until it succeeds,
// pausing 1 s more after each failure, at most 5 s: a server's recovery can
// fail until what broke it (a full disk) is mended. A stop asked for during
// the restart is carried out with stop. Watch returns once the server is
// stopped; it runs in a goroutine of its own after each start.
func (p *Supervised) Watch(log *slog.Logger, name, logPath string, launch, stop func() error) {
	for {
		cmd, exited := p.Current()
		<-exited
		if p.stopAsked() || cmd.ProcessState.Success() {
			return
		}
		log.Error(name+" ended unexpectedly; starting it again", "state", cmd.ProcessState.String(), "log", logPath)
		for attempt := 1; ; attempt++ {
			err := launch()
			if p.stopAsked() {
				if err == nil {
					_ = stop() // the stop came during the restart: it may have missed this process
				}
				return
			}
			if err == nil {
				p.restarts.Add(1)
				log.Info(name+" started again", "attempts", attempt)
				break
			}
			log.Warn(name+" restart failed, retrying", "attempt", attempt, "err", err)
			time.Sleep(min(time.Duration(attempt)*time.Second, 5*time.Second))
		}
	}
}
