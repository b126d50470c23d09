package review

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/uritemplate"
	"github.com/mcpwire/mcpwire/protocol"
)

// Resource reviews one resources/list descriptor (the specification's
// Resources page, "Resource"): an absolute uri, a name, and the optional
// members' types (title, description, mimeType, size, annotations). It
// returns nil when the resource is admitted.
func Resource(revision string, descriptor json.RawMessage) []Problem {
	rep, d, ok := resourceLike(revision, descriptor, "resource", RuleResourceURI, "uri", func(rep *report, uri string) {
		if !isAbsoluteURI(uri) {
			rep.add(RuleResourceURI, "/uri", "uri %s is not an absolute URI (it needs a scheme, such as file: or https:)", quoted(uri))
		}
	})
	if ok {
		size(rep, "", d, "size")
	}
	return rep.list
}

// ResourceTemplate reviews one resources/templates/list descriptor: a
// uriTemplate that parses as an RFC 6570 template (by the rules the server
// matches with, package uritemplate), a name, and the optional members'
// types. It returns nil when the template is admitted.
func ResourceTemplate(revision string, descriptor json.RawMessage) []Problem {
	rep, _, _ := resourceLike(revision, descriptor, "resource template", RuleResourceTemplate, "uriTemplate", func(rep *report, tmpl string) {
		if _, err := uritemplate.Parse(tmpl); err != nil {
			rep.add(RuleResourceTemplate, "/uriTemplate", "uriTemplate is not an RFC 6570 URI template: %v", err)
		}
	})
	return rep.list
}

// resourceLike reviews what a resource and a template descriptor (what)
// share: after start, the required string member key (the uri, the
// uriTemplate), reported under rule when it is missing or not a string and
// else judged by check, then resourceFields. It returns the report, the
// members, and false when the review stopped at start.
func resourceLike(revision string, descriptor json.RawMessage, what, rule, key string, check func(rep *report, s string)) (*report, members, bool) {
	rep, _, d, ok := start(revision, descriptor, what)
	if !ok {
		return rep, nil, false
	}
	v, ok := d[key]
	s, isStr := text(v)
	switch {
	case !ok:
		rep.add(rule, at("", key), "the %s has no %s", what, key)
	case !isStr:
		rep.add(rule, at("", key), "%s must be a string, not %s", key, kind(v))
	default:
		check(rep, s)
	}
	resourceFields(rep, d)
	return rep, d, true
}

// start checks the revision and decodes the descriptor of what: the
// admit gate's report, the revision, the descriptor's members, and false
// (with the problem reported) when the review cannot go on.
func start(revision string, descriptor json.RawMessage, what string) (*report, protocol.Revision, members, bool) {
	rep := &report{gate: GateAdmit}
	r, ok := rep.known(revision)
	if !ok {
		return rep, r, nil, false
	}
	d, ok := object(descriptor)
	if !ok {
		rep.add(RuleDescriptor, "", "the %s descriptor is not a JSON object", what)
	}
	return rep, r, d, ok
}

// resourceFields checks what resources and templates share: a non-empty
// name, and optional strings and annotations.
func resourceFields(rep *report, d members) {
	if name, ok := required(rep, RuleResourceName, "", d, "name"); ok && name == "" {
		rep.add(RuleResourceName, "/name", "name is empty")
	}
	optionalStrings(rep, "", d, "title", "description", "mimeType")
	annotations(rep, "", d)
}
