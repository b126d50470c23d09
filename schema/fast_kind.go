package schema

// kindSet is a set of JSON value kinds, as the library tells them apart.
type kindSet uint8

const (
	kindNull kindSet = 1 << iota
	kindBoolean
	kindObject
	kindArray
	kindNumber  // a number with a fractional part
	kindInteger // a number without one (1.0 included)
	kindString
	kindUnknown kindSet = 0 // a number math/big cannot read
)

var kindNames = map[string]kindSet{
	"null": kindNull, "boolean": kindBoolean, "object": kindObject, "array": kindArray,
	"number": kindNumber | kindInteger, "integer": kindInteger, "string": kindString,
}

func kindName(k kindSet) string {
	switch k {
	case kindNull:
		return "null"
	case kindBoolean:
		return "boolean"
	case kindObject:
		return "object"
	case kindArray:
		return "array"
	case kindNumber:
		return "number"
	case kindInteger:
		return "integer"
	case kindString:
		return "string"
	}
	return "unknown"
}
