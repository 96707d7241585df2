package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestInstancesShareSettings runs two servers on one PostgreSQL database: a permission
// changed through one is enforced by the other on the very next request (the change's NOTIFY
// drops the other's cache when it commits), many times over, in both directions.
func TestInstancesShareSettings(t *testing.T) {
	admin := os.Getenv("QUARRY_TEST_POSTGRES_URL")
	if admin == "" {
		t.Skip("QUARRY_TEST_POSTGRES_URL is not set")
	}
	env := []string{"DATABASE_CLIENT=postgres", "DATABASE_URL=" + freshPostgres(t, admin), "API_TOKEN_SALT=instances-salt", "LOG_LEVEL=warn"}
	token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", "../examples/blog", "--name", "e2e", "--type", "full-access"))
	a := serve(t, env, "../examples/blog", token)
	b := serve(t, env, "../examples/blog", token)

	r := a.call(t, token, "GET", "/api/users-permissions/roles", "")
	expect(t, r, 200)
	public := 0
	var roles struct {
		Roles []struct {
			ID   int    `json:"id"`
			Type string `json:"type"`
		} `json:"roles"`
	}
	if err := json.Unmarshal([]byte(r.Body), &roles); err != nil {
		t.Fatal(err)
	}
	for _, role := range roles.Roles {
		if role.Type == "public" {
			public = role.ID
		}
	}
	if public == 0 {
		t.Fatalf("no public role: %s", r.Body)
	}
	set := func(via *server, on bool) {
		t.Helper()
		body := fmt.Sprintf(`{"permissions":{"api::tag":{"controllers":{"tag":{"find":{"enabled":%v}}}}}}`, on)
		expect(t, via.call(t, token, "PUT", fmt.Sprintf("/api/users-permissions/roles/%d", public), body), 200)
	}
	// The change commits before the writer answers; PostgreSQL then delivers the NOTIFY to
	// the other instance, which drops its cache. Without it, the other instance would keep
	// its cached answer for up to a second.
	var slowest time.Duration
	for i := 0; i < 20; i++ {
		writer, reader := a, b
		if i%2 == 1 {
			writer, reader = b, a
		}
		on := i%4 < 2
		reader.call(t, "", "GET", "/api/tags", "") // the reader's cache holds the old answer
		set(writer, on)
		start := time.Now()
		for {
			got := reader.call(t, "", "GET", "/api/tags", "")
			if (got.Status == 200) == on {
				break
			}
			if time.Since(start) > 200*time.Millisecond {
				t.Fatalf("round %d: public find %v through one instance; the other still answers %s", i, on, got)
			}
			time.Sleep(time.Millisecond)
		}
		slowest = max(slowest, time.Since(start))
	}
	t.Logf("slowest propagation %v", slowest)
}
