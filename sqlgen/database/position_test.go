package database

import "testing"

func TestSnapshotsAgree(t *testing.T) {
	for _, tc := range []struct {
		then, now string
		want      bool
	}{
		{"10:12:10,11", "10:12:10,11", true},
		{"10:12:10,11", "10:14:10,11,12,13", true}, // writers started, none finished
		{"10:12:10,11", "11:12:11", false},         // 10 finished
		{"10:12:10,11", "10:14:10,11,12", false},   // 13 started and finished
		{"10:12:", "10:12:", true},
		{"10:12:", "12:13:", false},
		{"10:12:", "garbage", false},
		{"10:14:", "10:12:", false},
	} {
		if got := snapshotsAgree(tc.then, tc.now); got != tc.want {
			t.Errorf("snapshotsAgree(%q, %q) = %v", tc.then, tc.now, got)
		}
	}
}
