package review

import (
	"testing"

	json "github.com/goccy/go-json"
)

var resourceCases = []ruleCase{
	{name: "not an object", rev: r3, desc: `"file:///a"`, rule: RuleDescriptor},
	{name: "uri missing", rev: r3, desc: `{"name":"a"}`, rule: RuleResourceURI, path: "/uri"},
	{name: "uri a number", rev: rM, desc: `{"uri":1,"name":"a"}`, rule: RuleResourceURI, path: "/uri"},
	{name: "uri relative", rev: r0, desc: `{"uri":"docs/readme.md","name":"a"}`, rule: RuleResourceURI, path: "/uri"},
	{name: "uri empty", rev: r2, desc: `{"uri":"","name":"a"}`, rule: RuleResourceURI, path: "/uri"},
	{name: "name missing", rev: r3, desc: `{"uri":"file:///a"}`, rule: RuleResourceName, path: "/name"},
	{name: "name empty", rev: r3, desc: `{"uri":"file:///a","name":""}`, rule: RuleResourceName, path: "/name"},
	{name: "name null", rev: r3, desc: `{"uri":"file:///a","name":null}`, rule: RuleResourceName, path: "/name"},
	{name: "title a number", rev: r2, desc: `{"uri":"file:///a","name":"a","title":1}`, rule: RuleFieldType, path: "/title"},
	{name: "mimeType an array", rev: r3, desc: `{"uri":"file:///a","name":"a","mimeType":["text/plain"]}`, rule: RuleFieldType, path: "/mimeType"},
	{name: "size negative", rev: r3, desc: `{"uri":"file:///a","name":"a","size":-5}`, rule: RuleFieldType, path: "/size"},
	{name: "annotations out of range", rev: r3, desc: `{"uri":"file:///a","name":"a","annotations":{"priority":1.5}}`, rule: RuleContentAnnotations, path: "/annotations"},
}

var templateCases = []ruleCase{
	{name: "not an object", rev: r3, desc: `[]`, rule: RuleDescriptor},
	{name: "uriTemplate missing", rev: r3, desc: `{"name":"a"}`, rule: RuleResourceTemplate, path: "/uriTemplate"},
	{name: "uriTemplate a number", rev: r3, desc: `{"uriTemplate":1,"name":"a"}`, rule: RuleResourceTemplate, path: "/uriTemplate"},
	{name: "uriTemplate unclosed", rev: rM, desc: `{"uriTemplate":"file:///{path","name":"a"}`, rule: RuleResourceTemplate, path: "/uriTemplate"},
	{name: "uriTemplate empty", rev: rM, desc: `{"uriTemplate":"","name":"a"}`, rule: RuleResourceTemplate, path: "/uriTemplate"},
	{name: "uriTemplate bad operator", rev: r3, desc: `{"uriTemplate":"test://{!x}","name":"a"}`, rule: RuleResourceTemplate, path: "/uriTemplate"},
	{name: "uriTemplate repeated variable", rev: r3, desc: `{"uriTemplate":"test://{x}/{x}","name":"a"}`, rule: RuleResourceTemplate, path: "/uriTemplate"},
	{name: "name missing", rev: r3, desc: `{"uriTemplate":"test://{x}"}`, rule: RuleResourceName, path: "/name"},
	{name: "description a number", rev: r3, desc: `{"uriTemplate":"test://{x}","name":"a","description":2}`, rule: RuleFieldType, path: "/description"},
}

var promptCases = []ruleCase{
	{name: "not an object", rev: r3, desc: `null`, rule: RuleDescriptor},
	{name: "name missing", rev: r3, desc: `{"description":"d"}`, rule: RulePromptName, path: "/name"},
	{name: "name empty", rev: r0, desc: `{"name":""}`, rule: RulePromptName, path: "/name"},
	{name: "name a number", rev: rM, desc: `{"name":3}`, rule: RulePromptName, path: "/name"},
	{name: "title a number", rev: r2, desc: `{"name":"p","title":3}`, rule: RuleFieldType, path: "/title"},
	{name: "arguments an object", rev: r3, desc: `{"name":"p","arguments":{"a":{}}}`, rule: RulePromptArguments, path: "/arguments"},
	{name: "arguments null", rev: r3, desc: `{"name":"p","arguments":null}`, rule: RulePromptArguments, path: "/arguments"},
	{name: "argument a string", rev: r3, desc: `{"name":"p","arguments":["a"]}`, rule: RulePromptArgument, path: "/arguments/0"},
	{name: "argument name missing", rev: r3, desc: `{"name":"p","arguments":[{"required":true}]}`, rule: RulePromptArgument, path: "/arguments/0/name"},
	{name: "argument name empty", rev: r3, desc: `{"name":"p","arguments":[{"name":""}]}`, rule: RulePromptArgument, path: "/arguments/0/name"},
	{name: "argument listed twice", rev: r3, desc: `{"name":"p","arguments":[{"name":"a"},{"name":"b"},{"name":"a"}]}`, rule: RulePromptArgument, path: "/arguments/2/name"},
	{name: "argument required a string", rev: r3, desc: `{"name":"p","arguments":[{"name":"a","required":"yes"}]}`, rule: RuleFieldType, path: "/arguments/0/required"},
	{name: "argument description a number", rev: r3, desc: `{"name":"p","arguments":[{"name":"a","description":1}]}`, rule: RuleFieldType, path: "/arguments/0/description"},
}

func TestResourceRules(t *testing.T) {
	for _, c := range resourceCases {
		t.Run(c.name, func(t *testing.T) { checkOne(t, Resource(c.rev, json.RawMessage(c.desc)), GateAdmit, c.rule, c.path) })
	}
}

func TestResourceTemplateRules(t *testing.T) {
	for _, c := range templateCases {
		t.Run(c.name, func(t *testing.T) {
			checkOne(t, ResourceTemplate(c.rev, json.RawMessage(c.desc)), GateAdmit, c.rule, c.path)
		})
	}
}

func TestPromptRules(t *testing.T) {
	for _, c := range promptCases {
		t.Run(c.name, func(t *testing.T) { checkOne(t, Prompt(c.rev, json.RawMessage(c.desc)), GateAdmit, c.rule, c.path) })
	}
}

func TestResourcesAndPromptsAdmitted(t *testing.T) {
	for _, rev := range revisions() {
		for _, d := range []string{
			`{"uri":"file:///a.txt","name":"a"}`,
			`{"uri":"https://example.com/x","name":"x","title":"X","description":"d","mimeType":"text/html","size":10,"annotations":{"audience":["user"],"priority":0.5},"icons":[],"_meta":{}}`,
			`{"uri":"test://static/resource/1","name":"Resource 1"}`,
		} {
			checkNone(t, Resource(rev, json.RawMessage(d)))
		}
		for _, d := range []string{
			`{"uriTemplate":"test://template/{id}/data","name":"t"}`,
			`{"uriTemplate":"file:///{+path}","name":"files","mimeType":"text/plain"}`,
			`{"uriTemplate":"https://example.com/search{?q,lang}","name":"search"}`,
			`{"uriTemplate":"test://static","name":"no variables"}`,
		} {
			checkNone(t, ResourceTemplate(rev, json.RawMessage(d)))
		}
		for _, d := range []string{
			`{"name":"p"}`,
			`{"name":"code review (v2)","title":"T","description":"d","arguments":[]}`,
			`{"name":"p","arguments":[{"name":"a","title":"A","description":"d","required":true},{"name":"b","required":false}]}`,
		} {
			checkNone(t, Prompt(rev, json.RawMessage(d)))
		}
	}
}
