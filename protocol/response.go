package protocol

// UnsupportedProtocolVersionData is the error data of -32022
// (UnsupportedProtocolVersionError).
type UnsupportedProtocolVersionData struct {
	// Supported are the revisions the server serves; required.
	Supported List[string] `json:"supported"`
	// Requested is the revision the request asked for; required.
	Requested string `json:"requested"`
}

// MissingRequiredClientCapabilityData is the error data of -32021
// (MissingRequiredClientCapabilityError).
type MissingRequiredClientCapabilityData struct {
	// RequiredCapabilities are the capabilities the request lacked;
	// required.
	RequiredCapabilities ClientCapabilities `json:"requiredCapabilities"`
}
