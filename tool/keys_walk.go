package tool

import "strconv"

// Walks over raw JSON for the failure paths: where a refused key is,
// which value fails to decode.

// pathTo returns the reference tokens of the object whose member's key
// starts at offset at, a refused key found by a scan of data.
func pathTo(data []byte, at int) []string {
	var tokens []string
	s := keyScan{data: data}
	for !s.bad {
		switch s.peek() {
		case '{':
			s.pos++
			for !s.bad && s.peek() == '"' {
				start := s.pos
				key, escaped := s.str()
				if start == at {
					return tokens
				}
				s.peek() // :
				s.pos++
				s.space()
				from := s.pos
				s.skip()
				if from <= at && at < s.pos {
					tokens = append(tokens, unescapeKey(key, escaped))
					s.pos = from
					break
				}
				if s.peek() == ',' {
					s.pos++
				}
			}
		case '[':
			s.pos++
			for i := 0; !s.bad; i++ {
				s.space()
				from := s.pos
				s.skip()
				if from <= at && at < s.pos {
					tokens = append(tokens, strconv.Itoa(i))
					s.pos = from
					break
				}
				if s.peek() != ',' {
					break
				}
				s.pos++
			}
		default:
			return tokens
		}
	}
	return tokens
}

// eachMember calls fn with the name and the raw value of each member of
// obj, a JSON object, until fn returns false; it does nothing when obj is
// not an object.
func eachMember(obj []byte, fn func(name string, val []byte) bool) {
	s := keyScan{data: obj}
	if s.peek() != '{' {
		return
	}
	s.pos++
	if s.peek() == '}' {
		return
	}
	for !s.bad && s.peek() == '"' {
		key, escaped := s.str()
		if s.peek() != ':' {
			return
		}
		s.pos++
		start := skipSpace(obj, s.pos)
		s.skip()
		if s.bad || !fn(unescapeKey(key, escaped), obj[start:s.pos]) || s.peek() != ',' {
			return
		}
		s.pos++
	}
}

// eachItem calls fn with the index and the raw value of each item of arr,
// a JSON array, until fn returns false; it does nothing when arr is not an
// array.
func eachItem(arr []byte, fn func(i int, val []byte) bool) {
	s := keyScan{data: arr}
	if s.peek() != '[' {
		return
	}
	s.pos++
	if s.peek() == ']' {
		return
	}
	for i := 0; !s.bad; i++ {
		start := skipSpace(arr, s.pos)
		s.skip()
		if s.bad || !fn(i, arr[start:s.pos]) || s.peek() != ',' {
			return
		}
		s.pos++
	}
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}
