package database

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestCustomPlans checks that Quarry's PostgreSQL connections plan each execution with its
// values, and that a plan_cache_mode in the connection URL is left as configured.
func TestCustomPlans(t *testing.T) {
	base := os.Getenv("QUARRY_TEST_POSTGRES_URL")
	if base == "" {
		t.Skip("QUARRY_TEST_POSTGRES_URL is not set")
	}
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	for _, c := range []struct{ url, want string }{
		{base, "force_custom_plan"},
		{base + sep + "plan_cache_mode=auto", "auto"},
	} {
		ctx := context.Background()
		db, err := Open(ctx, Config{Client: "postgres", URL: c.url})
		if err != nil {
			t.Fatal(err)
		}
		var got string
		err = db.QueryRowxContext(ctx, "SHOW plan_cache_mode").Scan(&got)
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s: plan_cache_mode = %q, want %q", c.url, got, c.want)
		}
	}
}

func TestServerMajor(t *testing.T) {
	for v, want := range map[string]int{"15.4 (Debian 15.4-1.pgdg120+1)": 15, "12.0": 12, "11.22": 11, "16beta1": 16, "": 0} {
		if got := major(v); got != want {
			t.Errorf("major(%q) = %d, want %d", v, got, want)
		}
	}
}
