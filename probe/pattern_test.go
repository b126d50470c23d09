package probe

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestRootFile(t *testing.T) {
	dir := t.TempDir()
	root, err := NewRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		verb    Verb
		path    string
		want    string
		wantErr string // substring; "" means no error
		outside bool
	}{
		{Write, "a.txt", "write:a.txt", "", false},
		{Write, "./a.txt", "write:a.txt", "", false},
		{Read, "notes//todo.txt", "read:notes/todo.txt", "", false},
		{Read, "notes/./x/../todo.txt", "read:notes/todo.txt", "", false},
		{Delete, "dir/", "delete:dir", "", false},
		{Read, ".", "read:.", "", false},
		{Write, filepath.Join(dir, "abs", "b.txt"), "write:abs/b.txt", "", false},
		{Write, dir, "write:.", "", false},
		{Write, "with:colon.txt", "write:with:colon.txt", "", false},
		{Write, "../x", "", "outside the server's root", true},
		{Write, "..", "", "outside the server's root", true},
		{Write, "a/../../x", "", "outside the server's root", true},
		{Write, "a/../../" + filepath.Base(dir) + "/x", "", "outside the server's root", true},
		{Write, "/etc/passwd", "", "outside the server's root", true},
		{Write, filepath.Dir(dir), "", "outside the server's root", true},
		{Write, "", "", "path is empty", false},
		{Write, "a\x00b", "", "NUL", false},
		{Write, "a\nb", "", "control character", false},
		{Exec, "a.txt", "", "does not take a file path", false},
		{Net, "a.txt", "", "does not take a file path", false},
	}
	for _, tt := range tests {
		t.Run(string(tt.verb)+" "+tt.path, func(t *testing.T) {
			p, err := root.File(tt.verb, tt.path)
			if tt.wantErr == "" {
				if err != nil || p.String() != tt.want {
					t.Fatalf("got %q, %v; want %q", p.String(), err, tt.want)
				}
				if err := p.Check(); err != nil {
					t.Errorf("pattern %q does not pass Check: %v", p, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got %q, %v; want an error containing %q", p.String(), err, tt.wantErr)
			}
			if errors.Is(err, ErrOutsideRoot) != tt.outside {
				t.Errorf("errors.Is(err, ErrOutsideRoot) = %v, want %v", !tt.outside, tt.outside)
			}
			if strings.Contains(err.Error(), dir) && !strings.Contains(tt.path, dir) {
				t.Errorf("error %q reveals the root directory", err)
			}
		})
	}
}

func TestRootFileSameArgumentsSamePattern(t *testing.T) {
	root, _ := NewRoot(t.TempDir())
	spellings := []string{"a/b.txt", "./a/b.txt", "a//b.txt", "a/./b.txt", "a/c/../b.txt", filepath.Join(root.Dir(), "a", "b.txt")}
	for _, s := range spellings {
		p, err := root.File(Write, s)
		if err != nil || p.String() != "write:a/b.txt" {
			t.Errorf("File(write, %q) = %q, %v; want write:a/b.txt", s, p, err)
		}
	}
}

func TestNewRoot(t *testing.T) {
	if _, err := NewRoot(""); err == nil {
		t.Error("NewRoot(\"\") succeeded")
	}
	r, err := NewRoot("relative/dir")
	if err != nil || !filepath.IsAbs(r.Dir()) {
		t.Errorf("NewRoot(relative) = %q, %v; want an absolute directory", r.Dir(), err)
	}
	if _, err := (Root{}).File(Read, "a"); err == nil {
		t.Error("the zero Root made a pattern")
	}
}

func TestHost(t *testing.T) {
	tests := []struct {
		host    string
		port    int
		want    string
		wantErr string
	}{
		{"Example.COM", 0, "net:example.com", ""},
		{"example.com.", 443, "net:example.com:443", ""},
		{"API.example.com", 8080, "net:api.example.com:8080", ""},
		{"my_host-1.internal", 0, "net:my_host-1.internal", ""},
		{"192.0.2.1", 80, "net:192.0.2.1:80", ""},
		{"::FFFF:192.0.2.1", 0, "net:192.0.2.1", ""},
		{"2001:DB8:0:0::1", 443, "net:[2001:db8::1]:443", ""},
		{"[2001:db8::1]", 0, "net:[2001:db8::1]", ""},
		{"", 0, "", "host is empty"},
		{"fe80::1%eth0", 0, "", "without a zone"},
		{"127.1", 0, "", "not a valid IP address"},
		{"0x7f.1", 0, "", "non-standard form"},
		{"bad host", 0, "", "use letters"},
		{"-lead.example", 0, "", "use letters"},
		{"a..b", 0, "", "1 to 63 bytes"},
		{"bücher.example", 0, "", "xn--"},
		{strings.Repeat("a", 64) + ".com", 0, "", "1 to 63 bytes"},
		{"example.com", 70000, "", "out of range"},
		{"example.com", -1, "", "out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			p, err := Host(tt.host, tt.port)
			checkResult(t, p, err, tt.want, tt.wantErr)
		})
	}
}

func TestURL(t *testing.T) {
	tests := []struct {
		url, want, wantErr string
	}{
		{"https://Example.com/a?b=c", "net:example.com:443", ""},
		{"https://example.com:443/other", "net:example.com:443", ""},
		{"HTTP://user:secret@example.com/", "net:example.com:80", ""},
		{"wss://chat.example.com", "net:chat.example.com:443", ""},
		{"http://[::1]:8080/", "net:[::1]:8080", ""},
		{"ftp://files.example.com/", "net:files.example.com", ""},
		{"https://example.com:0/", "", "1..65535"},
		{"example.com/path", "", "needs a scheme and a host"},
		{"://bad", "", "does not parse"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			p, err := URL(tt.url)
			checkResult(t, p, err, tt.want, tt.wantErr)
			if err != nil && strings.Contains(err.Error(), "secret") {
				t.Errorf("error %q reveals user info", err)
			}
		})
	}
}

func TestCommand(t *testing.T) {
	tests := []struct {
		program, want, wantErr string
	}{
		{"git", "exec:git", ""},
		{"Git", "exec:Git", ""},
		{"/usr/bin/../bin/git", "exec:/usr/bin/git", ""},
		{"/usr//local/bin/tool", "exec:/usr/local/bin/tool", ""},
		{"./build.sh", "", "relative path"},
		{"bin/tool", "", "relative path"},
		{"", "", "program is empty"},
		{"..", "", "not a program name"},
		{"rm\n-rf", "", "control character"},
	}
	for _, tt := range tests {
		t.Run(tt.program, func(t *testing.T) {
			p, err := Command(tt.program)
			checkResult(t, p, err, tt.want, tt.wantErr)
		})
	}
}

// checkResult checks a constructor's answer and, for a pattern, that Parse
// accepts its text unchanged.
func checkResult(t *testing.T, p Pattern, err error, want, wantErr string) {
	t.Helper()
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("got %q, %v; want an error containing %q", p.String(), err, wantErr)
		}
		return
	}
	if err != nil || p.String() != want {
		t.Fatalf("got %q, %v; want %q", p.String(), err, want)
	}
	back, err := Parse(want)
	if err != nil || back != p {
		t.Errorf("Parse(%q) = %#v, %v; want %#v", want, back, err, p)
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		wantErr string
	}{
		{"read:a.txt", ""},
		{"write:notes/todo.txt", ""},
		{"delete:.", ""},
		{"write:a:b", ""},
		{"exec:git", ""},
		{"exec:/usr/bin/git", ""},
		{"net:example.com", ""},
		{"net:example.com:443", ""},
		{"net:[::1]:443", ""},
		{"net:[::1]", ""},
		{"net:10.0.0.1:22", ""},
		{"nothing", "no colon"},
		{"copy:a", "unknown verb"},
		{"READ:a", "unknown verb"},
		{":a", "unknown verb"},
		{"read:", "empty path"},
		{"read:./a", "not clean"},
		{"read:a/", "not clean"},
		{"read:a//b", "not clean"},
		{"read:/etc/passwd", "absolute"},
		{"read:../a", "outside the server's root"},
		{"read:..", "outside the server's root"},
		{"read:a\tb", "control character"},
		{"exec:./x", "relative path"},
		{"exec:/usr/bin/../bin/git", "not clean"},
		{"net:Example.com", "not canonical"},
		{"net:example.com.", "not canonical"},
		{"net:example.com:0443", "not canonical"},
		{"net:example.com:0", "not canonical"},
		{"net:example.com:http", "bad port"},
		{"net:::1", "bracket"},
		{"net:[::ffff:1.2.3.4]", "not canonical"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p, err := Parse(tt.in)
			if tt.wantErr == "" {
				if err != nil || p.String() != tt.in {
					t.Fatalf("Parse(%q) = %q, %v", tt.in, p, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Parse(%q) = %q, %v; want an error containing %q", tt.in, p, err, tt.wantErr)
			}
		})
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParse of a bad pattern did not panic")
		}
	}()
	MustParse("read:../x")
}
