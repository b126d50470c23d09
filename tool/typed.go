package tool

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"unsafe"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/natural"
	"github.com/mcpwire/mcpwire/schema"
)

// New builds a tool from a typed handler. The input schema is inferred
// from In and the output schema from Out with package schema (see
// schema.For for the struct tags it reads), unless WithInputSchema or
// WithOutputSchema gives one. A type that cannot be described is the
// tool's [Tool.Err], which registering the tool reports, together with
// every other descriptor problem (a bad name, a given schema that does not
// compile): one failure point, at registration, never at call time. So is
// an In type that no call could fill, with the field's path: an interface
// field other than any, a struct whose fields are all unexported
// (struct{} is the tool without arguments), a channel, a function or a
// complex number.
//
// Inferred schemas bound integer fields (and float32 ones) to their Go
// type's range, so the validator refuses what would overflow. At each call
// the arguments, already validated and with their defaults filled in, are
// decoded into In, and fn runs; should decoding still fail (a given input
// schema looser than In, 1e2 for an integer), the call gets an isError
// result that says why in JSON terms, like a violation list:
//
//	invalid arguments for tool add:
//	- /a: 1e2 should be written as an integer, without a fraction or an exponent (type)
//
// Keys are matched to members exactly, unlike Go's JSON decoding, which
// ignores case: a key that names a member only when case is ignored
// ("Text" for "text"), at any depth, is refused as an unknown property,
// in the same words whether the schema is strict, relaxed
// ([AllowAdditionalProperties]) or given ([WithInputSchema]), and never
// decoded into the member:
//
//	invalid arguments for tool echo:
//	- /Text: additional property is not allowed (additionalProperties)
//
// When fn has run:
//
//   - a plain error becomes an isError result carrying its text (a
//     *jsonrpc.Error returned on purpose stays a JSON-RPC error response);
//   - an error made by [Fail] becomes an isError result that still carries
//     out as structured content, checked against the output schema like
//     any other result: the way to fail inside the contract;
//   - otherwise out is the structured content, and its JSON, serialized,
//     is also sent as a text block for clients that ignore
//     structuredContent.
//
// Out is encoded by the members its schema is inferred from, so that the
// zero value of any type and every natural Go value conforms: a nil slice
// is [] (a nil []byte ""), a nil map {}; a nil pointer member, which the
// schema does not require, is left out, unless its schema accepts null
// (jsonschema:"nullable", json.RawMessage, an interface) and then it is
// null; a nil pointer where JSON has no absent value (the result itself,
// an item, a map value) is its element's zero value unless its schema
// accepts null. Otherwise values are encoded as encoding/json encodes them
// (without HTML escaping). A value with no JSON form (NaN, a channel in an
// interface) is a result that breaks the contract: the call gets an
// isError result naming the value by its JSON pointer.
//
// When Out is *Result the handler builds its result itself (content blocks,
// usually): there is no output schema (unless WithOutputSchema gives one)
// and the result is sent as returned, after the contract check. Returned
// with Fail, it is sent as an isError result headed by the failure's text.
//
// In may also be json.RawMessage or any, for the raw arguments object;
// its schema is then {"type":"object"} unless given.
func New[In, Out any](name, description string, fn func(ctx context.Context, in In) (Out, error), opts ...Option) Tool {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	t := Tool{
		Name: name, Title: cfg.title, Description: description,
		Annotations: cfg.annotations, Icons: cfg.icons, Meta: cfg.meta,
		SensitiveHeaderNames: cfg.sensitive, Scopes: cfg.scopes,
	}
	if fn == nil {
		t.err = fmt.Errorf("tool %q has no handler", name)
		return t
	}
	if err := describe(&t, fn, &cfg); err != nil {
		t.InputSchema, t.OutputSchema, t.err = nil, nil, err
	}
	return t
}

// describe infers t's schemas and builds its handler.
func describe[In, Out any](t *Tool, fn func(ctx context.Context, in In) (Out, error), cfg *config) error {
	name := t.Name
	var inferOpts []schema.Option
	if cfg.relaxed {
		inferOpts = append(inferOpts, schema.AllowAdditional())
	}
	inType, outType := reflect.TypeFor[In](), reflect.TypeFor[Out]()
	var err error
	if t.InputSchema, err = inputSchemaFor(inType, cfg.input, inferOpts); err != nil {
		return fmt.Errorf("tool %q: input schema: %w", name, err)
	}
	plan, err := argsPlanFor(inType)
	if err != nil {
		return fmt.Errorf("tool %q: input schema: %w", name, err)
	}
	warnUntagged(name, inType)
	h := handling{returnsResult: outType == resultType, skipDecode: isEmptyStruct(inType), strs: plan.strs}
	// A strict inferred schema already refuses every key that is not a
	// member, except inside a type it describes as {}.
	if cfg.input != nil || cfg.relaxed || plan.opaque {
		h.keys = plan.keys
	}
	switch {
	case cfg.output != nil:
		t.OutputSchema = cfg.output
	case !h.returnsResult:
		if t.OutputSchema, err = schema.FromType(outType, inferOpts...); err != nil {
			return fmt.Errorf("tool %q: output schema: %w", name, err)
		}
	}
	if !h.returnsResult {
		h.out = natural.For(outType)
	}
	t.Handler = typedHandler(name, fn, h)
	return nil
}

var objectSchema = json.RawMessage(`{"type":"object"}`)

var (
	resultType     = reflect.TypeFor[*Result]()
	rawMessageType = reflect.TypeFor[json.RawMessage]()
)

func inputSchemaFor(in reflect.Type, given json.RawMessage, opts []schema.Option) (json.RawMessage, error) {
	switch {
	case given != nil:
		return given, nil
	case in == rawMessageType || in.Kind() == reflect.Interface:
		return objectSchema, nil
	}
	return schema.FromType(in, opts...)
}

func isEmptyStruct(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.NumField() == 0
}

// DecodeArgs decodes a call's arguments into In the way a typed handler
// receives them, matching keys to members exactly: a key that names a
// member only when case is ignored, at any depth, is refused (see New).
// When they do not decode, the error's text is what a typed tool answers
// in its isError result: the tool's name, then violation lines with a JSON
// pointer and the value as sent, never a Go type:
//
//	invalid arguments for tool add:
//	- /a: 1e300 should be at most 9223372036854775807 (maximum)
func DecodeArgs[In any](toolName string, args json.RawMessage) (In, error) {
	plan, _ := argsPlanFor(reflect.TypeFor[In]()) // New refuses an In with no plan
	return decodeArgs[In](toolName, args, plan.keys, plan.strs)
}

// decodeArgs decodes args into In, refusing first the keys keys finds
// (nil: none to look for); strs, when set, is In's fast decoding.
func decodeArgs[In any](toolName string, args json.RawMessage, keys *keyPlan, strs *stringArgs) (In, error) {
	var in In
	if keys != nil {
		if vs := keys.check(args); vs != nil {
			return in, errors.New(schema.FormatViolations("invalid arguments for tool "+toolName, vs))
		}
	}
	if strs != nil && strs.decode(args, unsafe.Pointer(&in)) {
		return in, nil
	}
	// Decoded into a value of its own: taking in's address here would move
	// it to the heap on the fast path above too.
	p := new(In)
	if err := json.Unmarshal(args, p); err != nil {
		return *p, errors.New(schema.FormatViolations("invalid arguments for tool "+toolName, []schema.Violation{decodeViolation(args, err, reflect.TypeFor[In]())}))
	}
	return *p, nil
}

// handling is what a typed handler knows of its types.
type handling struct {
	returnsResult bool
	skipDecode    bool             // In is struct{}
	keys          *keyPlan         // the keys to refuse before decoding; nil when the schema refuses them
	strs          *stringArgs      // In's fast decoding, for a struct of plain strings
	out           *natural.Encoder // Out's encoder, unless returnsResult
}

// typedHandler adapts a typed function to a Handler. Arguments that do not
// decode into In get an isError result listing the value refused, in the
// form of the validator's lines (see decode.go).
func typedHandler[In, Out any](name string, fn func(context.Context, In) (Out, error), h handling) Handler {
	return func(ctx context.Context, args json.RawMessage) (*Result, error) {
		var in In
		if !h.skipDecode {
			var err error
			if in, err = decodeArgs[In](name, args, h.keys, h.strs); err != nil {
				return ErrorResult("%s", err.Error()), nil
			}
		}
		out, err := fn(ctx, in)
		if err != nil && !isFailure(err) {
			return nil, err
		}
		if h.returnsResult {
			return resultOf(any(out).(*Result), err), nil
		}
		res, merr := encodeOut(h.out, out)
		if merr != nil {
			// Out has no JSON form: the server's check of the result
			// encodes it again, reports the broken contract and logs it.
			return &Result{Structured: out, IsError: err != nil}, nil
		}
		if err != nil {
			res.IsError = true
			res.Content = append([]Content{&Text{Text: err.Error()}}, res.Content...)
		}
		return res, nil
	}
}

// isFailure reports whether err is or wraps a *Failure. It is a function
// of its own so that the target errors.As needs is allocated only when
// there is an error to look into.
func isFailure(err error) bool {
	var f *Failure
	return errors.As(err, &f)
}

// encodeOut encodes out with enc into a structured result. Out is
// addressable here, as a pointer method of a value it holds needs, and
// only this copy of it escapes.
func encodeOut[Out any](enc *natural.Encoder, out Out) (*Result, error) {
	return encodeStructured(enc, reflect.ValueOf(&out).Elem())
}

// resultOf returns the result a *Result-returning handler produced; when
// it failed with Fail, a copy marked as an error whose first block is the
// failure's text.
func resultOf(r *Result, failed error) *Result {
	switch {
	case failed == nil:
		return r
	case r == nil:
		return ErrorResult("%s", failed.Error())
	}
	cp := *r
	cp.IsError = true
	cp.Content = append([]Content{&Text{Text: failed.Error()}}, r.Content...)
	return &cp
}

// Failure is the error a typed handler returns, through [Fail], to report
// that the tool failed while still returning a value that conforms to its
// output schema, such as {"accepted": false, "region": "mars"}. The call
// becomes an isError result whose first text block is the error's text,
// followed by the value as structured content and as serialized JSON.
type Failure struct {
	// Message is the human-readable reason, for the model and the user.
	Message string
}

// Error returns the message.
func (f *Failure) Error() string { return f.Message }

// Fail returns a *Failure with a formatted message. A typed handler
// returns it next to its Out value:
//
//	return Report{Accepted: false, Region: in.Region}, tool.Fail("unknown region %q", in.Region)
func Fail(format string, args ...any) error {
	return &Failure{Message: fmt.Sprintf(format, args...)}
}
