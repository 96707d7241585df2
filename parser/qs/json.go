package qs

import "unicode/utf8"

// The JSON rendering matches JavaScript's JSON.stringify byte for byte
// (key order, and escaping only '"', '\\' and control characters), so a
// tree can be compared directly with qs's output.

// String renders v as JSON.
func (v *Value) String() string { return string(v.AppendJSON(nil)) }

// MarshalJSON renders v as JSON.
func (v *Value) MarshalJSON() ([]byte, error) { return v.AppendJSON(nil), nil }

// AppendJSON appends the JSON rendering of v to dst.
func (v *Value) AppendJSON(dst []byte) []byte {
	if v == nil {
		return append(dst, "null"...)
	}
	switch v.Kind {
	case String:
		return appendJSONString(dst, v.Str)
	case Array:
		dst = append(dst, '[')
		for i, e := range v.Arr {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = e.AppendJSON(dst)
		}
		return append(dst, ']')
	case ObjectKind:
		return v.Obj.AppendJSON(dst)
	}
	return append(dst, "null"...)
}

// String renders o as JSON.
func (o *Object) String() string { return string(o.AppendJSON(nil)) }

// MarshalJSON renders o as JSON, keys in o.Keys order.
func (o *Object) MarshalJSON() ([]byte, error) { return o.AppendJSON(nil), nil }

// AppendJSON appends the JSON rendering of o to dst.
func (o *Object) AppendJSON(dst []byte) []byte {
	if o == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '{')
	for i, k := range o.Keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, k)
		dst = append(dst, ':')
		dst = o.Vals[i].AppendJSON(dst)
	}
	return append(dst, '}')
}

const hexDigits = "0123456789abcdef"

func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			// JS strings cannot hold invalid UTF-8; keep the output valid
			// JSON the way encoding/json does.
			if r, size := utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\ufffd"...)
			i++
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
