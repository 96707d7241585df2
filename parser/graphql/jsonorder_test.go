package graphql

import (
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
