package sqlgen

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

// ListArg's SQLite text is computed to its exact length up front; it must still be the
// JSON array json_each reads, whatever the ids.
func TestListArgSQLite(t *testing.T) {
	for _, ids := range [][]int64{nil, {}, {0}, {7}, {1, 2, 3}, {9, 10, 99, 100, 999999, 1000000},
		{-1, -10, math.MinInt64, math.MaxInt64}} {
		want, _ := json.Marshal(ids)
		if len(ids) == 0 {
			want = []byte("[]")
		}
		if got := SQLite.ListArg(ids); got != string(want) {
			t.Errorf("ListArg(%v) = %#v, want %q", ids, got, want)
		}
	}
	ids := []int64{1, 22, 333, 4444, 55555, 666666, 7777777}
	// The text and its boxing into any: two allocations, whatever the ids.
	if n := testing.AllocsPerRun(100, func() { _ = SQLite.ListArg(ids) }); n > 2 {
		t.Errorf("ListArg: %v allocations, want 2", n)
	}
}

func TestParents(t *testing.T) {
	ids := []int64{3, 4}
	p := NewParents(SQLite, ids)
	if got := p.argFor(SQLite); got != "[3,4]" {
		t.Errorf("SQLite parents bind %#v", got)
	}
	// Encoded for another dialect (or not at all): encoded again for the one rendering.
	if got := p.argFor(Postgres); !reflect.DeepEqual(got, ids) {
		t.Errorf("PostgreSQL parents bind %#v", got)
	}
	if got := (Parents{}).argFor(SQLite); got != "[]" {
		t.Errorf("zero parents bind %#v", got)
	}
}

// Bind values handed out from a shared chunk must not overlap: appending to one statement's
// values must not overwrite the next statement's.
func TestNewArgs(t *testing.T) {
	a, b := newArgs(2), newArgs(3)
	if len(a) != 2 || cap(a) != 2 || len(b) != 3 || cap(b) != 3 {
		t.Fatalf("len/cap %d/%d %d/%d", len(a), cap(a), len(b), cap(b))
	}
	a[0], a[1], b[0] = 1, 2, 3
	a = append(a, 4)
	if b[0] != 3 || a[2] != 4 {
		t.Errorf("values overlap: %v %v", a, b)
	}
	if z := newArgs(0); z == nil || len(z) != 0 {
		t.Errorf("newArgs(0) = %#v, want empty and non-nil", z)
	}
	if big := newArgs(argChunkMax + 1); len(big) != argChunkMax+1 {
		t.Errorf("newArgs(%d) has len %d", argChunkMax+1, len(big))
	}
}
