package projectcode

import (
	"testing"
	"time"
)

// TestCronSchedule: node-schedule's cron text as Quarry reads it — seconds optional, 7 for
// Sunday, tz — gives the runs node-schedule gives.
func TestCronSchedule(t *testing.T) {
	from := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC) // a Saturday
	for _, c := range []struct {
		job  CronJob
		want string
	}{
		{CronJob{Rule: "0 0 * * 7", TZ: "UTC"}, "2026-11-29T00:00:00Z"},
		{CronJob{Rule: "0 0 * * 0", TZ: "UTC"}, "2026-11-29T00:00:00Z"},
		{CronJob{Rule: "30 9 * * 1-7", TZ: "UTC"}, "2026-11-29T09:30:00Z"},
		{CronJob{Rule: "*/15 * * * * *", TZ: "UTC"}, "2026-11-28T10:00:15Z"},
		{CronJob{Rule: "0 8 * * *", TZ: "Europe/Paris"}, "2026-11-29T07:00:00Z"},
		{CronJob{Rule: "0 0 1 JAN *", TZ: "UTC"}, "2027-01-01T00:00:00Z"},
	} {
		s, err := cronSchedule(c.job)
		if err != nil {
			t.Errorf("%q: %v", c.job.Rule, err)
			continue
		}
		if got := s.Next(from).UTC().Format(time.RFC3339); got != c.want {
			t.Errorf("%q (tz %s): next %s, want %s", c.job.Rule, c.job.TZ, got, c.want)
		}
	}
	for _, bad := range []CronJob{{Rule: "0 0 L * *"}, {Rule: "nonsense"}, {Rule: "0 0 * * *", TZ: "Mars/Olympus"}} {
		if _, err := cronSchedule(bad); err == nil {
			t.Errorf("%q (tz %q) parsed", bad.Rule, bad.TZ)
		}
	}
}
