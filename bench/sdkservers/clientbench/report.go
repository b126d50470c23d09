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
// each round, with the verdict on the targets. With the wire floor among
// libs it adds the columns mcpwire ÷ wire and wire ÷ the better other;
// with mcpload's figures (loads, one per round, zero where it failed) the
// ratio of mcpwire's concurrent calls/s to mcpload's.
func report(w io.Writer, tr string, libs []library, results []map[string]figures, loads []loadFigures) {
	fmt.Fprintf(w, "== %s\n", tr)
	var rev []string
	for _, l := range libs {
		if f, ok := results[0][l.name]; ok {
			rev = append(rev, l.name+" "+f.revision)
		}
	}
	fmt.Fprintf(w, "revisions: %s\n\n", strings.Join(rev, ", "))
	columns := []column{{"mcpwire ÷ better other (each round)", of("mcpwire"), betterOther(libs)}}
	floor := ""
	for _, l := range libs {
		if l.floor {
			floor = l.name
			columns = append(columns,
				column{"mcpwire ÷ " + floor, of("mcpwire"), of(floor)},
				column{floor + " ÷ better other", of(floor), betterOther(libs)})
		}
	}
	fmt.Fprintf(w, "| figure |")
	for _, l := range libs {
		fmt.Fprintf(w, " %s |", l.name)
	}
	for _, c := range columns {
		fmt.Fprintf(w, " %s |", c.title)
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(libs)+len(columns)))
	ratios := map[string]map[string]float64{}
	for _, c := range columns {
		ratios[c.title] = map[string]float64{}
	}
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
		for _, c := range columns {
			g, each := paired(m, results, c.num, c.den)
			ratios[c.title][m.name] = g
			fmt.Fprintf(w, " %s |", ratioCell(g, each))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	load := math.NaN()
	if len(loads) > 0 {
		load = reportLoad(w, results, loads, floor)
	}
	targets(w, tr, ratios[columns[0].title], load)
	if floor != "" {
		fr := ratios[columns[2].title]
		fmt.Fprintf(w, "floor: %s ÷ better other: concurrent calls/s %.2f×, sequential calls/s %.2f×, sequential p50 %.2f×; mcpwire ÷ %s: concurrent calls/s %.2f×\n",
			floor, fr["concurrent calls/s"], fr["sequential calls/s"], fr["sequential p50 µs"], floor, ratios[columns[1].title]["concurrent calls/s"])
	}
}

// reportLoad prints mcpload's median figures and mcpwire's concurrent
// calls/s ÷ mcpload's, paired within each round (and the floor's, when
// floor names it), and returns mcpwire's ratio's geometric mean (NaN
// without a pair).
func reportLoad(w io.Writer, results []map[string]figures, loads []loadFigures, floor string) float64 {
	var rates, p50s, each, floorEach []float64
	for r, l := range loads {
		if l.concRate == 0 {
			continue
		}
		rates = append(rates, l.concRate)
		p50s = append(p50s, µs(l.concP50))
		if f, ok := results[r]["mcpwire"]; ok {
			each = append(each, f.concRate/l.concRate)
		}
		if f, ok := results[r][floor]; ok && floor != "" {
			floorEach = append(floorEach, f.concRate/l.concRate)
		}
	}
	g := geomean(each)
	fmt.Fprintf(w, "mcpload (conc phase, its own HTTP/1.1 client, one connection per caller): concurrent calls/s %s, concurrent p50 µs %s; mcpwire ÷ mcpload: %s",
		format(medianOf(rates)), format(medianOf(p50s)), ratioCell(g, each))
	if len(floorEach) > 0 {
		fmt.Fprintf(w, "; %s ÷ mcpload: %s", floor, ratioCell(geomean(floorEach), floorEach))
	}
	fmt.Fprintln(w)
	return g
}

// column is a ratio column of the table: num's figure ÷ den's, per round.
type column struct {
	title    string
	num, den figureOf
}

// figureOf picks one figure of a round, or reports that the round has
// none.
type figureOf func(m metric, round map[string]figures) (float64, bool)

// of picks the figure of the client named.
func of(name string) figureOf {
	return func(m metric, round map[string]figures) (float64, bool) {
		f, ok := round[name]
		if !ok {
			return 0, false
		}
		return m.value(f), true
	}
}

// betterOther picks the better figure of the other libraries' clients:
// neither mcpwire nor a variant of it, nor the floor.
func betterOther(libs []library) figureOf {
	return func(m metric, round map[string]figures) (float64, bool) {
		best, found := 0.0, false
		for _, l := range libs {
			f, ok := round[l.name]
			if !ok || l.floor || strings.HasPrefix(l.name, "mcpwire") {
				continue
			}
			v := m.value(f)
			if !found || (m.higher && v > best) || (!m.higher && v < best) {
				best, found = v, true
			}
		}
		return best, found
	}
}

// paired returns, for each round with both figures, num's ÷ den's, and
// their geometric mean (NaN without a round).
func paired(m metric, results []map[string]figures, num, den figureOf) (float64, []float64) {
	var each []float64
	for _, r := range results {
		a, ok := num(m, r)
		b, ok2 := den(m, r)
		if ok && ok2 && b > 0 {
			each = append(each, a/b)
		}
	}
	return geomean(each), each
}

// geomean returns the geometric mean of x, NaN when x is empty.
func geomean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, v := range x {
		sum += math.Log(v)
	}
	return math.Exp(sum / float64(len(x)))
}

// ratioCell formats a geometric mean and the rounds' ratios, or nothing
// without a round.
func ratioCell(g float64, each []float64) string {
	if len(each) == 0 {
		return ""
	}
	parts := make([]string, len(each))
	for i, x := range each {
		parts[i] = fmt.Sprintf("%.2f", x)
	}
	return fmt.Sprintf("**%.2f×** (%s)", g, strings.Join(parts, ", "))
}

// targets prints the targets for tr and whether the ratios to the
// better other meet them. Over HTTP, with load (mcpwire ÷ mcpload, NaN
// when mcpload was not run), the concurrent target is 1.5× the better
// other or 0.9× mcpload, whichever is lower: meeting either meets it.
func targets(w io.Writer, tr string, ratios map[string]float64, load float64) {
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
		alt := ""
		if tr == "http" && !math.IsNaN(load) {
			// The two bounds as multiples of mcpwire's own rate: the
			// lower one is the one that counts.
			lower, need := "1.5× the better other's", t.bound/r
			if 0.9/load < need {
				lower, need = "0.9× mcpload's", 0.9/load
			}
			alt = fmt.Sprintf(" or ≥ 0.9× mcpload's: %.2f×; whichever is lower, here %s (%.2f× mcpwire's rate)", load, lower, need)
			met = met || load >= 0.9
		}
		verdict := "NOT MET"
		if met {
			verdict = "met"
		}
		if math.IsNaN(r) {
			verdict = "no figures"
		}
		fmt.Fprintf(w, "target %s: %s %s %.2g× the better other: %.2f×%s, %s\n", tr, t.metric, cmp, t.bound, r, alt, verdict)
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
