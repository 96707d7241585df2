package sqlgen

import (
	"context"
	"testing"
)

func TestTablesMeet(t *testing.T) {
	ab, bc, cd := TablesOf("b", "a", "a"), TablesOf("c", "b"), TablesOf("d", "c")
	none := Tables{}
	for _, tc := range []struct {
		x, y Tables
		want bool
	}{
		{ab, bc, true},
		{ab, cd, false},
		{bc, cd, true},
		{ab, none, false},
		{AllTables, ab, true},
		{ab, AllTables, true},
		{AllTables, none, false}, // a write that wrote no table changes nothing
		{AllTables, AllTables, true},
	} {
		if tc.x.Meets(tc.y) != tc.want || tc.y.Meets(tc.x) != tc.want {
			t.Errorf("%v meets %v: want %v", tc.x, tc.y, tc.want)
		}
	}
}

func TestReadSet(t *testing.T) {
	ctx, rs := WithReadSet(context.Background())
	rs.Add(TablesOf("tags"))
	NoteRead(ctx) // outside a plan: anything may have been read
	if got := rs.Tables(); !got.All {
		t.Errorf("a read outside plans leaves %v", got)
	}
	ctx, rs = WithReadSet(context.Background())
	rs.Add(TablesOf("tags", "writers"))
	NoteRead(context.WithValue(ctx, plannedKey{}, rs)) // a plan's own statement
	rs.Add(TablesOf("articles"))
	if got := rs.Tables(); got.All || len(got.Names) != 3 {
		t.Errorf("plans' reads give %v", got)
	}
	NoteRead(context.Background()) // no set: nothing to note
}
