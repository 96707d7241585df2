package execute

import "testing"

// The Time scalar's writer copies a stored time without escaping it; anything else goes
// through Str, so both print what Str prints for the formatted text.
func TestTimeOfDayWritesAsStr(t *testing.T) {
	for _, s := range []string{"10:20:30", "10:20", "10:20:30.5", "10:20:30.123456", "10:20:30.12", "", ".", "a\"b\\c", "é:\n"} {
		x := &execution{w: &jw{}}
		x.timeOfDay(s)
		var want jw
		want.Str(timeOfDay(s))
		if x.w.String() != want.String() {
			t.Errorf("%q: wrote %s, want %s", s, x.w.String(), want.String())
		}
	}
}
