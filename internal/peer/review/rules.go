package review

import "github.com/mcpwire/mcpwire/internal/header"

// Rule identifiers of the admit gate (tools/list, resources/list,
// resources/templates/list and prompts/list descriptors).
const (
	RuleRevision             = "revision"               // the revision argument is not a known revision
	RuleDescriptor           = "descriptor"             // the descriptor is not a JSON object
	RuleFieldType            = "field-type"             // an optional member (title, description, mimeType, size, annotations, ...) has the wrong JSON type
	RuleToolName             = "tool-name"              // name missing, not a string, or not ^[A-Za-z0-9_.-]{1,128}$
	RuleAnnotationHint       = "annotation-hint"        // annotations.readOnlyHint (or another hint) is not a boolean
	RuleInputSchemaMissing   = "input-schema-missing"   // inputSchema absent or null
	RuleInputSchemaInvalid   = "input-schema-invalid"   // inputSchema does not compile as JSON Schema (2020-12 unless $schema says otherwise)
	RuleInputSchemaRoot      = "input-schema-root"      // inputSchema's root does not declare "type": "object"
	RuleOutputSchemaRevision = "output-schema-revision" // outputSchema on a revision before 2025-06-18
	RuleOutputSchemaInvalid  = "output-schema-invalid"  // outputSchema is not an object or does not compile
	RuleOutputSchemaRoot     = "output-schema-root"     // outputSchema root not "type": "object" on 2025-06-18 or 2025-11-25
	RuleResourceURI          = "resource-uri"           // a resource's uri missing, not a string, or not absolute
	RuleResourceName         = "resource-name"          // a resource's or template's name missing, empty or not a string
	RuleResourceTemplate     = "resource-template"      // uriTemplate missing or not an RFC 6570 template
	RulePromptName           = "prompt-name"            // a prompt's name missing, empty or not a string
	RulePromptArguments      = "prompt-arguments"       // arguments is not an array
	RulePromptArgument       = "prompt-argument"        // an argument is not an object, or its name is missing, empty or repeated
)

// Rule identifiers of the x-mcp-header rules (admit gate, 2026-07-28),
// decided by package header and named there.
const (
	RuleHeaderToken     = header.IDToken     // the header name is not a non-empty RFC 9110 token in a JSON string
	RuleHeaderDuplicate = header.IDDuplicate // the header name repeats another, ignoring case
	RuleHeaderType      = header.IDType      // the annotated property's type is not exactly string, integer or boolean
	RuleHeaderPlacement = header.IDPlacement // not reached through "properties" only, or in an outputSchema
	RuleHeaderSensitive = header.IDSensitive // the property or header name looks like a secret
)

// Rule identifiers of the consume gate (tools/call results).
const (
	RuleResultShape          = "result-shape"                // the result is not a JSON object
	RuleResultType           = "result-type"                 // 2026-07-28: resultType missing or not a string
	RuleIsErrorType          = "is-error-type"               // isError is not a boolean
	RuleContentList          = "content-list"                // content missing or not an array
	RuleContentBlock         = "content-block"               // a content block is not a JSON object
	RuleContentType          = "content-type"                // a block's type is missing, unknown, or not defined in the revision
	RuleContentField         = "content-field"               // a required member of a block is missing, empty or of the wrong JSON type
	RuleContentBase64        = "content-base64"              // data or blob is not standard, padded base64
	RuleContentMIME          = "content-mime"                // an image's or audio's mimeType is not a media type of its family
	RuleContentURI           = "content-uri"                 // a resource link's or embedded resource's uri is not absolute
	RuleContentResource      = "content-resource"            // an embedded resource holds both or neither of text and blob
	RuleContentAnnotations   = "content-annotations"         // annotations of the wrong shape or out of range
	RuleStructuredRevision   = "structured-content-revision" // structuredContent before 2025-06-18, or not an object on a 2025 revision
	RuleStructuredMissing    = "structured-content-missing"  // the tool has an outputSchema but a non-error result has no structuredContent
	RuleStructuredSchema     = "structured-content-schema"   // structuredContent does not validate against the outputSchema
	RuleStructuredTextMirror = "structured-text-mirror"      // no text block holds structuredContent's JSON serialisation
)

// rules is every rule id of the package, by gate.
var rules = []string{
	RuleRevision, RuleDescriptor, RuleFieldType, RuleToolName, RuleAnnotationHint,
	RuleInputSchemaMissing, RuleInputSchemaInvalid, RuleInputSchemaRoot,
	RuleOutputSchemaRevision, RuleOutputSchemaInvalid, RuleOutputSchemaRoot,
	RuleResourceURI, RuleResourceName, RuleResourceTemplate,
	RulePromptName, RulePromptArguments, RulePromptArgument,
	RuleHeaderToken, RuleHeaderDuplicate, RuleHeaderType, RuleHeaderPlacement, RuleHeaderSensitive,
	RuleResultShape, RuleResultType, RuleIsErrorType,
	RuleContentList, RuleContentBlock, RuleContentType, RuleContentField, RuleContentBase64,
	RuleContentMIME, RuleContentURI, RuleContentResource, RuleContentAnnotations,
	RuleStructuredRevision, RuleStructuredMissing, RuleStructuredSchema, RuleStructuredTextMirror,
}

// Rules returns every rule id a [Problem] of this package may carry, admit
// rules first, for a command that documents them.
func Rules() []string { return append([]string(nil), rules...) }
