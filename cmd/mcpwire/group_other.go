//go:build !unix

package main

import "os/exec"

// ownGroup does nothing where process groups are not available.
func ownGroup(*exec.Cmd) {}

// kill kills cmd.
func kill(cmd *exec.Cmd) error { return cmd.Process.Kill() }
