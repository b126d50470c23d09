package validate

import (
	"fmt"
	"strings"
)

// SemVer checks that s is a version as defined by Semantic Versioning 2.0.0:
// MAJOR.MINOR.PATCH, each a number without leading zeros, optionally
// followed by "-" and dot-separated pre-release identifiers and by "+" and
// dot-separated build identifiers (for example "1.2.3-rc.1+build.5").
// A leading "v" ("v1.2.3") is refused, as the specification does not allow
// it; the error says which string to send instead.
func SemVer(s string) error {
	if s == "" {
		return fmt.Errorf(`version is empty; give MAJOR.MINOR.PATCH, such as "1.0.0"`)
	}
	if s[0] == 'v' || s[0] == 'V' {
		if SemVer(s[1:]) == nil {
			return fmt.Errorf("version %q must not start with %q; send %q", s, s[:1], s[1:])
		}
	}
	rest, build, hasBuild := strings.Cut(s, "+")
	core, pre, hasPre := strings.Cut(rest, "-")
	nums := strings.Split(core, ".")
	if len(nums) != 3 {
		return fmt.Errorf("version %q must start with three numbers MAJOR.MINOR.PATCH, such as \"1.0.0\"", s)
	}
	for i, n := range nums {
		if err := semverNumber(n); err != nil {
			return fmt.Errorf("version %q: %s %v", s, [...]string{"major", "minor", "patch"}[i], err)
		}
	}
	if hasPre {
		if err := semverIdents(pre, true); err != nil {
			return fmt.Errorf("version %q: pre-release %v", s, err)
		}
	}
	if hasBuild {
		if err := semverIdents(build, false); err != nil {
			return fmt.Errorf("version %q: build metadata %v", s, err)
		}
	}
	return nil
}

// semverNumber checks a numeric identifier: digits, no leading zero.
func semverNumber(n string) error {
	if n == "" || strings.Trim(n, "0123456789") != "" {
		return fmt.Errorf("%q is not a number", n)
	}
	if len(n) > 1 && n[0] == '0' {
		return fmt.Errorf("%q has a leading zero", n)
	}
	return nil
}

// semverIdents checks a dot-separated list of identifiers made of ASCII
// letters, digits and hyphens. In pre-release lists, purely numeric
// identifiers must not have leading zeros.
func semverIdents(list string, numericNoLeadingZero bool) error {
	for id := range strings.SplitSeq(list, ".") {
		if id == "" {
			return fmt.Errorf("%q has an empty identifier", list)
		}
		if strings.Trim(id, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-") != "" {
			return fmt.Errorf("identifier %q may contain only ASCII letters, digits and hyphens", id)
		}
		numeric := strings.Trim(id, "0123456789") == ""
		if numericNoLeadingZero && numeric && len(id) > 1 && id[0] == '0' {
			return fmt.Errorf("identifier %q has a leading zero", id)
		}
	}
	return nil
}
