package validate_test

import (
	"fmt"

	"github.com/kaptinlin/jsonschema"
	"github.com/mcpwire/mcpwire/validate"
)

func ExamplePathInside() {
	for _, p := range []string{"./notes/todo.txt", "/srv/data/a.csv", "a/../../etc/passwd", "/etc/passwd"} {
		rel, err := validate.PathInside("/srv/data", p)
		fmt.Printf("%q %v\n", rel, err)
	}
	// Output:
	// "notes/todo.txt" <nil>
	// "a.csv" <nil>
	// "" path "a/../../etc/passwd" climbs out of the root directory with ".."; give a path inside "/srv/data"
	// "" path "/etc/passwd" is outside the root directory "/srv/data"; give a path inside it, relative or absolute
}

func ExampleURL() {
	u, err := validate.URL("https://example.com/docs")
	fmt.Println(u.Host, err)
	_, err = validate.URL("javascript:alert(1)")
	fmt.Println(err)
	// Output:
	// example.com <nil>
	// URL "javascript:alert(1)" has scheme "javascript"; only "http", "https" are allowed
}

func ExampleSemVer() {
	fmt.Println(validate.SemVer("1.2.3-rc.1+build.5"))
	fmt.Println(validate.SemVer("v1.2.3"))
	fmt.Println(validate.SemVer("01.2.3"))
	// Output:
	// <nil>
	// version "v1.2.3" must not start with "v"; send "1.2.3"
	// version "01.2.3": major "01" has a leading zero
}

func ExampleRFC3339DateTime() {
	fmt.Println(validate.RFC3339DateTime("2016-12-31T23:59:60Z"))
	fmt.Println(validate.RFC3339DateTime("2023-02-29T10:00:00Z"))
	// Output:
	// <nil>
	// date-time "2023-02-29T10:00:00Z": day 29 does not exist; February 2023 has days 01 to 28
}

func ExampleRegisterFormats() {
	c := validate.RegisterFormats(jsonschema.NewCompiler()).SetAssertFormat(true)
	schema, err := c.Compile([]byte(`{"type": "string", "format": "semver"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(schema.Validate("1.0.0").IsValid(), schema.Validate("1.0").IsValid())
	// Output: true false
}

func ExampleFormats() {
	check := validate.Formats()["identifier"]
	fmt.Println(check("user_id"))
	fmt.Println(check("user-id"))
	// Output:
	// <nil>
	// identifier "user-id" contains '-'; use only ASCII letters, digits and underscores, starting with a letter or underscore
}
