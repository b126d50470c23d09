package jwtauth_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"time"

	"github.com/mcpwire/mcpwire/jwtauth"
	"github.com/mcpwire/mcpwire/oauth"
)

// The resource this server protects: the canonical URI of its MCP endpoint.
const resource = "https://mcp.example.com/mcp"

// A development issuer mints a token for this resource and the verifier,
// which finds the issuer's keys through its metadata, accepts it.
func Example() {
	dev, err := jwtauth.StartDevIssuer()
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()

	v, err := jwtauth.New(jwtauth.Config{Issuer: dev.Issuer()})
	if err != nil {
		log.Fatal(err)
	}
	token, err := dev.Mint(jwtauth.DevToken{
		Subject:  "alice",
		Scopes:   []string{"tools:call", "resources:read"},
		Audience: resource,
	})
	if err != nil {
		log.Fatal(err)
	}
	p, err := v.Verify(context.Background(), token, resource)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Subject, p.Scopes, p.HasScope("tools:call"), p.Claims["client_id"])
	// Output: alice [tools:call resources:read] true mcpwire-dev
}

// A token minted for another resource is refused: passing it through is
// what the MCP authorization specification forbids.
func ExampleVerifier_Verify_wrongAudience() {
	dev, err := jwtauth.StartDevIssuer()
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()

	v, err := jwtauth.New(jwtauth.Config{Issuer: dev.Issuer()})
	if err != nil {
		log.Fatal(err)
	}
	token, err := dev.Mint(jwtauth.DevToken{Subject: "alice", Audience: "https://other.example.com/api"})
	if err != nil {
		log.Fatal(err)
	}
	_, err = v.Verify(context.Background(), token, resource)
	fmt.Println(err)
	fmt.Println(errors.Is(err, oauth.ErrInvalidToken), errors.Is(err, jwtauth.ErrWrongAudience))
	// Output:
	// jwtauth: wrong audience: token is not for "https://mcp.example.com/mcp"
	// true true
}

// An expired token is refused once the leeway has passed too.
func ExampleVerifier_Verify_expired() {
	dev, err := jwtauth.StartDevIssuer()
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()

	v, err := jwtauth.New(jwtauth.Config{Issuer: dev.Issuer(), Leeway: 30 * time.Second})
	if err != nil {
		log.Fatal(err)
	}
	issued := time.Now().Add(-2 * time.Hour)
	token, err := dev.Mint(jwtauth.DevToken{Subject: "alice", Audience: resource, IssuedAt: issued})
	if err != nil {
		log.Fatal(err)
	}
	_, err = v.Verify(context.Background(), token, resource)
	fmt.Println(errors.Is(err, jwtauth.ErrExpired))
	// Output: true
}

// A DevIssuer is an http.Handler too, to be served wherever the issuer's
// URL says; here the verifier is given the key set's URL directly.
func ExampleNewDevIssuer() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	dev, err := jwtauth.NewDevIssuer("http://" + ln.Addr().String() + "/tenant")
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{Handler: dev}
	go srv.Serve(ln)
	defer srv.Close()

	v, err := jwtauth.New(jwtauth.Config{Issuer: dev.Issuer(), JWKSURI: dev.JWKSURI()})
	if err != nil {
		log.Fatal(err)
	}
	token, err := dev.Mint(jwtauth.DevToken{Subject: "bob", Audience: resource})
	if err != nil {
		log.Fatal(err)
	}
	p, err := v.Verify(context.Background(), token, resource)
	fmt.Println(p.Subject, err)
	// Output: bob <nil>
}
