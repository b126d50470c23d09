package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// metric is one column of figures and which way is better.
type metric struct {
	name   string
	higher bool // a higher value is better
	value  func(figures) float64
}

var metrics = []metric{
	{"sequential p50 µs", false, func(f figures) float64 { return µs(f.seqP50) }},
	{"sequential calls/s", true, func(f figures) float64 { return f.seqRate }},
	{"concurrent calls/s", true, func(f figures) float64 { return f.concRate }},
	{"concurrent p50 µs", false, func(f figures) float64 { return µs(f.concP50) }},
	{"allocs/call (sequential)", false, func(f figures) float64 { return f.allocs }},
	{"bytes/call (sequential)", false, func(f figures) float64 { return f.bytes }},
	{"CPU µs/call, sequential", false, func(f figures) float64 { return µs(f.cpuSeq) }},
	{"CPU µs/call, concurrent", false, func(f figures) float64 { return µs(f.cpuConc) }},
}

func µs(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// report prints, for the transport tr, each client's median figures over
// the rounds and mcpwire's ratio to the better of the others, paired within
// each round, with the verdict on the targets.
func report(w io.Writer, tr string, libs []library, results []map[string]figures) {
	fmt.Fprintf(w, "== %s\n", tr)
	var rev []string
	for _, l := range libs {
		if f, ok := results[0][l.name]; ok {
			rev = append(rev, l.name+" "+f.revision)
		}
	}
	fmt.Fprintf(w, "revisions: %s\n\n", strings.Join(rev, ", "))
	fmt.Fprintf(w, "| figure |")
	for _, l := range libs {
		fmt.Fprintf(w, " %s |", l.name)
	}
	fmt.Fprintf(w, " mcpwire ÷ better other (each round) |\n|---|")
	for range libs {
		fmt.Fprintf(w, "---|")
	}
	fmt.Fprintf(w, "---|\n")
	ratios := map[string]float64{}
	for _, m := range metrics {
		fmt.Fprintf(w, "| %s |", m.name)
		for _, l := range libs {
			var v []float64
			for _, r := range results {
				if f, ok := r[l.name]; ok {
					v = append(v, m.value(f))
				}
			}
			fmt.Fprintf(w, " %s |", format(medianOf(v)))
		}
		g, each := paired(m, libs, results)
		ratios[m.name] = g
		if len(each) == 0 {
			fmt.Fprintf(w, " |\n")
			continue
		}
		parts := make([]string, len(each))
		for i, x := range each {
			parts[i] = fmt.Sprintf("%.2f", x)
		}
		fmt.Fprintf(w, " **%.2f×** (%s) |\n", g, strings.Join(parts, ", "))
	}
	fmt.Fprintln(w)
	targets(w, tr, ratios)
}

// paired returns, for each round with mcpwire and another library's client
// (a variant of mcpwire's is not another), mcpwire's figure divided by the
// better other's of the same round, and their geometric mean.
func paired(m metric, libs []library, results []map[string]figures) (float64, []float64) {
	var each []float64
	for _, r := range results {
		mine, ok := r["mcpwire"]
		if !ok {
			continue
		}
		best, found := 0.0, false
		for _, l := range libs {
			f, ok := r[l.name]
			if strings.HasPrefix(l.name, "mcpwire") || !ok {
				continue
			}
			v := m.value(f)
			if !found || (m.higher && v > best) || (!m.higher && v < best) {
				best, found = v, true
			}
		}
		if found && best > 0 {
			each = append(each, m.value(mine)/best)
		}
	}
	if len(each) == 0 {
		return math.NaN(), nil
	}
	sum := 0.0
	for _, x := range each {
		sum += math.Log(x)
	}
	return math.Exp(sum / float64(len(each))), each
}

// targets prints the targets for tr and whether the ratios meet
// them.
func targets(w io.Writer, tr string, ratios map[string]float64) {
	type target struct {
		metric string
		higher bool
		bound  float64
	}
	var ts []target
	switch tr {
	case "stdio":
		ts = []target{{"concurrent calls/s", true, 3}, {"sequential p50 µs", false, 0.5}, {"allocs/call (sequential)", false, 0.5}}
	case "http":
		ts = []target{{"concurrent calls/s", true, 1.5}}
	}
	for _, t := range ts {
		r := ratios[t.metric]
		met := (t.higher && r >= t.bound) || (!t.higher && r <= t.bound)
		cmp := "≤"
		if t.higher {
			cmp = "≥"
		}
		verdict := "NOT MET"
		if met {
			verdict = "met"
		}
		if math.IsNaN(r) {
			verdict = "no figures"
		}
		fmt.Fprintf(w, "target %s: %s %s %.2g× the better other: %.2f×, %s\n", tr, t.metric, cmp, t.bound, r, verdict)
	}
}

func medianOf(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}

// format prints v with the precision its size needs.
func format(v float64) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case v >= 1000:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}
