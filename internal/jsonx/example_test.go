package jsonx_test

import (
	"encoding/json"
	"fmt"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

func ExampleFields() {
	vals, _ := jsonx.Fields(json.RawMessage(`{"Name":"x","arguments":{}}`), "name", "arguments")
	fmt.Printf("name=%s arguments=%s\n", vals[0], vals[1])
	// Output: name= arguments={}
}

func ExampleScanner() {
	data := []byte(`{"jsonrpc":"2.0","id":1,"params":{"name":"a","Name":"b"}}`)
	s := jsonx.Scanner{CheckKeys: true, FoldDepth: 2, Collect: true}
	_, ok := s.Scan(data)
	fmt.Println(ok, s.NumMembers(), s.RepeatedKey(data))
	// Output: true 3 keys "name" and "Name" differ only in case
}
