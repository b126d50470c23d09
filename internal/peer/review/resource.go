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
	rep, _, d, ok := start(revision, descriptor, "resource")
	if !ok {
		return rep.list
	}
	v, ok := d["uri"]
	uri, isStr := text(v)
	switch {
	case !ok:
		rep.add(RuleResourceURI, "/uri", "the resource has no uri")
	case !isStr:
		rep.add(RuleResourceURI, "/uri", "uri must be a string, not %s", kind(v))
	case !isAbsoluteURI(uri):
		rep.add(RuleResourceURI, "/uri", "uri %s is not an absolute URI (it needs a scheme, such as file: or https:)", quoted(uri))
	}
	resourceFields(rep, d)
	size(rep, "", d, "size")
	return rep.list
}

// ResourceTemplate reviews one resources/templates/list descriptor: a
// uriTemplate that parses as an RFC 6570 template (by the rules the server
// matches with, package uritemplate), a name, and the optional members'
// types. It returns nil when the template is admitted.
func ResourceTemplate(revision string, descriptor json.RawMessage) []Problem {
	rep, _, d, ok := start(revision, descriptor, "resource template")
	if !ok {
		return rep.list
	}
	v, ok := d["uriTemplate"]
	tmpl, isStr := text(v)
	switch {
	case !ok:
		rep.add(RuleResourceTemplate, "/uriTemplate", "the resource template has no uriTemplate")
	case !isStr:
		rep.add(RuleResourceTemplate, "/uriTemplate", "uriTemplate must be a string, not %s", kind(v))
	default:
		if _, err := uritemplate.Parse(tmpl); err != nil {
			rep.add(RuleResourceTemplate, "/uriTemplate", "uriTemplate is not an RFC 6570 URI template: %v", err)
		}
	}
	resourceFields(rep, d)
	return rep.list
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
