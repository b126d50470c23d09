package envconfig

import (
	"fmt"
)

// Load fills the struct that dst points to from environment variables, as
// described in the package documentation.
//
// It returns an [*Error] listing every missing or malformed variable, or a
// plain error when dst is not a non-nil pointer to a struct. Fields whose
// variables were fine are filled even when other fields had problems.
func Load(dst any, opts ...Option) error {
	v, ok := structValue(dst)
	if !ok {
		return fmt.Errorf("envconfig: Load needs a non-nil pointer to a struct, got %T", dst)
	}
	o := newOptions(opts)
	var problems []Problem
	for _, f := range collectFields(v, o.prefix) {
		if reason := loadField(f, o.lookup); reason != "" {
			problems = append(problems, Problem{Var: f.name, Reason: reason})
		}
	}
	if len(problems) > 0 {
		return &Error{Problems: problems}
	}
	return nil
}

// loadField sets one field from its variable or default and returns the
// reason it could not, or "" on success or when there was nothing to set.
func loadField(f field, lookup func(string) (string, bool)) string {
	raw, ok := lookup(f.name)
	fromDefault := false
	if !ok || raw == "" {
		if !f.hasDef {
			if f.required {
				return "required but not set"
			}
			return ""
		}
		raw, fromDefault = f.def, true
	}
	err := setValue(f.value, raw, f.sep)
	if err == nil {
		return ""
	}
	reason := err.Error()
	if f.secret {
		if _, unsupported := err.(unsupportedError); !unsupported {
			reason = "invalid value (redacted)"
		}
	}
	if fromDefault {
		reason += " (from the default tag)"
	}
	return reason
}
