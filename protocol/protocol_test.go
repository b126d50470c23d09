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

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// examplesDir holds the official 2026-07-28 examples, one directory per
// schema definition.
const examplesDir = "../testdata/schema/2026-07-28/examples"

// newer returns a constructor of *T, for the coverage table.
func newer[T any]() func() any { return func() any { return new(T) } }

// covered maps each example directory (a schema definition name) to the Go
// types its files must decode into and encode back from unchanged. The
// first type is the definition's own; the others are the unions the
// definition is a variant of, so that their dispatch is proven on the same
// files.
var covered = map[string][]func() any{
	// Client requests and their params.
	"DiscoverRequest":              {newer[DiscoverRequest]()},
	"ListToolsRequest":             {newer[ListToolsRequest]()},
	"CallToolRequest":              {newer[CallToolRequest]()},
	"CallToolRequestParams":        {newer[CallToolRequestParams]()},
	"ListPromptsRequest":           {newer[ListPromptsRequest]()},
	"GetPromptRequest":             {newer[GetPromptRequest]()},
	"GetPromptRequestParams":       {newer[GetPromptRequestParams]()},
	"ListResourcesRequest":         {newer[ListResourcesRequest]()},
	"ListResourceTemplatesRequest": {newer[ListResourceTemplatesRequest]()},
	"ReadResourceRequest":          {newer[ReadResourceRequest]()},
	"CompleteRequest":              {newer[CompleteRequest]()},
	"CompleteRequestParams":        {newer[CompleteRequestParams]()},
	"SubscriptionsListenRequest":   {newer[SubscriptionsListenRequest]()},
	"PaginatedRequestParams":       {newer[PaginatedRequestParams]()},

	// Server results and their response envelopes.
	"DiscoverResult":                      {newer[DiscoverResult]()},
	"DiscoverResultResponse":              {newer[DiscoverResultResponse]()},
	"ListToolsResult":                     {newer[ListToolsResult]()},
	"ListToolsResultResponse":             {newer[ListToolsResultResponse]()},
	"CallToolResult":                      {newer[CallToolResult](), newer[Outcome[CallToolResult]]()},
	"CallToolResultResponse":              {newer[CallToolResultResponse]()},
	"ListPromptsResult":                   {newer[ListPromptsResult]()},
	"ListPromptsResultResponse":           {newer[ListPromptsResultResponse]()},
	"GetPromptResult":                     {newer[GetPromptResult](), newer[Outcome[GetPromptResult]]()},
	"GetPromptResultResponse":             {newer[GetPromptResultResponse]()},
	"ListResourcesResult":                 {newer[ListResourcesResult]()},
	"ListResourcesResultResponse":         {newer[ListResourcesResultResponse]()},
	"ListResourceTemplatesResult":         {newer[ListResourceTemplatesResult]()},
	"ListResourceTemplatesResultResponse": {newer[ListResourceTemplatesResultResponse]()},
	"ReadResourceResult":                  {newer[ReadResourceResult](), newer[Outcome[ReadResourceResult]]()},
	"ReadResourceResultResponse":          {newer[ReadResourceResultResponse]()},
	"CompleteResult":                      {newer[CompleteResult]()},
	"CompleteResultResponse":              {newer[CompleteResultResponse]()},
	"SubscriptionsListenResult":           {newer[SubscriptionsListenResult]()},
	"SubscriptionsListenResultResponse":   {newer[SubscriptionsListenResultResponse]()},
	"InputRequiredResult":                 {newer[InputRequiredResult](), newer[Outcome[CallToolResult]]()},

	// Multi round-trip input requests and responses.
	"InputRequests":              {newer[InputRequests]()},
	"InputResponses":             {newer[InputResponses]()},
	"ElicitRequest":              {newer[ElicitRequest](), newer[InputRequest]()},
	"ElicitRequestFormParams":    {newer[ElicitRequestFormParams](), newer[ElicitRequestParams]()},
	"ElicitRequestURLParams":     {newer[ElicitRequestURLParams](), newer[ElicitRequestParams]()},
	"ElicitResult":               {newer[ElicitResult](), newer[InputResponse]()},
	"CreateMessageRequest":       {newer[CreateMessageRequest](), newer[InputRequest]()},
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
	"CancelledNotification":                 {newer[CancelledNotification]()},
	"CancelledNotificationParams":           {newer[CancelledNotificationParams]()},
	"ProgressNotification":                  {newer[ProgressNotification]()},
	"ProgressNotificationParams":            {newer[ProgressNotificationParams]()},
	"LoggingMessageNotification":            {newer[LoggingMessageNotification]()},
	"LoggingMessageNotificationParams":      {newer[LoggingMessageNotificationParams]()},
	"ToolListChangedNotification":           {newer[ToolListChangedNotification]()},
	"PromptListChangedNotification":         {newer[PromptListChangedNotification]()},
	"ResourceListChangedNotification":       {newer[ResourceListChangedNotification]()},
	"ResourceUpdatedNotification":           {newer[ResourceUpdatedNotification]()},
	"ResourceUpdatedNotificationParams":     {newer[ResourceUpdatedNotificationParams]()},
	"SubscriptionsAcknowledgedNotification": {newer[SubscriptionsAcknowledgedNotification]()},

	// Errors: error objects and error response envelopes.
	"ParseError":                           {newer[jsonrpc.Error]()},
	"InvalidParamsError":                   {newer[jsonrpc.Error]()},
	"MethodNotFoundError":                  {newer[jsonrpc.Error]()},
	"InternalError":                        {newer[jsonrpc.Error]()},
	"HeaderMismatchError":                  {newer[ErrorResponse]()},
	"MissingRequiredClientCapabilityError": {newer[ErrorResponse]()},
	"UnsupportedProtocolVersionError":      {newer[ErrorResponse]()},
}

// skipped lists example directories deliberately not round-tripped, with
// the reason.
var skipped = map[string]string{
	"ListRootsRequest": "the example carries an \"id\" member that the 2026-07-28 ListRootsRequest " +
		"(an input request: only method and params) does not define, so no faithful type can " +
		"round-trip it; ListRootsRequest itself is covered by the union tests",
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
	name = strings.ReplaceAll(name, "github.com/mcpwire/mcpwire/protocol.", "")
	return strings.ReplaceAll(name, "protocol.", "")
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
			var r ErrorResponse
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
