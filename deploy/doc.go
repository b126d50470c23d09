// Package deploy holds the tested deployment of several mcpwire
// instances: nginx.conf, the configuration of nginx in front of them, and
// the test that runs it for real (deploy_test.go, built with the tag
// deploy: "make deploy"). The test starts, on loopback ports only, one
// redis-server, three cmd/everything -http instances sharing their state
// key and joining the Redis fan-out and task store, and nginx; it checks
// that a task created at one instance is polled, answered and cancelled
// at the others; then it drives modern
// calls and legacy sessions through nginx while it kills an instance and
// restarts Redis, and prints a summary of what every instance served.
// Last, one hostile client (hostile_test.go) holds POSTs whose bodies
// never arrive, through nginx and at one instance directly, and floods
// nginx with legacy sessions, while other clients, at another loopback
// address and at the hostile client's own, are served throughout; nginx
// forwards each client's address and the instances trust it.
package deploy
