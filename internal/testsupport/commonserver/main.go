package main

import (
	"context"
	"flag"
	"log"
	"net"

	"github.com/mcpwire/mcpwire/mcp"
)

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP on this address instead of stdio")
	flag.Parse()
	srv := newServer()
	var err error
	if *addr != "" {
		var ln net.Listener
		if ln, err = net.Listen("tcp", *addr); err == nil {
			err = serveHTTP(context.Background(), ln, srv)
		}
	} else {
		err = mcp.RunStdio(context.Background(), srv, nil)
	}
	if err != nil {
		log.Fatal(err)
	}
}
