package database

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/sqlgen"
)

func TestFinishedBetween(t *testing.T) {
	const big = uint64(1) << 40 // ids carry the epoch: far past 32 bits, never wrapping
	for _, tc := range []struct {
		name      string
		then, now string
		limit     uint64
		want      []uint64
		ok        bool
	}{
		{"same", "10:12:10,11", "10:12:10,11", 256, nil, true},
		{"writers started, none finished", "10:12:10,11", "10:14:10,11,12,13", 256, nil, true},
		{"a running one finished", "10:12:10,11", "11:12:11", 256, []uint64{10}, true},
		{"one started and finished", "10:12:10,11", "10:14:10,11,12", 256, []uint64{13}, true},
		{"no one running then", "10:12:", "10:12:", 256, nil, true},
		{"two started and finished", "10:12:", "12:14:", 256, []uint64{12, 13}, true},
		{"xmin passed them", "10:15:10,12", "20:20:", 256, []uint64{10, 12, 15, 16, 17, 18, 19}, true},
		{"unreadable", "10:12:", "garbage", 256, nil, false},
		{"unreadable list", "10:12:1x", "10:12:", 256, nil, false},
		{"later older", "10:14:", "10:12:", 256, nil, false},
		{"large ids", fmt.Sprintf("%d:%d:%d", big, big+2, big+1), fmt.Sprintf("%d:%d:", big+3, big+3),
			256, []uint64{big + 1, big + 2}, true},
		{"range at the limit", fmt.Sprintf("%d:%d:", big, big), fmt.Sprintf("%d:%d:%d", big, big+256, big+255),
			256, seq(big, big+255), true},
		{"range over the limit", fmt.Sprintf("%d:%d:", big, big), fmt.Sprintf("%d:%d:", big+257, big+257), 256, nil, false},
		{"running list over the limit", "1:300:" + list(seq(1, 299)), "300:300:", 256, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := finishedBetween(tc.then, tc.now, tc.limit)
			if ok != tc.ok || !slices.Equal(got, tc.want) {
				t.Errorf("finishedBetween(%q, %q) = %v, %v; want %v, %v", tc.then, tc.now, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func seq(from, to uint64) []uint64 {
	var s []uint64
	for x := from; x < to; x++ {
		s = append(s, x)
	}
	return s
}

func list(xs []uint64) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, x)
	}
	return b.String()
}

func TestUnchangedByTable(t *testing.T) {
	db := &DB{Dialect: sqlgen.Postgres}
	db.writes.add(12, sqlgen.TablesOf("tags"))
	db.writes.add(13, sqlgen.TablesOf("articles", "articles_tags_links"))
	db.writes.add(14, sqlgen.Tables{})
	db.writes.add(15, sqlgen.AllTables)
	tags, writers := sqlgen.TablesOf("tags"), sqlgen.TablesOf("writers")
	for _, tc := range []struct {
		then, now string
		read      sqlgen.Tables
		want      bool
	}{
		{"12:12:", "12:12:", sqlgen.AllTables, true},
		{"12:12:", "13:13:", writers, true}, // 12 wrote tags only
		{"12:12:", "13:13:", tags, false},   // 12 wrote tags
		{"12:12:", "14:14:", writers, true}, // 12 and 13 wrote neither
		{"12:12:", "14:14:", sqlgen.TablesOf("articles_tags_links"), false},
		{"12:12:", "15:15:", writers, true},  // 14 wrote no table
		{"12:12:", "16:16:", writers, false}, // 15's tables are not known
		{"12:12:", "17:17:", writers, false}, // 16 is unknown
		{"12:12:", "13:13:", sqlgen.AllTables, false},
		{"11:13:11,12", "11:14:11,13", writers, true},  // 12 finished, 13 still running
		{"11:13:11,12", "12:14:12,13", writers, false}, // 11 (unknown) finished
	} {
		if got := db.Unchanged(tc.then, tc.now, tc.read); got != tc.want {
			t.Errorf("Unchanged(%q, %q, %v) = %v", tc.then, tc.now, tc.read, got)
		}
	}
	// Elsewhere any difference is a change, whatever was read.
	lite := &DB{Dialect: sqlgen.SQLite}
	if lite.Unchanged("1:5", "1:6", sqlgen.Tables{}) || !lite.Unchanged("1:5", "1:5", sqlgen.AllTables) {
		t.Error("SQLite's positions are not compared as equal strings")
	}
}

func TestWriteLogForgetsOldest(t *testing.T) {
	var l writeLog
	for x := uint64(1); x <= writeLogSize+10; x++ {
		l.add(x, sqlgen.TablesOf("t"))
	}
	if _, ok := l.get(10); ok {
		t.Error("the 10th of more than the log's size is still known")
	}
	if _, ok := l.get(11); !ok {
		t.Error("the 11th is forgotten")
	}
	if len(l.m) != writeLogSize {
		t.Errorf("%d remembered, want %d", len(l.m), writeLogSize)
	}
}

func TestNoteWrites(t *testing.T) {
	db := &DB{Dialect: sqlgen.Postgres}
	db.noteWrites("42:tags,articles")
	db.noteWrites("43:*")
	db.noteWrites("44:")
	db.noteWrites("garbage:tags")
	db.noteWrites("45")
	for x, want := range map[uint64]sqlgen.Tables{42: sqlgen.TablesOf("articles", "tags"), 43: sqlgen.AllTables, 44: {}} {
		got, ok := db.writes.get(x)
		if !ok || got.All != want.All || !slices.Equal(got.Names, want.Names) {
			t.Errorf("xid %d: %v %v, want %v", x, got, ok, want)
		}
	}
	if len(db.writes.m) != 3 {
		t.Errorf("%d remembered, want 3", len(db.writes.m))
	}
}
