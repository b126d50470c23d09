//go:build deploy

package deploy

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"text/template"
	"time"
)

// proc is a process the test started; its output is kept for the report
// of a failure.
type proc struct {
	name string
	cmd  *exec.Cmd
	out  *lockedBuffer
	done chan struct{} // closed when the process has exited
}

// lockedBuffer collects a process's output.
type lockedBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// start runs argv with its output collected; the test's cleanup kills it.
// It may be called from any goroutine.
func start(t *testing.T, name string, argv []string, env ...string) (*proc, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %v", name, err)
	}
	p := &proc{name: name, cmd: cmd, out: out, done: make(chan struct{})}
	go func() { cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { p.kill() })
	return p, nil
}

// kill ends the process at once (SIGKILL to its group) and waits for it.
func (p *proc) kill() {
	select {
	case <-p.done:
		return
	default:
	}
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.done
}

// stop asks the process to end (SIGTERM) and waits up to d before it kills.
func (p *proc) stop(d time.Duration) {
	select {
	case <-p.done:
		return
	default:
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(d):
		p.kill()
	}
}

// freePorts returns n distinct free loopback ports.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ls []net.Listener
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// need fails the test when a program the deployment runs is missing.
func need(t *testing.T, program string) string {
	t.Helper()
	path, err := exec.LookPath(program)
	if err != nil {
		path, err = exec.LookPath(filepath.Join("/usr/sbin", program)) // nginx, off a user's PATH
	}
	if err != nil {
		t.Fatalf("%s is not installed: the deployment test runs it (on Debian: apt-get install nginx redis-server; .ci/run does)", program)
	}
	return path
}

// redis starts redis-server (found by need, on the test's goroutine) on
// port, without persistence. It may be called from any goroutine.
func redis(t *testing.T, bin string, port int) (*proc, error) {
	p, err := start(t, "redis", []string{bin, "--port", fmt.Sprint(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--protected-mode", "no"})
	if err != nil {
		return nil, err
	}
	return p, waitTCP(p, fmt.Sprintf("127.0.0.1:%d", port))
}

// waitTCP waits until addr accepts connections.
func waitTCP(p *proc, addr string) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return nil
		}
		select {
		case <-p.done:
			return fmt.Errorf("%s exited before it listened on %s:\n%s", p.name, addr, p.out.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	return fmt.Errorf("%s did not listen on %s within 10s:\n%s", p.name, addr, p.out.String())
}

// instance is one cmd/everything -http.
type instance struct {
	Name string
	Addr string // 127.0.0.1:PORT
	proc *proc
}

// URL is the instance's own MCP endpoint, bypassing nginx.
func (in *instance) URL() string { return "http://" + in.Addr + "/mcp" }

// listening matches the line everything logs once it serves.
var listening = regexp.MustCompile(`everything: listening on (\S+)`)

// launch starts the instance (again, after a kill) and waits for it. It
// may be called from any goroutine.
func (in *instance) launch(t *testing.T, bin string, env []string) error {
	p, err := start(t, in.Name, []string{bin, "-http", in.Addr, "-page-size", "2", "-watch-interval", "0",
		"-caller=", "-instance", in.Name}, env...)
	if err != nil {
		return err
	}
	in.proc = p
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if listening.MatchString(p.out.String()) {
			return nil
		}
		select {
		case <-p.done:
			return fmt.Errorf("%s exited at start:\n%s", in.Name, p.out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	return fmt.Errorf("%s did not listen within 15s:\n%s", in.Name, p.out.String())
}

// nginxConfig is what nginx.conf's template is filled in with.
type nginxConfig struct {
	Dir       string
	User      string
	Listen    string
	Instances []*instance
}

// nginx writes the configuration into dir and starts nginx on listen.
func nginx(t *testing.T, dir, listen string, instances []*instance) *proc {
	t.Helper()
	bin := need(t, "nginx")
	tmpl, err := template.ParseFiles("nginx.conf")
	if err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"body", "proxy", "fastcgi", "uwsgi", "scgi"} {
		if err := os.MkdirAll(filepath.Join(dir, "tmp", sub), 0o777); err != nil {
			t.Fatal(err)
		}
	}
	cfg := nginxConfig{Dir: dir, Listen: listen, Instances: instances}
	if os.Geteuid() == 0 {
		cfg.User = "root" // its workers read the test's private directory
	}
	f, err := os.Create(filepath.Join(dir, "nginx.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if err := tmpl.Execute(f, cfg); err != nil {
		t.Fatal(err)
	}
	f.Close()
	p, err := start(t, "nginx", []string{bin, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"), "-e", filepath.Join(dir, "error.log")})
	if err == nil {
		err = waitTCP(p, listen)
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// buildEverything builds cmd/everything into dir.
func buildEverything(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "everything")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join("..", "cmd", "everything")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building cmd/everything: %v\n%s", err, out)
	}
	return bin
}

// readLines returns r's lines on a channel, closed at the end.
func readLines(r io.Reader) <-chan string {
	ch := make(chan string, 64)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), 8<<20)
		for sc.Scan() {
			ch <- sc.Text()
		}
	}()
	return ch
}

// ready waits until url answers /mcp at all (any HTTP status).
func ready(ctx context.Context, url string) error {
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
