module github.com/mcpwire/mcpwire/cmd/everything

go 1.26.5

require (
	github.com/goccy/go-json v0.12.0
	github.com/google/go-cmp v0.7.0
	github.com/mcpwire/mcpwire v0.1.0
	github.com/mcpwire/mcpwire/jwtauth v0.1.0
	github.com/mcpwire/mcpwire/redisbroker v0.1.0
	github.com/redis/go-redis/v9 v9.23.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/go-jose/go-jose/v4 v4.1.9 // indirect
	github.com/go-json-experiment/json v0.0.0-20260623181947-01eb4420fa68 // indirect
	github.com/goccy/go-yaml v1.19.2 // indirect
	github.com/kaptinlin/jsonpointer v0.4.28 // indirect
	github.com/kaptinlin/jsonschema v0.9.8 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
)

replace (
	github.com/mcpwire/mcpwire => ../..
	github.com/mcpwire/mcpwire/jwtauth => ../../jwtauth
	github.com/mcpwire/mcpwire/redisbroker => ../../redisbroker
)
