package schema

import (
	"regexp"
	"strings"
	"testing"
)

// bigExponent matches the numbers whose exact decimal form the library
// computes in quadratic time (jsonschema.FormatRat) for the parameters of
// its errors.
var bigExponent = regexp.MustCompile(`[eE][-+]?0*[0-9]{4}`)

// FuzzFastPathAgrees feeds arbitrary bytes as instances of the table
// schemas and requires both paths to find the same rules broken at the
// same places (see assertAgree).
func FuzzFastPathAgrees(f *testing.F) {
	schemas := make([]*Schema, len(agreeSchemas))
	for i, raw := range agreeSchemas {
		s, err := Compile([]byte(raw))
		if err != nil || s.fast == nil {
			f.Fatalf("Compile(%s) = %v, fast path %v", raw, err, s != nil && s.fast != nil)
		}
		schemas[i] = s
	}
	for i, in := range agreeInstances {
		f.Add(uint8(i), []byte(in))
	}
	f.Fuzz(func(t *testing.T, which uint8, instance []byte) {
		if bigExponent.Match(instance) {
			t.Skip() // the library takes minutes to print such numbers
		}
		i := int(which) % len(schemas)
		assertAgree(t, agreeSchemas[i], schemas[i], instance)
	})
}

// FuzzFastPathSchemas builds a schema of the subset and a valid JSON
// instance from the fuzzer's bytes and requires both paths to agree on
// the verdict, the pointers and the keywords.
func FuzzFastPathSchemas(f *testing.F) {
	f.Add([]byte{1, 0}, []byte{5, 1, 2})
	f.Add([]byte{26, 27, 3, 0, 28, 0}, []byte{6, 3, 1, 2, 7, 9})
	f.Add([]byte{21, 5, 9, 0, 24, 23, 0}, []byte{6, 4, 4, 4, 4})
	f.Add([]byte{25, 2, 17, 0, 30, 12}, []byte{7, 3, 0, 2, 1, 3, 2, 4})
	f.Add([]byte{14, 15, 16, 11, 12, 13}, []byte{3, 9, 3, 15})
	f.Add([]byte{8, 9, 10, 7}, []byte{7, 1, 0, 2, 6, 3})
	f.Fuzz(func(t *testing.T, schemaBytes, instanceBytes []byte) {
		raw := (&schemaGen{data: schemaBytes}).schema(0)
		s, err := Compile([]byte(raw))
		if err != nil {
			t.Skip() // a combination the library refuses
		}
		if s.fast == nil {
			t.Fatalf("no fast path for %s", raw)
		}
		in := (&instanceGen{data: instanceBytes}).value(0)
		assertAgree(t, raw, s, []byte(in))
	})
}

// schemaFragments are the keywords the schema generator picks from; SUB
// stands for a generated subschema.
var schemaFragments = []string{
	`"type":"string"`, `"type":"integer"`, `"type":["number","null"]`, `"type":"object"`,
	`"type":"array"`, `"type":"boolean"`, `"type":["string","integer","array"]`,
	`"enum":[1,"a",null,[1],{"a":1},2.50]`, `"const":1`, `"const":"a"`, `"const":{"a":[1.0]}`,
	`"minimum":0`, `"maximum":2.5`, `"exclusiveMinimum":-1`, `"exclusiveMaximum":1e3`,
	`"multipleOf":0.5`, `"multipleOf":7`, `"minLength":1`, `"maxLength":2`,
	`"pattern":"^a"`, `"pattern":"[0-9]|é"`, `"items":SUB`, `"items":false`,
	`"minItems":1`, `"maxItems":2`, `"uniqueItems":true`,
	`"properties":{"a":SUB,"b":SUB,"a/b":SUB}`, `"required":["a","c"]`,
	`"additionalProperties":false`, `"additionalProperties":SUB`,
	`"minProperties":1`, `"maxProperties":2`, `"description":"d"`, `"default":3`,
}

type schemaGen struct {
	data []byte
	i    int
}

func (g *schemaGen) next() (byte, bool) {
	if g.i >= len(g.data) {
		return 0, false
	}
	g.i++
	return g.data[g.i-1], true
}

// schema reads keyword choices until a zero byte or the end; a SUB in a
// chosen keyword reads a nested schema.
func (g *schemaGen) schema(depth int) string {
	b, ok := g.next()
	switch {
	case !ok:
		return "{}"
	case b == 255:
		return "true"
	case b == 254:
		return "false"
	}
	g.i--
	seen := map[string]bool{}
	var members []string
	for {
		b, ok := g.next()
		if !ok || b == 0 || len(members) >= 6 {
			break
		}
		frag := schemaFragments[int(b)%len(schemaFragments)]
		name, _, _ := strings.Cut(frag, ":")
		if seen[name] {
			continue
		}
		seen[name] = true
		for strings.Contains(frag, "SUB") {
			sub := "{}"
			if depth < 3 {
				sub = g.schema(depth + 1)
			}
			frag = strings.Replace(frag, "SUB", sub, 1)
		}
		members = append(members, frag)
	}
	return "{" + strings.Join(members, ",") + "}"
}

var (
	genNumbers = []string{"0", "-0", "1", "1.0", "1.5", "2.5", "-1", "1e2", "1e-2", "0.5", "7", "14",
		"1e400", "1e1000001", "3.0e0", "-2.5e0", "10e-1", "0.01", "1000", "1E3", "-1.5", "2"}
	genStrings = []string{`""`, `"a"`, `"ab"`, `"abc"`, `"é"`, `"\u00e9"`, `"1"`, `"a1"`, `"\ud83d\ude00"`,
		`"{expected}"`, `"a/b"`, `"\u0061"`}
	genKeys = []string{`"a"`, `"b"`, `"c"`, `"a/b"`, `""`, `"d~"`, `"\u0062"`}
)

type instanceGen struct {
	data []byte
	i    int
}

func (g *instanceGen) next() byte {
	if g.i >= len(g.data) {
		return 0
	}
	g.i++
	return g.data[g.i-1]
}

// value generates a JSON value; object keys are never repeated.
func (g *instanceGen) value(depth int) string {
	b := g.next()
	switch k := b % 8; {
	case k == 0:
		return "null"
	case k == 1:
		return "true"
	case k == 2:
		return "false"
	case k == 3:
		return genNumbers[int(g.next())%len(genNumbers)]
	case k == 4:
		return genStrings[int(g.next())%len(genStrings)]
	case k == 5 || depth >= 4:
		return "[]"
	case k == 6:
		n := int(g.next() % 5)
		elems := make([]string, n)
		for i := range elems {
			elems[i] = g.value(depth + 1)
		}
		return "[" + strings.Join(elems, ",") + "]"
	}
	n := int(g.next() % 5)
	used := map[string]bool{}
	var members []string
	for range n {
		key := genKeys[int(g.next())%len(genKeys)]
		if used[key] || (key == `"\u0062"` && used[`"b"`]) || (key == `"b"` && used[`"\u0062"`]) {
			continue
		}
		used[key] = true
		members = append(members, key+":"+g.value(depth+1))
	}
	return "{" + strings.Join(members, ",") + "}"
}
