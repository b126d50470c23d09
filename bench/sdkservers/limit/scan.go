package main

// fields are the raw values answerScan needs, subslices of the line (nil
// when absent): id, method, params.name and params.arguments.text, strings
// with their quotes and escapes.
type fields struct {
	id, method, name, text []byte
}

// scan fills f from line, a JSON object. It reports false when the line is
// not one; it checks the syntax of what it skips only as far as finding
// where each value ends.
func (f *fields) scan(line []byte) bool {
	s := scanner{b: line}
	return s.object(func(key []byte, start int) bool {
		switch string(key) {
		case "id":
			return s.span(&f.id, start)
		case "method":
			return s.stringSpan(&f.method)
		case "params":
			return s.object(func(key []byte, start int) bool {
				switch string(key) {
				case "name":
					return s.stringSpan(&f.name)
				case "arguments":
					return s.object(func(key []byte, start int) bool {
						if string(key) == "text" {
							return s.stringSpan(&f.text)
						}
						return s.skip()
					})
				}
				return s.skip()
			})
		}
		return s.skip()
	})
}

// scanner walks JSON text in place.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// object reads an object, calling member for each key with the scanner at
// its value; member must consume the value.
func (s *scanner) object(member func(key []byte, start int) bool) bool {
	if s.peek() != '{' {
		return false
	}
	s.i++
	if s.peek() == '}' {
		s.i++
		return true
	}
	for {
		if s.peek() != '"' {
			return false
		}
		start := s.i
		if !s.str() {
			return false
		}
		key := s.b[start+1 : s.i-1]
		if s.peek() != ':' {
			return false
		}
		s.i++
		s.ws()
		if !member(key, s.i) {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// str reads a string starting at its opening quote.
func (s *scanner) str() bool {
	for s.i++; s.i < len(s.b); s.i++ {
		switch s.b[s.i] {
		case '\\':
			s.i++
		case '"':
			s.i++
			return true
		}
	}
	return false
}

// stringSpan reads a string value into *dst (quotes included); any other
// value is skipped and leaves *dst nil.
func (s *scanner) stringSpan(dst *[]byte) bool {
	if s.peek() != '"' {
		return s.skip()
	}
	start := s.i
	if !s.str() {
		return false
	}
	*dst = s.b[start:s.i]
	return true
}

// span reads any value into *dst.
func (s *scanner) span(dst *[]byte, start int) bool {
	if !s.skip() {
		return false
	}
	*dst = s.b[start:s.i]
	return true
}

// skip reads one value of any kind.
func (s *scanner) skip() bool {
	switch c := s.peek(); c {
	case '"':
		return s.str()
	case '{':
		return s.object(func([]byte, int) bool { return s.skip() })
	case '[':
		s.i++
		if s.peek() == ']' {
			s.i++
			return true
		}
		for {
			if !s.skip() {
				return false
			}
			switch s.peek() {
			case ',':
				s.i++
			case ']':
				s.i++
				return true
			default:
				return false
			}
		}
	case 0:
		return false
	default: // a number or a literal
		start := s.i
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				return s.i > start
			}
			s.i++
		}
		return s.i > start
	}
}
