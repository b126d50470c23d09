package protocol

// Implementation names and describes a client or a server.
type Implementation struct {
	// Name is for programmatic use, and the display name when Title is
	// empty; required.
	Name string `json:"name"`
	// Title is the display name.
	Title string `json:"title,omitempty"`
	// Version is the implementation's version; required.
	Version string `json:"version"`
	// Description says what the implementation does.
	Description string `json:"description,omitempty"`
	// WebsiteURL is the implementation's website.
	WebsiteURL string `json:"websiteUrl,omitempty"`
	// Icons are sized icons a client may display.
	Icons []Icon `json:"icons,omitzero"`
}

// Icon is an image a client may display for an implementation, tool,
// prompt or resource.
type Icon struct {
	// Src is an https: or data: URI of the image; required.
	Src string `json:"src"`
	// MimeType overrides the type the source implies, such as "image/png".
	MimeType string `json:"mimeType,omitempty"`
	// Sizes lists sizes in WxH form ("48x48") or "any" for scalable images.
	Sizes []string `json:"sizes,omitzero"`
	// Theme is "light" or "dark": the background the icon is designed for.
	Theme string `json:"theme,omitempty"`
}
