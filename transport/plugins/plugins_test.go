package plugins

import (
	"errors"
	"testing"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
)

func TestQuery(t *testing.T) {
	keep := func(k string) bool { return k != "pagination" }
	limitOf := func(n int) int {
		if n > 0 {
			return n
		}
		return -1
	}
	q, start, limit, err := Query("start=-3&limit=7&pagination[page]=2&sort=name:desc", "plugin::upload.file", ir.FindMany, "", keep, limitOf)
	if err != nil {
		t.Fatal(err)
	}
	if start != 0 || limit != 7 || q.Model != "plugin::upload.file" || len(q.Sort) != 1 || !q.Sort[0].Desc {
		t.Errorf("start %d limit %d query %+v", start, limit, q)
	}
	if _, _, limit, _ := Query("limit=0", "m", ir.FindMany, "", keep, limitOf); limit != -1 {
		t.Errorf("limit=0 is mapped by limitOf: %d", limit)
	}
	for _, raw := range []string{"start=x", "limit[a]=1"} {
		_, _, _, err := Query(raw, "m", ir.FindMany, "", keep, limitOf)
		var ae *apierror.Error
		if !errors.As(err, &ae) || ae.Status != 400 {
			t.Errorf("%s: %v, want a 400", raw, err)
		}
	}
}

func TestParseID(t *testing.T) {
	if id, err := ParseID("12"); err != nil || id != 12 {
		t.Errorf("12: %d %v", id, err)
	}
	for _, s := range []string{"", "x", "-1", "1.5"} {
		if _, err := ParseID(s); err == nil {
			t.Errorf("%q is not an id", s)
		}
	}
}
