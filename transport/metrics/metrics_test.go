package metrics

import (
	"database/sql"
	"io"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// The response cache's and the webhooks' counters are scraped (issue 28, item 16).
func TestCacheAndWebhookMetrics(t *testing.T) {
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := New(db, "sqlite")
	m.WatchCache(func() (int64, int64, int64, int64, int64) { return 7, 3, 2, 5, 4096 })
	m.WatchWebhooks(func() (int64, int64, int64) { return 11, 1, 4 })
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{"quarry_response_cache_hits_total 7", "quarry_response_cache_misses_total 3",
		"quarry_response_cache_evictions_total 2", "quarry_response_cache_entries 5", "quarry_response_cache_bytes 4096",
		"quarry_webhook_deliveries_total 11", "quarry_webhook_failures_total 1", "quarry_webhook_dropped_total 4"} {
		if !strings.Contains(string(body), want+"\n") {
			t.Errorf("metrics lack %q", want)
		}
	}
}
