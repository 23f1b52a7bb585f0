// Package childproc holds what the embedded servers (pgserver, chserver,
// sfuserver, stripemock) share about running a server as a child process: free loopback
// ports, a start that ties the child's life to this process, a check of
// whether a pid read from a lock or pid file is still that server, the
// stopping of one a killed earlier run left, and the finding of a binary
// (or a data file: agora dev's word vectors) that scripts/install-deps.sh
// puts into the cache folder, and the supervision that starts a crashed
// server again (Supervised).
package childproc

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// FreePorts returns n distinct loopback ports that were free a moment ago.
// The listeners are held until all n are chosen, so the ports differ; a
// port can still be taken before the server binds it, which is why callers
// retry a failed start.
func FreePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// Start starts cmd and returns a channel closed when it has exited (and
// been waited for), so any number of waiters see the exit.
//
// cmd.SysProcAttr.Pdeathsig, when set, is sent by the kernel when the
// thread that started the child exits, not the process: so the start
// happens on a locked OS thread that a goroutine keeps for the child's
// life, and the signal comes only when this process dies without stopping
// the child. When cmd.Stdout and cmd.Stderr are *os.File the caller may
// close its copies once Start returns.
func Start(cmd *exec.Cmd) (<-chan struct{}, error) {
	started := make(chan error, 1)
	exited := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			runtime.UnlockOSThread()
			return
		}
		started <- nil
		_ = cmd.Wait()
		close(exited)
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return exited, nil
}

// Running reports whether process pid exists and its command line holds
// marker (the server's binary name, or a path only that server has), so
// that a pid recycled by another program is not taken for the server.
func Running(pid int, marker string) bool {
	if pid <= 0 {
		return false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	// A zombie has an empty command line: it is gone for our purposes.
	return bytes.Contains(cmdline, []byte(marker))
}

// WriteFile replaces path's content atomically (a new file renamed over
// it), so that a server reading its configuration never sees half a file.
func WriteFile(path, content string, perm os.FileMode) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), perm); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// IsExecutable reports whether p is a file that may be executed.
func IsExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode().Perm()&0o111 != 0
}

// RandomHex is n random bytes in hex: passwords and keys of the servers.
func RandomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// CachedBinary finds the program name that scripts/install-deps.sh
// installs into ($XDG_CACHE_HOME or ~/.cache)/agora/<name>-<version>/, else
// on PATH; ok is false when neither has it.
func CachedBinary(name, version string) (path string, ok bool) {
	if p, err := cachePath(name, version, name); err == nil && IsExecutable(p) {
		return p, true
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, true
	}
	return "", false
}

// CachedFile is where scripts/install-deps.sh installs the data file of
// name (such as word vectors): ($XDG_CACHE_HOME or ~/.cache)/agora/
// <name>-<version>/<file>; ok reports whether it is there. The path is
// answered either way, for a message that says where it was looked for.
func CachedFile(name, version, file string) (path string, ok bool) {
	p, err := cachePath(name, version, file)
	if err != nil {
		return "", false
	}
	fi, err := os.Stat(p)
	return p, err == nil && fi.Mode().IsRegular()
}

// cachePath is the install script's path of file, kept in the cache folder
// by name and version so that versions live side by side.
func cachePath(name, version, file string) (string, error) {
	dir, err := CacheDir(name + "-" + version)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, file), nil
}

// CacheDir is ($XDG_CACHE_HOME or ~/.cache)/agora/<name>: where agora
// keeps what it installs or can make again, such as the vectors of
// texts it embedded.
func CacheDir(name string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "agora", name), nil
}

// StopOrphan kills the server that a killed earlier run left, named in
// pidFile and recognised by marker on its command line (see Running),
// waits up to 5 s for it to go, and removes the pid file. A pid file of a
// process that is gone, or is something else, is only removed.
func StopOrphan(pidFile, marker string, log *slog.Logger) {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if Running(pid, marker) {
		log.Warn("stopping an orphaned server left by an earlier run", "pid", pid, "pidFile", pidFile)
		_ = syscall.Kill(pid, syscall.SIGKILL)
		for i := 0; i < 100 && Running(pid, marker); i++ {
			time.Sleep(50 * time.Millisecond)
		}
	}
	_ = os.Remove(pidFile)
}

// StartRetrying runs start, which chooses the server's ports and launches
// it, up to five times, waiting pause between tries: a port chosen free can
// be taken before the server binds it. It answers start's last error, or
// the first one once ctx is done.
func StartRetrying(ctx context.Context, log *slog.Logger, name string, pause time.Duration, start func() error) error {
	for attempt := 0; ; attempt++ {
		err := start()
		if err == nil || attempt == 4 || ctx.Err() != nil {
			return err
		}
		log.Warn(name+" start failed, retrying", "err", err)
		time.Sleep(pause)
	}
}
