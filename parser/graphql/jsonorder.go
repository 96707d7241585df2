package graphql

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
)

// KeyOrder remembers the key order of the JSON objects a request's variables were decoded
// from: Go maps lose it, and graphql-js quotes invalid variable values in request order.
type KeyOrder map[uintptr][]string

// DecodeOrdered decodes one JSON value like json.Decoder with UseNumber, recording the key
// order of every object in order.
func DecodeOrdered(dec *json.Decoder, order KeyOrder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := map[string]any{}
			var keys []string
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, errors.New("object key is not a string")
				}
				v, err := DecodeOrdered(dec, order)
				if err != nil {
					return nil, err
				}
				if _, dup := m[k]; !dup {
					keys = append(keys, k)
				}
				m[k] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			if order != nil {
				order[reflect.ValueOf(m).Pointer()] = keys
			}
			return m, nil
		case '[':
			out := []any{}
			for dec.More() {
				v, err := DecodeOrdered(dec, order)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return out, nil
		}
		return nil, errors.New("unexpected delimiter")
	}
	return tok, nil
}

// OrderOf finds the key order of the objects in v, the value src was decoded into plainly
// (json.Decoder with UseNumber), by decoding src again in order and walking both together.
// Decoding in order boxes every token, so requests decode plainly and pay for the order
// only when an error message quotes a variable's value. nil when src does not decode.
func OrderOf(src []byte, v any) KeyOrder {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	ordered := KeyOrder{}
	ov, err := DecodeOrdered(dec, ordered)
	if err != nil {
		return nil
	}
	out := KeyOrder{}
	matchOrder(ov, v, ordered, out)
	return out
}

// matchOrder records in out, for each object of v, the order ordered knows for the object
// at the same place in ov (the same JSON decoded in order).
func matchOrder(ov, v any, ordered, out KeyOrder) {
	switch o := ov.(type) {
	case map[string]any:
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		if keys, ok := ordered.keysOf(o); ok && len(keys) == len(m) {
			out[reflect.ValueOf(m).Pointer()] = keys
		}
		for k, x := range o {
			matchOrder(x, m[k], ordered, out)
		}
	case []any:
		a, ok := v.([]any)
		if !ok || len(a) != len(o) {
			return
		}
		for i := range o {
			matchOrder(o[i], a[i], ordered, out)
		}
	}
}

// keysOf returns an object's keys in request order when known.
func (o KeyOrder) keysOf(m map[string]any) ([]string, bool) {
	if o == nil {
		return nil, false
	}
	keys, ok := o[reflect.ValueOf(m).Pointer()]
	return keys, ok && len(keys) == len(m)
}
