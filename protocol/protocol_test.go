package protocol

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/testsupport/wiremsg"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// examplesDir holds the official 2026-07-28 examples, one directory per
// schema definition.
const examplesDir = "../testdata/schema/2026-07-28/examples"

// newer returns a constructor of *T, for the coverage table.
func newer[T any]() func() any { return func() any { return new(T) } }

// request returns a constructor of a request of method with params P.
func request[P any](method string) func() any {
	return func() any { return wiremsg.NewRequest[P](method) }
}

// notification returns a constructor of a notification of method with
// params P.
func notification[P any](method string) func() any {
	return func() any { return wiremsg.NewNotification[P](method) }
}

// covered maps each example directory (a schema definition name) to the Go
// types its files must decode into and encode back from unchanged. The
// first type is the definition's own; the others are the unions the
// definition is a variant of, so that their dispatch is proven on the same
// files.
var covered = map[string][]func() any{
	// Client requests and their params.
	"DiscoverRequest":              {request[RequestParams](MethodDiscover)},
	"ListToolsRequest":             {request[PaginatedRequestParams](MethodListTools)},
	"CallToolRequest":              {request[CallToolRequestParams](MethodCallTool)},
	"CallToolRequestParams":        {newer[CallToolRequestParams]()},
	"ListPromptsRequest":           {request[PaginatedRequestParams](MethodListPrompts)},
	"GetPromptRequest":             {request[GetPromptRequestParams](MethodGetPrompt)},
	"GetPromptRequestParams":       {newer[GetPromptRequestParams]()},
	"ListResourcesRequest":         {request[PaginatedRequestParams](MethodListResources)},
	"ListResourceTemplatesRequest": {request[PaginatedRequestParams](MethodListResourceTemplates)},
	"ReadResourceRequest":          {request[ReadResourceRequestParams](MethodReadResource)},
	"CompleteRequest":              {request[CompleteRequestParams](MethodComplete)},
	"CompleteRequestParams":        {newer[CompleteRequestParams]()},
	"SubscriptionsListenRequest":   {request[SubscriptionsListenRequestParams](MethodSubscriptionsListen)},
	"PaginatedRequestParams":       {newer[PaginatedRequestParams]()},

	// Server results and their response envelopes (package wiremsg puts
	// the params and results in their JSON-RPC envelopes).
	"DiscoverResult":                      {newer[DiscoverResult]()},
	"DiscoverResultResponse":              {newer[wiremsg.Result[DiscoverResult]]()},
	"ListToolsResult":                     {newer[ListToolsResult]()},
	"ListToolsResultResponse":             {newer[wiremsg.Result[ListToolsResult]]()},
	"CallToolResult":                      {newer[CallToolResult](), newer[Outcome[CallToolResult]]()},
	"CallToolResultResponse":              {newer[wiremsg.Result[Outcome[CallToolResult]]]()},
	"ListPromptsResult":                   {newer[ListPromptsResult]()},
	"ListPromptsResultResponse":           {newer[wiremsg.Result[ListPromptsResult]]()},
	"GetPromptResult":                     {newer[GetPromptResult](), newer[Outcome[GetPromptResult]]()},
	"GetPromptResultResponse":             {newer[wiremsg.Result[Outcome[GetPromptResult]]]()},
	"ListResourcesResult":                 {newer[ListResourcesResult]()},
	"ListResourcesResultResponse":         {newer[wiremsg.Result[ListResourcesResult]]()},
	"ListResourceTemplatesResult":         {newer[ListResourceTemplatesResult]()},
	"ListResourceTemplatesResultResponse": {newer[wiremsg.Result[ListResourceTemplatesResult]]()},
	"ReadResourceResult":                  {newer[ReadResourceResult](), newer[Outcome[ReadResourceResult]]()},
	"ReadResourceResultResponse":          {newer[wiremsg.Result[Outcome[ReadResourceResult]]]()},
	"CompleteResult":                      {newer[CompleteResult]()},
	"CompleteResultResponse":              {newer[wiremsg.Result[CompleteResult]]()},
	"SubscriptionsListenResult":           {newer[SubscriptionsListenResult]()},
	"SubscriptionsListenResultResponse":   {newer[wiremsg.Result[SubscriptionsListenResult]]()},
	"InputRequiredResult":                 {newer[InputRequiredResult](), newer[Outcome[CallToolResult]]()},

	// Multi round-trip input requests and responses.
	"InputRequests":              {newer[InputRequests]()},
	"InputResponses":             {newer[InputResponses]()},
	"ElicitRequest":              {newer[InputRequest]()},
	"ElicitRequestFormParams":    {newer[ElicitRequestFormParams](), newer[ElicitRequestParams]()},
	"ElicitRequestURLParams":     {newer[ElicitRequestURLParams](), newer[ElicitRequestParams]()},
	"ElicitResult":               {newer[ElicitResult](), newer[InputResponse]()},
	"CreateMessageRequest":       {newer[InputRequest]()},
	"CreateMessageRequestParams": {newer[CreateMessageRequestParams]()},
	"CreateMessageResult":        {newer[CreateMessageResult](), newer[InputResponse]()},
	"ListRootsResult":            {newer[ListRootsResult](), newer[InputResponse]()},
	"Root":                       {newer[Root]()},
	"SamplingMessage":            {newer[SamplingMessage]()},
	"ModelPreferences":           {newer[ModelPreferences]()},
	"ToolUseContent":             {newer[ToolUseContent](), newer[SamplingContentBlock]()},
	"ToolResultContent":          {newer[ToolResultContent](), newer[SamplingContentBlock]()},

	// Elicitation form field schemas.
	"StringSchema":                   {newer[StringSchema](), newer[PrimitiveSchemaDefinition]()},
	"NumberSchema":                   {newer[NumberSchema](), newer[PrimitiveSchemaDefinition]()},
	"BooleanSchema":                  {newer[BooleanSchema](), newer[PrimitiveSchemaDefinition]()},
	"UntitledSingleSelectEnumSchema": {newer[UntitledSingleSelectEnumSchema](), newer[PrimitiveSchemaDefinition]()},
	"TitledSingleSelectEnumSchema":   {newer[TitledSingleSelectEnumSchema](), newer[PrimitiveSchemaDefinition]()},
	"UntitledMultiSelectEnumSchema":  {newer[UntitledMultiSelectEnumSchema](), newer[PrimitiveSchemaDefinition]()},
	"TitledMultiSelectEnumSchema":    {newer[TitledMultiSelectEnumSchema](), newer[PrimitiveSchemaDefinition]()},

	// Building blocks.
	"ClientCapabilities":   {newer[ClientCapabilities]()},
	"ServerCapabilities":   {newer[ServerCapabilities]()},
	"Tool":                 {newer[Tool]()},
	"Resource":             {newer[Resource]()},
	"TextContent":          {newer[TextContent](), newer[ContentBlock](), newer[SamplingContentBlock]()},
	"ImageContent":         {newer[ImageContent](), newer[ContentBlock](), newer[SamplingContentBlock]()},
	"AudioContent":         {newer[AudioContent](), newer[ContentBlock](), newer[SamplingContentBlock]()},
	"ResourceLink":         {newer[ResourceLink](), newer[ContentBlock]()},
	"EmbeddedResource":     {newer[EmbeddedResource](), newer[ContentBlock]()},
	"TextResourceContents": {newer[TextResourceContents](), newer[ResourceContents]()},
	"BlobResourceContents": {newer[BlobResourceContents](), newer[ResourceContents]()},

	// Notifications.
	"CancelledNotification":                 {notification[CancelledNotificationParams](NotificationCancelled)},
	"CancelledNotificationParams":           {newer[CancelledNotificationParams]()},
	"ProgressNotification":                  {notification[ProgressNotificationParams](NotificationProgress)},
	"ProgressNotificationParams":            {newer[ProgressNotificationParams]()},
	"LoggingMessageNotification":            {notification[LoggingMessageNotificationParams](NotificationMessage)},
	"LoggingMessageNotificationParams":      {newer[LoggingMessageNotificationParams]()},
	"ToolListChangedNotification":           {notification[*NotificationParams](NotificationToolListChanged)},
	"PromptListChangedNotification":         {notification[*NotificationParams](NotificationPromptListChanged)},
	"ResourceListChangedNotification":       {notification[*NotificationParams](NotificationResourceListChanged)},
	"ResourceUpdatedNotification":           {notification[ResourceUpdatedNotificationParams](NotificationResourceUpdated)},
	"ResourceUpdatedNotificationParams":     {newer[ResourceUpdatedNotificationParams]()},
	"SubscriptionsAcknowledgedNotification": {notification[SubscriptionsAcknowledgedNotificationParams](NotificationSubscriptionsAcknowledged)},

	// Errors: error objects and error response envelopes.
	"ParseError":                           {newer[jsonrpc.Error]()},
	"InvalidParamsError":                   {newer[jsonrpc.Error]()},
	"MethodNotFoundError":                  {newer[jsonrpc.Error]()},
	"InternalError":                        {newer[jsonrpc.Error]()},
	"HeaderMismatchError":                  {newer[wiremsg.Error]()},
	"MissingRequiredClientCapabilityError": {newer[wiremsg.Error]()},
	"UnsupportedProtocolVersionError":      {newer[wiremsg.Error]()},
}

// skipped lists example directories deliberately not round-tripped, with
// the reason.
var skipped = map[string]string{
	"ListRootsRequest": "the example carries an \"id\" member that the 2026-07-28 ListRootsRequest " +
		"(an input request: only method and params) does not define, so no faithful type can " +
		"round-trip it; InputRequest's roots/list variant is covered by the union tests",
}

// exampleDirs returns the names of the example directories.
func exampleDirs(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(examplesDir)
	if err != nil {
		t.Fatalf("reading examples: %v", err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) == 0 {
		t.Fatalf("no example directories under %s", examplesDir)
	}
	return dirs
}

// TestExamplesCoverage fails when an example directory is neither covered
// nor skipped, so that coverage cannot shrink silently when examples are
// added, and when a table entry names a directory that no longer exists.
func TestExamplesCoverage(t *testing.T) {
	dirs := exampleDirs(t)
	var cov, skip []string
	for _, d := range dirs {
		_, c := covered[d]
		reason, s := skipped[d]
		switch {
		case c && s:
			t.Errorf("%s is both covered and skipped", d)
		case c:
			cov = append(cov, d)
		case s:
			skip = append(skip, fmt.Sprintf("%s (%s)", d, reason))
		default:
			t.Errorf("example directory %s is neither covered nor in the skip list: map it to its Go type", d)
		}
	}
	for d := range covered {
		if !slices.Contains(dirs, d) {
			t.Errorf("covered entry %s has no example directory", d)
		}
	}
	for d := range skipped {
		if !slices.Contains(dirs, d) {
			t.Errorf("skipped entry %s has no example directory", d)
		}
	}
	t.Logf("covered %d of %d example directories: %s", len(cov), len(dirs), strings.Join(cov, ", "))
	t.Logf("skipped %d: %s", len(skip), strings.Join(skip, "; "))
}

// TestExamplesRoundTrip decodes every file of every covered directory into
// each of its Go types, encodes it again and compares the two as JSON.
func TestExamplesRoundTrip(t *testing.T) {
	files := 0
	for _, d := range exampleDirs(t) {
		makers, ok := covered[d]
		if !ok {
			continue
		}
		paths, err := filepath.Glob(filepath.Join(examplesDir, d, "*.json"))
		if err != nil || len(paths) == 0 {
			t.Errorf("%s: no example files (%v)", d, err)
			continue
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			files++
			for _, mk := range makers {
				v := mk()
				name := fmt.Sprintf("%s/%s/%s", d, filepath.Base(p), typeName(v))
				t.Run(name, func(t *testing.T) { roundTrip(t, data, v) })
			}
		}
	}
	t.Logf("round-tripped %d example files", files)
}

// typeName returns the name of the type v points to, without package
// paths.
func typeName(v any) string {
	name := reflect.TypeOf(v).Elem().String()
	for _, pkg := range []string{"github.com/mcpwire/mcpwire/protocol.", "github.com/mcpwire/mcpwire/internal/testsupport/wiremsg.", "protocol.", "wiremsg."} {
		name = strings.ReplaceAll(name, pkg, "")
	}
	return name
}

// TestErrorDataExamples decodes the data of the official error examples
// that define one into the typed data structs.
func TestErrorDataExamples(t *testing.T) {
	tests := []struct {
		file string
		data any
		code int64
	}{
		{"UnsupportedProtocolVersionError/unsupported-version.json", new(UnsupportedProtocolVersionData), jsonrpc.CodeUnsupportedProtocolVersion},
		{"MissingRequiredClientCapabilityError/missing-elicitation-capability.json", new(MissingRequiredClientCapabilityData), jsonrpc.CodeMissingRequiredClientCapability},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(examplesDir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			var r wiremsg.Error
			if err := json.Unmarshal(raw, &r); err != nil {
				t.Fatal(err)
			}
			if r.Error.Code != tt.code || r.ID.Raw() != "1" {
				t.Fatalf("code %d id %s, want %d and 1", r.Error.Code, r.ID, tt.code)
			}
			roundTrip(t, r.Error.Data, tt.data)
		})
	}
}
