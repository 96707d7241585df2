package exec

import (
	"encoding/json"
	"reflect"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// TestBox: a value boxed in a slab is the value boxing gives (type switches, equality,
// reflection), stays so across garbage collections while the slab's other elements are
// handed out, and costs no allocation of its own.
func TestBox(t *testing.T) {
	m := &runMem{}
	now := time.Date(2024, 2, 29, 10, 20, 30, 123e6, time.UTC)
	var got, want []any
	for i := range 2000 {
		s := "cell " + strconv.Itoa(i)
		raw := json.RawMessage(`{"i":` + strconv.Itoa(i) + `}`)
		got = append(got, m.str(m.bytes.str([]byte(s))), m.time(now.Add(time.Duration(i))),
			m.num(float64(i)/3), m.int(int64(i)<<40), m.raw(m.bytes.bytes(raw)))
		want = append(want, s, now.Add(time.Duration(i)), float64(i)/3, int64(i)<<40, raw)
		if i%500 == 0 {
			runtime.GC()
		}
	}
	runtime.GC()
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("%d: %T %#v, want %T %#v", i, got[i], got[i], want[i], want[i])
		}
		if _, ok := want[i].(json.RawMessage); !ok && got[i] != want[i] {
			t.Fatalf("%d: %#v != %#v", i, got[i], want[i])
		}
	}
	if s, ok := got[0].(string); !ok || s != "cell 0" {
		t.Errorf("type switch: %T %q", got[0], s)
	}
	// Appending to a boxed slice must not reach its neighbours in the arena.
	r := got[4].(json.RawMessage)
	_ = append(r, '!')
	if string(got[9].(json.RawMessage)) != `{"i":1}` {
		t.Errorf("neighbour overwritten: %s", got[9])
	}
	allocs := testing.AllocsPerRun(1000, func() {
		m.str("cell")
		m.time(now)
		m.num(0.5)
		m.int(1 << 40)
	})
	if allocs > 0.1 {
		t.Errorf("%.2f allocations per four boxed cells", allocs)
	}
}
