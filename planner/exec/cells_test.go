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

// TestRunMemReuse: a released runMem hands out zero elements again from the chunks it
// already has, so a run of the same shape allocates nothing for them.
func TestRunMemReuse(t *testing.T) {
	for len(mems) > 0 {
		<-mems
	}
	m := &runMem{}
	fill := func() {
		for i := range 300 {
			e := &m.entries.take(1)[0]
			e.Values = m.values.take(7)
			for j := range e.Values {
				e.Values[j] = m.str(m.bytes.str([]byte("value " + strconv.Itoa(i))))
			}
			e.Kids = make([]Kid, 1)
		}
	}
	fill()
	m.release()
	if got := newRunMem(); got != m {
		t.Fatal("a released runMem was not kept")
	}
	for range 300 {
		e := &m.entries.take(1)[0]
		if e.Kids != nil || e.ID != 0 {
			t.Fatalf("reused entry not zero: %+v", e)
		}
		for _, v := range m.values.take(7) {
			if v != nil {
				t.Fatalf("reused value not zero: %v", v)
			}
		}
	}
	m.release()
	newRunMem()
	allocs := testing.AllocsPerRun(5, func() {
		for range 300 {
			m.entries.take(1)
			m.values.take(7)
			m.str(m.bytes.str([]byte("value 1")))
		}
		m.entries.reset()
		m.values.reset()
		m.strs.reset()
		m.bytes.reset()
	})
	if allocs > 0 {
		t.Errorf("%.0f allocations reusing a runMem", allocs)
	}
}
