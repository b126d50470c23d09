package tool

import (
	"strconv"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// Walks over raw JSON for the failure paths: where a refused key is,
// which value fails to decode. The data was checked when the request was
// read; the walks stop, without panicking, where it is not JSON.

// pathTo returns the reference tokens of the object whose member's key
// has its opening quote at offset at, a refused key found by a scan of
// data.
func pathTo(data []byte, at int) []string {
	var tokens []string
	sc := jsonx.Scanner{Trusted: true}
	i := jsonx.SkipSpace(data, 0)
	for depth := 0; i < len(data); depth++ {
		c := data[i]
		if c != '{' && c != '[' {
			return tokens
		}
		var empty bool
		i, empty = jsonx.Open(data, i)
		descended := false
		for n := 0; !empty; n++ {
			token := strconv.Itoa(n)
			if c == '{' {
				if i == at {
					return tokens
				}
				k, next, ok := jsonx.Key(data, i, jsonx.Lenient)
				if !ok {
					return tokens
				}
				token, i = k.Text(data), next
			}
			end, ok := sc.Skip(data, i, depth+1)
			if !ok {
				return tokens
			}
			if i <= at && at < end {
				tokens = append(tokens, token)
				descended = true
				break
			}
			var more bool
			if end, more, ok = jsonx.Next(data, end, closer(c)); !ok {
				return tokens
			}
			i, empty = end, !more
		}
		if !descended {
			return tokens
		}
	}
	return tokens
}

func closer(open byte) byte {
	if open == '[' {
		return ']'
	}
	return '}'
}

// eachMember calls fn with the name and the raw value of each member of
// obj, a JSON object, until fn returns false; it does nothing when obj is
// not an object.
func eachMember(obj []byte, fn func(name string, val []byte) bool) {
	i := jsonx.SkipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return
	}
	sc := jsonx.Scanner{Trusted: true}
	for i, empty := jsonx.Open(obj, i); !empty; {
		k, start, ok := jsonx.Key(obj, i, jsonx.Lenient)
		if !ok {
			return
		}
		end, ok := sc.Skip(obj, start, 1)
		if !ok || !fn(k.Text(obj), obj[start:end]) {
			return
		}
		var more bool
		if i, more, ok = jsonx.Next(obj, end, '}'); !ok || !more {
			return
		}
	}
}

// eachItem calls fn with the index and the raw value of each item of arr,
// a JSON array, until fn returns false; it does nothing when arr is not an
// array.
func eachItem(arr []byte, fn func(i int, val []byte) bool) {
	i := jsonx.SkipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return
	}
	sc := jsonx.Scanner{Trusted: true}
	i, empty := jsonx.Open(arr, i)
	for n := 0; !empty; n++ {
		end, ok := sc.Skip(arr, i, 1)
		if !ok || !fn(n, arr[i:end]) {
			return
		}
		var more bool
		if i, more, ok = jsonx.Next(arr, end, ']'); !ok || !more {
			return
		}
	}
}
