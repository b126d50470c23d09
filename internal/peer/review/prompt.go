package review

import (
	json "github.com/goccy/go-json"
)

// Prompt reviews one prompts/list descriptor (the specification's Server
// Features, Prompts): a non-empty name, optional title and description
// strings, and arguments, when present, an array of objects each with a
// non-empty name used once, a boolean required, and optional title and
// description strings. It returns nil when the prompt is admitted.
//
// The name is not held to the tool name rule: the specification sets no
// character rule for prompt names (our server applies the tool rule to its
// own prompts, which is stricter than a client needs).
func Prompt(revision string, descriptor json.RawMessage) []Problem {
	rep, _, d, ok := start(revision, descriptor, "prompt")
	if !ok {
		return rep.list
	}
	if name, ok := required(rep, RulePromptName, "", d, "name"); ok && name == "" {
		rep.add(RulePromptName, "/name", "name is empty")
	}
	optionalStrings(rep, "", d, "title", "description")
	raw, ok := d["arguments"]
	if !ok {
		return rep.list
	}
	args, ok := array(raw)
	if !ok {
		rep.add(RulePromptArguments, "/arguments", "arguments must be an array, not %s", kind(raw))
		return rep.list
	}
	seen := map[string]bool{}
	for i, a := range args {
		promptArgument(rep, at("/arguments", index(i)), a, seen)
	}
	return rep.list
}

// promptArgument checks one argument of a prompt; seen holds the names of
// the arguments before it.
func promptArgument(rep *report, path string, raw json.RawMessage, seen map[string]bool) {
	a, ok := object(raw)
	if !ok {
		rep.add(RulePromptArgument, path, "a prompt argument must be an object, not %s", kind(raw))
		return
	}
	name, ok := required(rep, RulePromptArgument, path, a, "name")
	switch {
	case !ok:
	case name == "":
		rep.add(RulePromptArgument, at(path, "name"), "the argument's name is empty")
	case seen[name]:
		rep.add(RulePromptArgument, at(path, "name"), "argument %s is listed twice", quoted(name))
	}
	seen[name] = true
	optionalStrings(rep, path, a, "title", "description")
	if v, ok := a["required"]; ok && kind(v) != "boolean" {
		rep.add(RuleFieldType, at(path, "required"), "required must be a boolean, not %s", kind(v))
	}
}
