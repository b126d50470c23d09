package tool

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/schema"
)

// New builds a tool from a typed handler. The input schema is inferred
// from In and the output schema from Out with package schema (see
// schema.For for the struct tags it reads), unless WithInputSchema or
// WithOutputSchema gives one; the tool is compiled before New returns, so
// every descriptor problem is reported here.
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
// When Out is *Result the handler builds its result itself (content blocks,
// usually): there is no output schema (unless WithOutputSchema gives one)
// and the result is sent as returned, after the contract check. Returned
// with Fail, it is sent as an isError result headed by the failure's text.
//
// In may also be json.RawMessage or an interface type, for the raw
// arguments object; its schema is then {"type":"object"} unless given.
// A nil slice in Out is encoded as null, which an inferred array schema
// refuses: return empty slices.
func New[In, Out any](name, description string, fn func(ctx context.Context, in In) (Out, error), opts ...Option) (*Tool, error) {
	if fn == nil {
		return nil, fmt.Errorf("tool %q has no handler", name)
	}
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	t := &Tool{
		Name: name, Title: cfg.title, Description: description,
		Annotations: cfg.annotations, Icons: cfg.icons, Meta: cfg.meta,
		HeaderOptions: cfg.headerOpts,
	}
	var inferOpts []schema.Option
	if cfg.relaxed {
		inferOpts = append(inferOpts, schema.AllowAdditional())
	}
	var err error
	if t.InputSchema, err = inputSchemaFor(reflect.TypeFor[In](), cfg.input, inferOpts); err != nil {
		return nil, fmt.Errorf("tool %q: input schema: %w", name, err)
	}
	outType := reflect.TypeFor[Out]()
	returnsResult := outType == resultType
	switch {
	case cfg.output != nil:
		t.OutputSchema = cfg.output
	case !returnsResult:
		if t.OutputSchema, err = schema.FromType(outType, inferOpts...); err != nil {
			return nil, fmt.Errorf("tool %q: output schema: %w", name, err)
		}
	}
	t.Handler = typedHandler(name, fn, returnsResult, isEmptyStruct(reflect.TypeFor[In]()))
	if err := t.Compile(); err != nil {
		return nil, err
	}
	return t, nil
}

// MustNew is New that panics on error, for tools built at start-up.
func MustNew[In, Out any](name, description string, fn func(ctx context.Context, in In) (Out, error), opts ...Option) *Tool {
	t, err := New(name, description, fn, opts...)
	if err != nil {
		panic(err)
	}
	return t
}

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
// receives them. When they do not decode, the error's text is what a typed
// tool answers in its isError result: the tool's name, then a violation
// line with a JSON pointer and the value as sent, never a Go type:
//
//	invalid arguments for tool add:
//	- /a: 1e300 should be at most 9223372036854775807 (maximum)
func DecodeArgs[In any](toolName string, args json.RawMessage) (In, error) {
	var in In
	if err := json.Unmarshal(args, &in); err != nil {
		return in, errors.New(invalidArguments(toolName, []schema.Violation{decodeViolation(args, err)}))
	}
	return in, nil
}

// typedHandler adapts a typed function to a Handler. Arguments that do not
// decode into In get an isError result listing the value refused, in the
// form of the validator's lines (see decode.go).
func typedHandler[In, Out any](name string, fn func(context.Context, In) (Out, error), returnsResult, skipDecode bool) Handler {
	return func(ctx context.Context, args json.RawMessage) (*Result, error) {
		var in In
		if !skipDecode {
			var err error
			if in, err = DecodeArgs[In](name, args); err != nil {
				return ErrorResult("%s", err.Error()), nil
			}
		}
		out, err := fn(ctx, in)
		var failure *Failure
		if err != nil && !errors.As(err, &failure) {
			return nil, err
		}
		if returnsResult {
			return resultOf(any(out).(*Result), err), nil
		}
		res, merr := StructuredResult(out)
		if merr != nil {
			return nil, merr
		}
		if err != nil {
			res.IsError = true
			res.Content = append([]Content{&Text{Text: err.Error()}}, res.Content...)
		}
		return res, nil
	}
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
