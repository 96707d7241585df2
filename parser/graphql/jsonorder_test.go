package graphql

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestInspectKeepsRequestOrder checks that invalid variable values are quoted with their keys
// in request order, as graphql-js does, when the request was decoded with DecodeOrdered.
func TestInspectKeepsRequestOrder(t *testing.T) {
	order := KeyOrder{}
	dec := json.NewDecoder(strings.NewReader(`{"title":"x","nope":{"z":1,"a":[{"y":2,"b":3}]}}`))
	dec.UseNumber()
	v, err := DecodeOrdered(dec, order)
	if err != nil {
		t.Fatal(err)
	}
	want := `{ title: "x", nope: { z: 1, a: [{ y: 2, b: 3 }] } }`
	if got := order.inspect(v); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := jsInspect(v); got != `{ nope: { a: [{ b: 3, y: 2 }], z: 1 }, title: "x" }` {
		t.Errorf("without an order, keys are sorted: got %s", got)
	}
}

// TestOrderOf checks that the order found afterwards for a plainly decoded value is the
// one DecodeOrdered records: objects nested in objects and arrays, a duplicate key kept at
// its first place, and nothing for a value src does not describe.
func TestOrderOf(t *testing.T) {
	src := []byte(`{"title":"x","nope":{"z":1,"a":[{"y":2,"b":3},[{"d":1,"c":2}]]},"k":1,"title":"y"}`)
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	want := `{ title: "y", nope: { z: 1, a: [{ y: 2, b: 3 }, [{ d: 1, c: 2 }]] }, k: 1 }`
	if got := OrderOf(src, v).inspect(v); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if o := OrderOf([]byte(`{"a":`), v); o != nil {
		t.Errorf("an order for invalid JSON: %v", o)
	}
	other := map[string]any{"k": json.Number("1"), "title": "y"}
	if got := OrderOf(src, other).inspect(other); got != `{ k: 1, title: "y" }` {
		t.Errorf("a value src does not describe: got %s", got)
	}
}
