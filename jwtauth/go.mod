module github.com/mcpwire/mcpwire/jwtauth

go 1.26.5

replace github.com/mcpwire/mcpwire => ../

require (
	github.com/go-jose/go-jose/v4 v4.1.9
	github.com/mcpwire/mcpwire v0.1.0
)

require github.com/goccy/go-json v0.12.0 // indirect
