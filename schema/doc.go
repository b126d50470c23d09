// Package schema infers JSON Schemas from Go types and compiles and
// validates JSON Schemas for MCP tools (inputSchema and outputSchema).
//
// # Inference
//
// [For] and [FromType] describe the JSON encoding of a Go type as a JSON
// Schema 2020-12 document (no "$schema" member unless [WithSchemaURI]):
//
//   - structs → {"type":"object","properties":{…},"required":[…],
//     "additionalProperties":false}. Member names, "-", omitempty, omitzero
//     and ",string" follow the json tag; unexported fields are skipped and
//     untagged embedded structs are flattened as encoding/json does. A
//     member is required unless it is a pointer, has omitempty or omitzero,
//     or is promoted through an embedded pointer; the required item of a
//     jsonschema tag makes it required in any case (see Struct tags). [AllowAdditional] leaves
//     out "additionalProperties": false.
//   - string → string; bool → boolean; integers narrower than 64 bits →
//     integer with the Go type's range as "minimum" and "maximum" (int8:
//     -128 and 127), so that the validator refuses what would not decode;
//     int and int64 → integer, and uint and uint64 → integer with
//     "minimum": 0 (their full range would be noise on every field;
//     package tool reports a value that does not fit in the same terms);
//     float32 → number within ±3.4028234663852886e+38; float64 → number;
//     []byte → string with "contentEncoding": "base64"; slices → array with items;
//     arrays [N]T → array with minItems = maxItems = N; maps whose keys are
//     strings or encoding.TextMarshaler values → object with
//     "additionalProperties": <value schema>; time.Time → string with
//     "format": "date-time"; json.Number → number; other
//     encoding.TextMarshaler types → string; json.RawMessage, interfaces
//     and other json.Marshaler types → {} (any value).
//   - pointers → their element's schema. Never a null union (clients reject
//     ["null", T], go-sdk#199) unless the field is tagged nullable.
//   - named types that refer back to themselves go to "$defs" and are
//     referenced with "$ref": "#/$defs/Name" ("#" for the root type); other
//     nested types are inlined. Properties follow field order and $defs
//     first use, so the output is byte-stable.
//   - chan, func, complex, unsafe.Pointer and maps with other keys
//     (integers among them) cannot be represented: inference fails with
//     an [*Error] naming the type and its path (such as
//     "main.Args.Events").
//
// [Members] lists a struct's JSON members by the same rules: it is the one
// wire model, by which package tool also encodes a typed handler's results
// (so that nil slices and maps, written [] and {}, and nil pointer
// members, left out, keep the schema) and decodes its arguments (by exact
// key), and by which it refuses at registration an argument type no call
// could fill.
//
// # Struct tags
//
// A field's property schema is refined by these tags:
//
//	description:"text"      sets "description".
//	jsonschema:"k=v,k=v"    comma-separated items:
//	    enum=a|b|c          values separated by '|', parsed in the field's type;
//	                        enum=a,enum=b (one value an item) adds them up
//	    minimum=N maximum=N exclusiveMinimum=N exclusiveMaximum=N
//	                        JSON numbers; integer and number fields only
//	    minLength=N maxLength=N   string fields only
//	    minItems=N maxItems=N     slice and array fields only
//	    format=F            string fields only
//	    default=V           see default below
//	    description=text    sets "description"
//	    required            the member is required, whatever its json tag
//	                        and type (see below)
//	    nullable            also accept null: "type": ["T","null"] (null is
//	                        added to enum; a "$ref" becomes an anyOf with null)
//	    pattern=REGEX       takes the rest of the tag as written, commas and
//	                        backslashes included, so it must come last
//	pattern:"REGEX"  format:"F"  default:"V"
//	                        the same keywords as tags of their own, for values
//	                        with commas.
//	jsonschema:"text"       with no "=" anywhere and a first item other than
//	                        required and nullable: the description, as
//	                        go-sdk writes it, so that its structs move over
//	                        unchanged.
//
// A comma inside a value (other than pattern's) is written \, and since a
// tag is a Go string literal its source doubles the backslash:
// jsonschema:"description=fast\\, cheap". A description tag, when given,
// wins over the jsonschema tag's description.
//
// The items are those of invopop/jsonschema's tags too, so that its structs
// move over unchanged as far as they use required, description, enum,
// minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength,
// maxLength, minItems, maxItems, format, pattern and default:
//
//	type Args struct {
//		City  *string `json:"city" jsonschema:"required,description=City name\\, or a zip code"`
//		Speed string  `json:"speed,omitempty" jsonschema:"required,enum=fast|slow"`
//		Units string  `json:"units,omitempty" jsonschema:"enum=metric,enum=imperial,default=metric"`
//	}
//
// Any other item is an error (invopop's title, example, oneof_required and
// the like among them) that names the accepted syntax; so is an item cut
// at a comma, with the repair: jsonschema:"enum=fast,slow" fails with
// `enum values are separated by "|": enum=fast|slow`.
//
// A member is required when its field is neither a pointer nor tagged
// omitempty or omitzero, nor promoted through an embedded pointer (see
// Inference), or when its jsonschema tag has the required item. That item
// is for arguments (a tool's inputSchema): a pointer or omitempty field
// tagged required must then be sent by the client. On a result type (an
// outputSchema), a required member that encoding leaves out — a nil
// pointer, an empty omitempty value — breaks the schema, so tag only
// members that are always written.
//
// A field without a json tag is named by its Go name, as encoding/json
// names it ("UserID"); tool.New warns about argument fields with neither a
// json nor a description tag, since that is rarely what was meant.
//
// On a slice or array field, the value keywords (enum, the bounds, lengths,
// pattern, format) apply to the items; minItems, maxItems and default apply
// to the array. A default is used as JSON when it is valid JSON of the
// field's type (or null on a nullable field), otherwise as a string for a
// string field; anything else is an error. Unknown keys and malformed values
// are errors.
//
// # Compilation and validation
//
// [Compile] checks a schema and compiles it with
// github.com/kaptinlin/jsonschema; the default dialect is 2020-12, "$schema"
// may select 2019-09, draft-07, draft-06 or draft-04, and no "$ref" is ever
// loaded from the network. [Schema.Validate] returns the violations, each a
// [Violation] with a JSON pointer into the instance, and [FormatViolations]
// renders them for a model, for example:
//
//	invalid arguments:
//	- (root): the required property "a" is missing (required)
//	- /b: 11 should be at most 10 (maximum)
//
// A message names the value as the client sent it and says what it should
// be, in JSON terms (`"one" should be an integer, not a string`, `"kelvin"
// should be one of "metric", "imperial"`); [TypeViolation] and
// [NewViolation] let other code word its own violations alike. Validate and FormatViolations give at most [MaxViolations]
// violations, then say how many more there are ("- … and 999980 more").
// Client input quoted in a violation — a key in a pointer, a value in a
// message — is clipped to its first 64 bytes and its length (package
// internal/clip), so a 12 MB instance gets a short answer.
//
// Schemas made only of the keywords tool input schemas usually use — type,
// enum, const, the numeric, string, array and object assertions,
// properties, required, additionalProperties, items (one schema), the
// annotations, and "$schema" naming 2020-12 — are compiled a second time
// into a validator that reads the instance's bytes directly: it finds
// exactly the rules the library finds broken, at the same pointers, and
// words them with the same function (except that both paths refuse
// an instance nested deeper than 1000 levels, the wire's limit, where the
// library alone would allow 10000), allocates nothing for a valid
// instance and never copies a long string. Any other keyword anywhere in
// the schema leaves validation to the library.
//
// [Schema.ApplyDefaults] fills in defaults of absent properties.
package schema
