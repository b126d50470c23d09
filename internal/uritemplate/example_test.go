package uritemplate_test

import (
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/internal/uritemplate"
)

// A server registers templates and serves resources/read from the first
// one that matches the uri.
func Example() {
	var templates []*uritemplate.Template
	for _, s := range []string{"test://template/{id}/data", "file:///{+path}", "test://search{?q,limit}"} {
		t, err := uritemplate.Parse(s)
		if err != nil {
			panic(err)
		}
		templates = append(templates, t)
	}
	read := func(uri string) {
		for _, t := range templates {
			if vals, ok := t.Match(uri); ok {
				fmt.Printf("%s: %s %q\n", uri, t, vals)
				return
			}
		}
		fmt.Printf("%s: no template\n", uri)
	}
	read("test://template/42/data")
	read("test://template/a%2Fb/data") // the value holds "/": the handler decides
	read("test://template/a/b/data")
	read("file:///home/me/notes%20v2.txt")
	read("file:///etc/passwd?x")
	read("test://search?limit=5&q=caf%C3%A9")
	// Output:
	// test://template/42/data: test://template/{id}/data map["id":"42"]
	// test://template/a%2Fb/data: test://template/{id}/data map["id":"a/b"]
	// test://template/a/b/data: no template
	// file:///home/me/notes%20v2.txt: file:///{+path} map["path":"home/me/notes v2.txt"]
	// file:///etc/passwd?x: no template
	// test://search?limit=5&q=caf%C3%A9: test://search{?q,limit} map["limit":"5" "q":"café"]
}

// Expand builds the uris a server lists in resources/list from its data;
// Match gives the values back.
func ExampleTemplate_Expand() {
	t, err := uritemplate.Parse("file:///{+path}{?rev}")
	if err != nil {
		panic(err)
	}
	uri, err := t.Expand(map[string]string{"path": "src/a b/c?.go", "rev": "v1.2"})
	if err != nil {
		panic(err)
	}
	vals, ok := t.Match(uri)
	fmt.Println(uri)
	fmt.Println(vals["path"], vals["rev"], ok)
	// Output:
	// file:///src/a%20b/c%3F.go?rev=v1.2
	// src/a b/c?.go v1.2 true
}

// A handler that wants one segment refuses a decoded "/": in the value of
// {id} it can only have come from %2F.
func ExampleTemplate_Match() {
	t, err := uritemplate.Parse("test://template/{id}/data")
	if err != nil {
		panic(err)
	}
	for _, uri := range []string{"test://template/x/data", "test://template/..%2Fsecret/data"} {
		vals, _ := t.Match(uri)
		if strings.Contains(vals["id"], "/") {
			fmt.Printf("%q: refused\n", vals["id"])
			continue
		}
		fmt.Printf("%q: ok\n", vals["id"])
	}
	// Output:
	// "x": ok
	// "../secret": refused
}
