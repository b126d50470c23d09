package redisbroker_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestMain keeps go-redis's own logs (a dial refused every 100ms while
// Redis is down) out of the test output.
func TestMain(m *testing.M) {
	redis.SetLogger(quiet{})
	os.Exit(m.Run())
}

type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}

// redisServer is a redis-server of the test's own, on a free loopback
// port, that the test may kill and start again on the same port.
type redisServer struct {
	t    *testing.T
	path string
	port int
	dir  string
	cmd  *exec.Cmd
	out  *lockedBuffer
}

// startRedis starts a redis-server for the test, which stops it at the
// end. Without one installed the test is skipped, or fails when
// MCPWIRE_REQUIRE_REDIS is set (as CI sets it, having installed one).
func startRedis(t *testing.T) *redisServer {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("MCPWIRE_REQUIRE_REDIS") != "" {
			t.Fatal("redis-server is not installed, and MCPWIRE_REQUIRE_REDIS is set")
		}
		t.Skip("redis-server is not installed: skipping the tests against a real Redis (apt-get install redis-server)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	r := &redisServer{t: t, path: path, port: port, dir: t.TempDir(), out: &lockedBuffer{}}
	r.start()
	t.Cleanup(func() {
		if r.cmd != nil {
			r.kill()
		}
		if t.Failed() {
			t.Logf("redis-server output:\n%s", r.out)
		}
	})
	return r
}

func (r *redisServer) addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(r.port)) }

// start starts redis-server on r's port and waits until it answers.
func (r *redisServer) start() {
	r.t.Helper()
	r.cmd = exec.Command(r.path, "--port", strconv.Itoa(r.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", r.dir)
	r.cmd.Stdout, r.cmd.Stderr = r.out, r.out
	if err := r.cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: r.addr(), MaxRetries: -1})
	defer rdb.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := rdb.Ping(ctx).Err()
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("redis-server on %s did not answer: %v\n%s", r.addr(), err, r.out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill stops redis-server at once, as a crash would.
func (r *redisServer) kill() {
	r.cmd.Process.Kill()
	r.cmd.Wait()
	r.cmd = nil
}

// client returns a client of r, closed at the end of the test.
func (r *redisServer) client() *redis.Client {
	rdb := redis.NewClient(&redis.Options{Addr: r.addr()})
	r.t.Cleanup(func() { rdb.Close() })
	return rdb
}

// lockedBuffer is a bytes.Buffer safe for concurrent use.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// testLogger logs into a buffer the test can read, and to the test's log
// when it fails.
func testLogger(t *testing.T, name string) (*slog.Logger, *lockedBuffer) {
	buf := &lockedBuffer{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("%s logs:\n%s", name, buf)
		}
	})
	return slog.New(slog.NewTextHandler(buf, nil)), buf
}

// eventually fails the test unless cond holds within d.
func eventually(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func mustContain(t *testing.T, logs fmt.Stringer, want string) {
	t.Helper()
	if !strings.Contains(logs.String(), want) {
		t.Errorf("logs lack %q", want)
	}
}
