// Command relay is the floor of what a gateway in a process of its own
// costs (bench/run-gateway.sh): it forwards an MCP server's bytes and
// reads none of them, so what a call through it loses against a direct
// connection is the hop alone, the extra process and its pipes or
// sockets, which no gateway can avoid however little it does.
//
//	relay COMMAND [ARGS]                 stdio: COMMAND's stdin and stdout, copied both ways
//	relay COMMAND -http 127.0.0.1:0 ...  HTTP: COMMAND serves on a port of its own, and relay
//	                                     listens at the address given and copies each TCP
//	                                     connection's bytes to one of COMMAND's and back
//
// Over HTTP it waits for the first "listening on http://..." line on
// COMMAND's stderr, prints "relay: listening on URL" in its place (the URL
// mcpload waits for), and ends COMMAND when it gets SIGTERM or SIGINT.
package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: relay COMMAND [ARGS] (with -http ADDR among ARGS: over HTTP)")
		os.Exit(2)
	}
	args := os.Args[1:]
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "-http" {
			os.Exit(relayHTTP(args, args[i+1]))
		}
	}
	os.Exit(relayStdio(args))
}

// relayStdio runs the command with its stdin and stdout copied to and
// from the relay's.
func relayStdio(args []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return fail(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fail(err)
	}
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	go func() {
		io.Copy(in, os.Stdin)
		in.Close() // the client ended: so does the server
	}()
	io.Copy(os.Stdout, out)
	cmd.Wait()
	return 0
}

var listening = regexp.MustCompile(`listening on (http://\S+)`)

// relayHTTP runs the command on a loopback port of its own and serves
// addr in front of it.
func relayHTTP(args []string, addr string) int {
	upArgs := append([]string(nil), args...)
	for i := range upArgs {
		if upArgs[i] == "-http" {
			upArgs[i+1] = "127.0.0.1:0"
		}
	}
	cmd := exec.Command(upArgs[0], upArgs[1:]...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return fail(err)
	}
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
				continue // the client is to find the relay's URL, not this one
			}
			fmt.Fprintln(os.Stderr, sc.Text())
		}
	}()
	var target string
	select {
	case target = <-found:
	case <-time.After(30 * time.Second):
		return fail(fmt.Errorf("%s printed no URL in 30 s", upArgs[0]))
	}
	u, err := url.Parse(target)
	if err != nil {
		return fail(err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fail(err)
	}
	front := *u
	front.Host = ln.Addr().String()
	fmt.Fprintf(os.Stderr, "relay: listening on %s\n", front.String())
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go forward(c, u.Host)
		}
	}()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	<-sig
	ln.Close()
	return 0
}

// forward copies c's bytes to a new connection to host and back, until
// either side closes.
func forward(c net.Conn, host string) {
	defer c.Close()
	up, err := net.Dial("tcp", host)
	if err != nil {
		return
	}
	defer up.Close()
	done := make(chan struct{})
	go func() {
		io.Copy(up, c)
		up.(*net.TCPConn).CloseWrite()
		close(done)
	}()
	io.Copy(c, up)
	c.(*net.TCPConn).CloseWrite()
	<-done
}

func fail(err error) int {
	fmt.Fprintln(os.Stderr, "relay:", err)
	return 1
}
