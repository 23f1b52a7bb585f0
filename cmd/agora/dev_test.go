package main

// End-to-end tests of the agora binary itself: `agora dev` on a fresh and on
// an existing data folder, recovery after the process is killed with
// SIGKILL, and the report of an invalid configuration. The binary is built
// once per test run and started as a subprocess, so these tests see exactly
// what a person typing `agora dev` sees.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"agora/app/seed"
	"agora/internal/standins/childproc"
)

const demoPassword = "agora-demo"

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	buildDir  string
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(brokerDirEnv); dir != "" {
		// This binary started as the fault tests' broker (brokerProcess).
		os.Exit(runBroker(dir))
	}
	code := m.Run()
	if buildDir != "" {
		_ = os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// agoraBinary builds the binary once per test run and returns its path.
func agoraBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "agora-bin-")
		if buildErr != nil {
			return
		}
		goTool, err := exec.LookPath("go")
		if err != nil {
			buildErr = fmt.Errorf("go tool not found: %w", err)
			return
		}
		binPath = filepath.Join(buildDir, "agora")
		start := time.Now()
		out, err := exec.Command(goTool, "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		fmt.Fprintf(os.Stderr, "built agora in %v\n", time.Since(start).Round(time.Millisecond))
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// dataDir is a fresh, existing data folder that the unprivileged postgres
// user can reach (t.TempDir's parent is 0700, which it could not traverse
// when the tests run as root).
func dataDir(t *testing.T) string {
	t.Helper()
	dir := newDataDir(t)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// newDataDir names a data folder that does not exist yet, inside one the
// postgres user can reach, as a fresh clone's var/ is: agora dev must make
// it (it once made it 0700, for its VAPID key, and then could not start
// Postgres in it).
func newDataDir(t *testing.T) string {
	t.Helper()
	parent, err := os.MkdirTemp("", "agora-dev-test-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, "var")
	t.Cleanup(func() {
		stopOrphanedEngines(t, dir)
		stopOrphanedPostgres(t, dir)
		stopOrphanedClickHouse(t, dir)
		stopOrphanedLiveKit(t, dir)
		if pid := stripeMockPid(dir); pid > 0 && processAlive(pid) {
			t.Logf("cleanup: killing stripe-mock pid %d left on %s", pid, dir)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		_ = os.RemoveAll(parent)
	})
	return dir
}

func pidFile(dir string) string { return filepath.Join(dir, "postgres", "data", "postmaster.pid") }

// stopOrphanedPostgres is the last line of defence of the cleanup: a
// postmaster still running on dir after a failed test is stopped so that it
// does not outlive the test run.
func stopOrphanedPostgres(t *testing.T, dir string) {
	data, err := os.ReadFile(pidFile(dir))
	if err != nil {
		return
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(data), "\n", 2)[0]))
	if pid <= 0 || !processAlive(pid) {
		return
	}
	t.Logf("cleanup: stopping postgres pid %d left on %s", pid, dir)
	_ = syscall.Kill(pid, syscall.SIGQUIT)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && processAlive(pid) {
		time.Sleep(50 * time.Millisecond)
	}
	if processAlive(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// clickHousePid is the pid agora dev recorded for its local ClickHouse
// server, or 0.
func clickHousePid(dir string) int {
	data, err := os.ReadFile(filepath.Join(dir, "clickhouse", "clickhouse-server.pid"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return pid
}

// stopOrphanedClickHouse is stopOrphanedPostgres for the local ClickHouse.
func stopOrphanedClickHouse(t *testing.T, dir string) {
	pid := clickHousePid(dir)
	if pid <= 0 || !processAlive(pid) {
		return
	}
	t.Logf("cleanup: stopping clickhouse-server pid %d left on %s", pid, dir)
	_ = syscall.Kill(pid, syscall.SIGTERM)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && processAlive(pid) {
		time.Sleep(50 * time.Millisecond)
	}
	if processAlive(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// liveKitPid is the pid agora dev recorded for its local livekit-server,
// or 0.
func liveKitPid(dir string) int {
	data, err := os.ReadFile(filepath.Join(dir, "livekit", "livekit-server.pid"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return pid
}

// stripeMockPid is the pid of the local stripe-mock on dir, or 0.
func stripeMockPid(dir string) int {
	data, err := os.ReadFile(filepath.Join(dir, "stripe-mock", "stripe-mock.pid"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return pid
}

// stopOrphanedEngines kills the JVMs of agora dev --engines real (Kafka's
// brokers and Kafka Connect) left on dir; Kafka keeps its data safe across
// a kill -9, and the folder is removed next anyway.
func stopOrphanedEngines(t *testing.T, dir string) {
	files, _ := filepath.Glob(filepath.Join(dir, "engines", "kafka", "broker-*", "broker.pid"))
	files = append(files, filepath.Join(dir, "engines", "connect", "connect.pid"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// The JVM's command line names its folder: a recycled pid is not it.
		if pid, _ := strconv.Atoi(strings.TrimSpace(string(data))); childproc.Running(pid, filepath.Dir(f)) {
			t.Logf("cleanup: killing the JVM pid %d of %s", pid, f)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// stopOrphanedLiveKit kills a livekit-server left on dir (it keeps no
// state to flush).
func stopOrphanedLiveKit(t *testing.T, dir string) {
	if pid := liveKitPid(dir); pid > 0 && processAlive(pid) {
		t.Logf("cleanup: killing livekit-server pid %d left on %s", pid, dir)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

func processAlive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name; Z is a zombie.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// syncBuffer is a bytes.Buffer safe to write from the exec copying goroutine
// while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// proc is one running agora subprocess.
type proc struct {
	cmd     *exec.Cmd
	stdout  *syncBuffer
	stderr  *syncBuffer
	started time.Time
	done    chan struct{}
	err     error // set when done is closed
}

// testEnv is the environment of a subprocess: the test process's own, minus
// anything that configures agora, plus extra.
func testEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "AGORA_") || strings.HasPrefix(k, "SMTP_") || strings.HasPrefix(k, "STRIPE_") || k == "DATABASE_URL" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// startAgora starts the agora binary with args (see startProc).
func startAgora(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	return startProc(t, agoraBinary(t), env, args...)
}

// startProc starts the program bin with args in its own process group; the
// group is killed in t.Cleanup whatever happens.
func startProc(t *testing.T, bin string, env []string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	p := &proc{cmd: cmd, stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.stdout, p.stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p.started = time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
			return
		default:
		}
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			t.Errorf("%s pid %d did not exit after SIGKILL", filepath.Base(bin), cmd.Process.Pid)
		}
		if t.Failed() {
			t.Logf("%s stderr:\n%s", filepath.Base(bin), p.stderr.String())
		}
	})
	return p
}

// exited reports whether the process has exited.
func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// waitExit waits up to d for the process to exit and returns its exit code.
func (p *proc) waitExit(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(d):
		t.Fatalf("agora did not exit within %v\nstderr:\n%s", d, p.stderr.String())
	}
	var ee *exec.ExitError
	switch {
	case p.err == nil:
		return 0
	case errors.As(p.err, &ee):
		return ee.ExitCode()
	default:
		t.Fatalf("wait: %v", p.err)
		return -1
	}
}

// devServer is `agora dev` on a fixed address and data folder.
type devServer struct {
	t    *testing.T
	addr string
	data string
	http *http.Client
}

func newDevServer(t *testing.T) *devServer {
	return &devServer{
		t:    t,
		addr: freeAddr(t),
		data: newDataDir(t),
		// No keep-alive: connections must not outlive a killed server.
		http: &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}},
	}
}

func (s *devServer) url(path string) string { return "http://" + s.addr + path }

// start runs `agora dev` (with flags) and waits until /readyz answers 200,
// failing the test after limit. It returns the process and the time it
// took.
func (s *devServer) start(limit time.Duration, flags ...string) (*proc, time.Duration) {
	s.t.Helper()
	p := startAgora(s.t, testEnv("AGORA_LOG_LEVEL=warn"), append([]string{"dev", "--addr", s.addr, "--data", s.data}, flags...)...)
	deadline := p.started.Add(limit)
	for {
		if p.exited() {
			s.t.Fatalf("agora dev exited before it was ready (%v)\nstderr:\n%s", p.err, p.stderr.String())
		}
		res, err := s.http.Get(s.url("/readyz"))
		if err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return p, time.Since(p.started)
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("agora dev not ready within %v (last: %v)\nstderr:\n%s", limit, errOrStatus(res, err), p.stderr.String())
		}
		time.Sleep(25 * time.Millisecond)
	}
}

func errOrStatus(res *http.Response, err error) string {
	if err != nil {
		return err.Error()
	}
	return res.Status
}

// stop sends SIGTERM and checks a clean exit (status 0, within 15 s) that
// leaves no postgres running on the data folder.
func (s *devServer) stop(p *proc) {
	s.t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		s.t.Fatal(err)
	}
	start := time.Now()
	if code := p.waitExit(s.t, 15*time.Second); code != 0 {
		s.t.Fatalf("agora dev exited with status %d after SIGTERM\nstderr:\n%s", code, p.stderr.String())
	}
	s.t.Logf("SIGTERM → exit 0 in %v", time.Since(start).Round(time.Millisecond))
	if _, err := os.Stat(pidFile(s.data)); !errors.Is(err, os.ErrNotExist) {
		s.t.Fatalf("postmaster.pid still present after a clean stop (stat: %v): postgres was not stopped", err)
	}
}

// do sends a JSON request with an optional bearer token and decodes the
// JSON answer into out (when not nil).
func (s *devServer) do(method, path, token string, body, out any) int {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			s.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.url(path), rd)
	if err != nil {
		s.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := s.http.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	if out != nil && res.StatusCode < 300 {
		if err := json.Unmarshal(b, out); err != nil {
			s.t.Fatalf("%s %s: decode %s: %v", method, path, b, err)
		}
	}
	if res.StatusCode >= 300 {
		s.t.Logf("%s %s → %d %s", method, path, res.StatusCode, b)
	}
	return res.StatusCode
}

// signIn signs in as email with the demo password and returns the token.
func (s *devServer) signIn(email string) string {
	s.t.Helper()
	var out struct {
		AccessToken string `json:"accessToken"`
		User        struct {
			Email string `json:"email"`
		} `json:"user"`
	}
	if code := s.do("POST", "/api/sessions", "", map[string]string{"email": email, "password": demoPassword}, &out); code != http.StatusOK {
		s.t.Fatalf("sign in as %s: status %d", email, code)
	}
	if out.AccessToken == "" || out.User.Email != email {
		s.t.Fatalf("sign in as %s: token %q, user %q", email, out.AccessToken, out.User.Email)
	}
	return out.AccessToken
}

// setJobTitle changes the member's job title: the change a restart must keep.
func (s *devServer) setJobTitle(token, title string) {
	s.t.Helper()
	var u struct {
		JobTitle string `json:"jobTitle"`
	}
	if code := s.do("PATCH", "/api/users/me", token, map[string]string{"jobTitle": title}, &u); code != http.StatusOK {
		s.t.Fatalf("PATCH /api/users/me: status %d", code)
	}
	if u.JobTitle != title {
		s.t.Fatalf("PATCH /api/users/me answered jobTitle %q, want %q", u.JobTitle, title)
	}
}

// jobTitle reads the caller's job title through GET /api/tokens/decode.
func (s *devServer) jobTitle(token string) string {
	s.t.Helper()
	var d struct {
		User struct {
			JobTitle string `json:"jobTitle"`
		} `json:"user"`
	}
	if code := s.do("GET", "/api/tokens/decode", token, nil, &d); code != http.StatusOK {
		s.t.Fatalf("GET /api/tokens/decode: status %d", code)
	}
	return d.User.JobTitle
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func uniqueTitle(prefix string) string {
	return fmt.Sprintf("%s %d", prefix, time.Now().UnixNano())
}

func TestDevFirstAndLaterStart(t *testing.T) {
	t.Parallel()
	agoraBinary(t)
	s := newDevServer(t)

	// First start: a new cluster, migrations, demo data.
	p, took := s.start(60 * time.Second)
	t.Logf("first start (initdb, migrations, seed) ready in %v", took.Round(time.Millisecond))

	// The banner is printed as the listener opens, which may be a moment
	// after /readyz first answers.
	want := append([]string{"http://" + s.addr, "LiveKit (Meet Ups): ws://127.0.0.1:", "Payments: a local stripe-mock at http://127.0.0.1:", "Embeddings (AI search): ",
		"/api/dev/checkout/{id}"}, seed.Logins()...)
	deadline := time.Now().Add(5 * time.Second)
	for {
		out := p.stdout.String()
		var missing []string
		for _, w := range want {
			if !strings.Contains(out, w) {
				missing = append(missing, w)
			}
		}
		if len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("stdout lacks %q:\n%s", missing, out)
		}
		time.Sleep(25 * time.Millisecond)
	}
	if len(seed.Logins()) != 5 {
		t.Fatalf("seed.Logins() = %d logins, want 5", len(seed.Logins()))
	}

	token := s.signIn(seed.MemberEmail)
	title := uniqueTitle("First-run title")
	s.setJobTitle(token, title)

	// The local ClickHouse runs under the data folder while agora dev
	// does, and stops with it.
	chPid := clickHousePid(s.data)
	if chPid <= 0 || !processAlive(chPid) {
		t.Fatalf("no local clickhouse-server running on %s (pid %d)", s.data, chPid)
	}
	// So does the local LiveKit, posting its webhooks to this API.
	lkPid := liveKitPid(s.data)
	if lkPid <= 0 || !processAlive(lkPid) {
		t.Fatalf("no local livekit-server running on %s (pid %d)", s.data, lkPid)
	}
	lkConf, err := os.ReadFile(filepath.Join(s.data, "livekit", "livekit.yaml"))
	if err != nil || !strings.Contains(string(lkConf), `"http://`+s.addr+`/api/livekit/webhook"`) {
		t.Errorf("livekit.yaml does not post webhooks to this API (%v):\n%s", err, lkConf)
	}
	keys, err := os.ReadFile(filepath.Join(s.data, "livekit", "keys.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Without STRIPE_SECRET_KEY, a local stripe-mock stands in for Stripe,
	// and the log says so.
	smPid := stripeMockPid(s.data)
	if smPid <= 0 || !processAlive(smPid) {
		t.Fatalf("no local stripe-mock running on %s (pid %d)", s.data, smPid)
	}
	if !strings.Contains(p.stderr.String(), "STRIPE_SECRET_KEY is not set: payments run on a local stripe-mock") {
		t.Errorf("the log does not say payments run on stripe-mock:\n%s", p.stderr.String())
	}
	s.stop(p)
	if processAlive(smPid) || stripeMockPid(s.data) != 0 {
		t.Fatalf("stripe-mock %d outlived agora dev", smPid)
	}
	if processAlive(chPid) || clickHousePid(s.data) != 0 {
		t.Fatalf("clickhouse-server %d outlived agora dev", chPid)
	}
	if processAlive(lkPid) || liveKitPid(s.data) != 0 {
		t.Fatalf("livekit-server %d outlived agora dev", lkPid)
	}

	// Later start: the same data folder, nothing to create.
	p, took = s.start(10 * time.Second)
	t.Logf("later start (existing data) ready in %v", took.Round(time.Millisecond))

	token = s.signIn(seed.MemberEmail)
	if got := s.jobTitle(token); got != title {
		t.Fatalf("after restart jobTitle = %q, want %q (data lost or demo data written again)", got, title)
	}
	// Every demo login still signs in with the demo password.
	for _, e := range seed.Logins() {
		s.signIn(e)
	}
	// The SFU keeps its key pair, so tokens signed before still work.
	if again, err := os.ReadFile(filepath.Join(s.data, "livekit", "keys.json")); err != nil || !bytes.Equal(again, keys) {
		t.Errorf("the LiveKit key pair changed across starts (%v)", err)
	}
	s.stop(p)
}

func TestDevRecoversFromKill9(t *testing.T) {
	t.Parallel()
	agoraBinary(t)
	s := newDevServer(t)

	p, took := s.start(60 * time.Second)
	t.Logf("first start ready in %v", took.Round(time.Millisecond))

	for cycle := 1; cycle <= 3; cycle++ {
		token := s.signIn(seed.MemberEmail)
		title := uniqueTitle(fmt.Sprintf("Kill cycle %d", cycle))
		s.setJobTitle(token, title)

		// SIGKILL the agora process only: postgres, in a process group of
		// its own, is left for the next start to deal with.
		if err := p.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		<-p.done

		p, took = s.start(30 * time.Second)
		t.Logf("cycle %d: start after kill -9 ready in %v (%s)", cycle, took.Round(time.Millisecond), leftover(p.stderr.String()))
		if took >= 30*time.Second {
			t.Fatalf("cycle %d: start after kill -9 took %v", cycle, took)
		}
		token = s.signIn(seed.MemberEmail)
		if got := s.jobTitle(token); got != title {
			t.Fatalf("cycle %d: after kill -9 and restart jobTitle = %q, want %q", cycle, got, title)
		}
	}
	s.stop(p)
}

// leftover says what the start found of the killed run, from its warnings.
func leftover(stderr string) string {
	pg := "postgres had already shut down"
	switch {
	case strings.Contains(stderr, "orphaned postgres"):
		pg = "stopped the orphaned postgres"
	case strings.Contains(stderr, "stale postmaster.pid"):
		pg = "removed a stale postmaster.pid"
	}
	ch := "clickhouse had already shut down"
	switch {
	case strings.Contains(stderr, "orphaned clickhouse-server"):
		ch = "stopped the orphaned clickhouse"
	case strings.Contains(stderr, "stale clickhouse pid file"):
		ch = "removed a stale clickhouse pid file"
	}
	lk := "livekit had already shut down"
	if strings.Contains(stderr, "orphaned livekit-server") {
		lk = "stopped the orphaned livekit-server"
	}
	return pg + "; " + ch + "; " + lk
}

func TestInvalidConfigListsEveryProblem(t *testing.T) {
	t.Parallel()
	p := startAgora(t, testEnv("AGORA_ADDR=nonsense", "AGORA_LOG_LEVEL=loud", "AGORA_SESSION_TTL=abc"),
		"dev", "--data", t.TempDir())
	if code := p.waitExit(t, 15*time.Second); code != 2 {
		t.Fatalf("exit status %d, want 2\nstderr:\n%s", code, p.stderr.String())
	}
	stderr := p.stderr.String()
	for _, want := range []string{
		"invalid configuration",
		`"nonsense" is not host:port`,
		`AGORA_LOG_LEVEL: "loud"`,
		`AGORA_SESSION_TTL: "abc"`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not mention %q:\n%s", want, stderr)
		}
	}
	if out := p.stdout.String(); out != "" {
		t.Errorf("stdout should be empty, got:\n%s", out)
	}
}
