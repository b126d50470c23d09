package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTicks is USER_HZ, the unit of utime and stime in /proc/<pid>/stat.
// Linux fixes it at 100 on every architecture Go supports.
const clockTicks = 100

// memStatus holds the memory figures of /proc/<pid>/status, in bytes.
type memStatus struct {
	RSS int64 // VmRSS: resident set size now
	HWM int64 // VmHWM: peak resident set size so far
}

// readMemStatus reads VmRSS and VmHWM of process pid.
func readMemStatus(pid int) (memStatus, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return memStatus{}, err
	}
	var st memStatus
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch key {
		case "VmRSS":
			st.RSS, err = parseKB(val)
		case "VmHWM":
			st.HWM, err = parseKB(val)
		}
		if err != nil {
			return memStatus{}, fmt.Errorf("/proc/%d/status %s: %w", pid, key, err)
		}
	}
	return st, nil
}

// parseKB parses a /proc/<pid>/status value such as "  1234 kB" into bytes.
func parseKB(s string) (int64, error) {
	num, _ := strings.CutSuffix(strings.TrimSpace(s), " kB")
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	return n * 1024, err
}

// readCPUTime returns the user plus system CPU time process pid has used.
func readCPUTime(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseStatCPU(string(data))
}

// parseStatCPU extracts utime+stime from the text of /proc/<pid>/stat. The
// command name (field 2) may hold spaces and parentheses, so fields are
// counted from the last ')'.
func parseStatCPU(stat string) (time.Duration, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("malformed stat line")
	}
	// After ')' come fields 3 (state) onwards; utime and stime are 14 and 15.
	fields := strings.Fields(stat[i+1:])
	if len(fields) < 13 {
		return 0, fmt.Errorf("stat line has %d fields after the name", len(fields))
	}
	var ticks int64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("stat cpu field %q: %w", f, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}
