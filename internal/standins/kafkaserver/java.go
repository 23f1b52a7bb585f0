// Package kafkaserver runs Apache Kafka's own servers from the jars that
// scripts/install-deps.sh kafka (and debezium) resolve from Maven Central:
// a cluster of KRaft brokers (Start) and Kafka Connect with Debezium's
// Postgres connector (StartConnect). They are the real engines of the
// design's change pipeline, run on one machine for agora dev --engines
// real, the real-engines tests and the pipeline benchmark; plain agora dev
// uses the relay and the embedded broker instead (internal/adapters/kafka).
//
// Each server is a JVM started as a child process (childproc), listening on
// free loopback ports, with its state, configuration and log in a folder of
// its own, started again when it dies (childproc.Supervised), so that a
// test's kill -9 is followed by the restart a production supervisor would
// do.
package kafkaserver

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"agora/internal/standins/childproc"
)

// The versions scripts/install-deps.sh installs (its KAFKA_VERSION,
// CONNECT_VERSION and DEBEZIUM_VERSION, and deploy/'s images: deploy's
// tests compare them). Connect is the Kafka Debezium is built against, not
// the brokers' (scripts/engines/connect.pom.xml says why).
const (
	KafkaVersion    = "4.4.0"
	ConnectVersion  = "4.3.0"
	DebeziumVersion = "3.6.1.Final"
)

// ErrNotInstalled means the jars are not in the cache folder.
var ErrNotInstalled = errors.New("kafkaserver: Kafka's or Debezium's jars are not installed (run: scripts/install-deps.sh kafka debezium)")

// installed is the folder scripts/install-deps.sh filled for name at
// version; its stamp file "installed" is written last.
func installed(name, version string) (string, error) {
	p, ok := childproc.CachedFile(name, version, "installed")
	if !ok {
		return "", fmt.Errorf("%w: looked for %s", ErrNotInstalled, p)
	}
	return filepath.Dir(p), nil
}

// javaBinary is $JAVA_HOME/bin/java, else java on PATH.
func javaBinary() (string, error) {
	if h := os.Getenv("JAVA_HOME"); h != "" && childproc.IsExecutable(filepath.Join(h, "bin", "java")) {
		return filepath.Join(h, "bin", "java"), nil
	}
	p, err := exec.LookPath("java")
	if err != nil {
		return "", errors.New("kafkaserver: java not found (run: scripts/install-deps.sh kafka)")
	}
	return p, nil
}

// javaCommand is java running main with the jars of the installed folder
// name-version (kafka or connect) on the class path, a heap of heapMB, and its log4j2 configuration in dir; its output is
// appended to logFile. The JVM flags are Kafka's own scripts' (G1 with
// short pauses), with the heap small for a shared 2-core machine.
func javaCommand(name, version, dir, logFile string, heapMB int, main string, args ...string) (*exec.Cmd, *os.File, error) {
	java, err := javaBinary()
	if err != nil {
		return nil, nil, err
	}
	jars, err := installed(name, version)
	if err != nil {
		return nil, nil, err
	}
	logConfig := filepath.Join(dir, "log4j2.properties")
	if err := childproc.WriteFile(logConfig, log4j2Properties, 0o644); err != nil {
		return nil, nil, err
	}
	out, err := os.OpenFile(logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, err
	}
	argv := []string{
		fmt.Sprintf("-Xms%dm", heapMB/2), fmt.Sprintf("-Xmx%dm", heapMB),
		"-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", "-XX:InitiatingHeapOccupancyPercent=35",
		"-Djava.awt.headless=true", "-Dlog4j2.configurationFile=" + logConfig,
		"-cp", filepath.Join(jars, "lib", "*"), main,
	}
	cmd := exec.Command(java, append(argv, args...)...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = out, out
	// Pdeathsig stops the JVM if this process dies without stopping it;
	// Setpgid keeps a terminal's Ctrl-C from reaching it first.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM, Setpgid: true}
	return cmd, out, nil
}

// log4j2Properties logs Kafka's and Debezium's INFO lines to the output
// (the server's log file), the chatty client and config dumps at WARN.
var log4j2Properties = strings.Join([]string{
	"status = warn",
	"appender.out.type = Console",
	"appender.out.name = out",
	"appender.out.layout.type = PatternLayout",
	"appender.out.layout.pattern = [%d] %p %m (%c{1})%n",
	"rootLogger.level = info",
	"rootLogger.appenderRef.out.ref = out",
	"logger.clients.name = org.apache.kafka.clients",
	"logger.clients.level = warn",
	"logger.config.name = org.apache.kafka.common.config",
	"logger.config.level = warn",
	"logger.utils.name = org.apache.kafka.common.utils.AppInfoParser",
	"logger.utils.level = warn",
	"",
}, "\n")

// kill sends the current process of p SIGKILL, as a crash would.
func kill(p *childproc.Supervised, name string) error {
	cmd, _ := p.Current()
	if cmd == nil {
		return fmt.Errorf("kafkaserver: %s not running", name)
	}
	return syscall.Kill(cmd.Process.Pid, syscall.SIGKILL)
}

// stop marks p stopped (no restart), asks its JVM to shut down (SIGTERM)
// and waits for it, at most 30 s, then kills it, and removes its pid file.
func stop(p *childproc.Supervised, pidFile string) error {
	cmd, exited := p.Stopping()
	if cmd == nil {
		return nil
	}
	defer os.Remove(pidFile)
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
	}
	return nil
}
