package validate

import "fmt"

// Identifier checks that s is an ASCII identifier: a letter or underscore
// followed by letters, digits and underscores (the regular expression
// ^[A-Za-z_][A-Za-z0-9_]*$). Non-ASCII letters are refused on purpose, so
// that identifiers are safe as names in most languages, file names and
// environment variables.
func Identifier(s string) error {
	if s == "" {
		return fmt.Errorf("identifier is empty; use letters, digits and underscores, starting with a letter or underscore")
	}
	for i, r := range s {
		ok := r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9'
		if ok {
			continue
		}
		if i == 0 && '0' <= r && r <= '9' {
			return fmt.Errorf("identifier %q starts with a digit; it must start with a letter or underscore", s)
		}
		return fmt.Errorf("identifier %q contains %q; use only ASCII letters, digits and underscores, starting with a letter or underscore", s, r)
	}
	return nil
}
