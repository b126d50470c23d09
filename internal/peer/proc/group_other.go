//go:build !unix

package proc

import (
	"errors"
	"os"
	"os/exec"
)

// ownGroup does nothing where there are no process groups.
func ownGroup(*exec.Cmd) {}

// terminate fails where there is no SIGTERM: Stop goes on to kill.
func terminate(*exec.Cmd) error { return errors.New("proc: no SIGTERM here") }

// kill kills cmd.
func kill(cmd *exec.Cmd) error { return cmd.Process.Kill() }

// signalOf reports no signal where processes are not ended by them.
func signalOf(*os.ProcessState) (int, bool) { return 0, false }
