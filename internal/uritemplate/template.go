package uritemplate

import (
	"regexp"
	"slices"
	"strconv"

	"github.com/mcpwire/mcpwire/internal/clip"
)

// MaxTemplateLength is the longest template, in bytes, that Parse accepts.
const MaxTemplateLength = 1024

// MaxVars is the most variables a template may name. It bounds the work of
// one Match, which grows with the uri's length times the template's size.
const MaxVars = 16

// MaxURILength is the longest uri, in bytes, that Match accepts; a longer
// uri matches no template.
const MaxURILength = 64 << 10

// A Template is a parsed URI template. It is immutable and safe for
// concurrent use.
type Template struct {
	raw   string
	parts []part
	vars  []string
	re    *regexp.Regexp
	caps  []capture
}

// part is a literal (expr == nil) or an expression of a template.
type part struct {
	lit  string
	expr *expression
}

// expression is one {…} of a template.
type expression struct {
	op   *operator
	vars []varspec
	// comp is the component of the uri the expression is in.
	comp component
}

// varspec is one variable of an expression.
type varspec struct {
	name    string
	prefix  int // the :n modifier; 0 if none
	explode bool
}

// component is the part of a uri an expression is in, as the template's
// literals and operators place it: before the query, in the query, or in
// the fragment.
type component int

const (
	inPath component = iota
	inQuery
	inFragment
)

// operator is the expansion behaviour of an expression's operator (RFC
// 6570 appendix A).
type operator struct {
	char     byte   // the operator character; 0 for none
	first    string // written before the first defined variable
	sep      string // written between variables, and between exploded items
	named    bool   // variables are written name=value
	ifemp    string // written after the name of an empty value
	reserved bool   // reserved characters are allowed unencoded
	listSep  string // joins an exploded variable's items in its value
}

// operators maps an operator character (0 for none) to its behaviour.
var operators = map[byte]*operator{
	0:   {0, "", ",", false, "", false, ","},
	'+': {'+', "", ",", false, "", true, ","},
	'#': {'#', "#", ",", false, "", true, ","},
	'.': {'.', ".", ".", false, "", false, "."},
	'/': {'/', "/", "/", false, "", false, "/"},
	';': {';', ";", ";", true, "", false, ","},
	'?': {'?', "?", "&", true, "=", false, ","},
	'&': {'&', "&", "&", true, "=", false, ","},
}

// A ParseError is a template Parse refused, with the byte offset of the
// problem.
type ParseError struct {
	// Template is the template as given to Parse.
	Template string
	// Offset is the byte offset in Template of the problem, or -1 when the
	// problem is the template as a whole.
	Offset int
	// Msg says what is wrong.
	Msg string
}

// Error returns the message, with the template quoted (cut when long):
//
//	uri template "a{b": unclosed expression at byte 1
func (e *ParseError) Error() string {
	s := "uri template " + clip.Quote(e.Template) + ": " + e.Msg
	if e.Offset >= 0 {
		s += " at byte " + strconv.Itoa(e.Offset)
	}
	return s
}

// Parse parses and validates a URI template: RFC 6570 level 4 syntax
// (section 2), no longer than MaxTemplateLength bytes, not empty, naming
// at most MaxVars variables and none twice. Its error is a *ParseError.
func Parse(s string) (*Template, error) {
	p := &parser{s: s}
	if err := p.parse(); err != nil {
		return nil, err
	}
	t := &Template{raw: s, parts: p.parts, vars: p.names}
	if err := t.compile(); err != nil {
		return nil, &ParseError{Template: s, Offset: -1, Msg: err.Error()}
	}
	return t, nil
}

// String returns the template as it was parsed.
func (t *Template) String() string { return t.raw }

// Vars returns the names of the template's variables in the order they
// appear. The slice is the caller's.
func (t *Template) Vars() []string { return slices.Clone(t.vars) }
