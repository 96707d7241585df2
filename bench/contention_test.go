package bench

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkReadsUnderWriters measures read latency while writers work: each iteration is one
// populated list page (the corpus's dynamic-zone request) read by one of four concurrent
// readers, while four writers create articles with components and update them. It reports
// the readers' p50 and p99 in milliseconds. Run it on SQLite and PostgreSQL side by side
// (QUARRY_TEST_POSTGRES_URL) to compare their p99s in one run:
//
//	go test ./bench -run '^$' -bench ReadsUnderWriters -benchtime 400x
func BenchmarkReadsUnderWriters(b *testing.B) {
	type backend struct {
		name string
		open func(b *testing.B) *Env
	}
	backends := []backend{{"sqlite", func(b *testing.B) *Env {
		e, err := Open(context.Background(), Config{AppDir: "../examples/blog", Client: "sqlite",
			Filename: filepath.Join(b.TempDir(), "contention.db"), Articles: articles(), Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		return e
	}}}
	if admin := os.Getenv("QUARRY_TEST_POSTGRES_URL"); admin != "" {
		backends = append(backends, backend{"postgres", func(b *testing.B) *Env {
			u, drop, err := PostgresDatabase(context.Background(), admin, "quarry_contention")
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { drop() })
			e, err := Open(context.Background(), Config{AppDir: "../examples/blog", Client: "postgres", URL: u, Articles: articles(), Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			return e
		}})
	}
	var read Request
	for _, r := range Corpus {
		if r.Name == "dynamiczone" {
			read = r
		}
	}
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			e := be.open(b)
			defer e.Close()
			h := e.Server.Handler()
			call := func(method, target string, body []byte) int {
				req := httptest.NewRequest(method, target, bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+TokenKey)
				if body != nil {
					req.Header.Set("Content-Type", "application/json")
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				return w.Code
			}
			stop := make(chan struct{})
			var writes, failed atomic.Int64
			var wg sync.WaitGroup
			for w := 0; w < 4; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					for n := 0; ; n++ {
						select {
						case <-stop:
							return
						default:
						}
						body := fmt.Sprintf(`{"data":{"title":"contention %d-%d","code":"c-%d-%d-%d","blocks":[{"__component":"shared.quote","text":"q"},{"__component":"shared.link","label":"l"}],"links":[{"label":"a"}]}}`,
							w, n, w, n, time.Now().UnixNano())
						if call("POST", "/api/articles", []byte(body)) != 200 {
							failed.Add(1)
						}
						if call("PUT", fmt.Sprintf("/api/articles/%d", 1+(w*997+n)%articles()), []byte(`{"data":{"summary":"updated"}}`)) != 200 {
							failed.Add(1)
						}
						writes.Add(2)
					}
				}(w)
			}
			var mu sync.Mutex
			lat := make([]time.Duration, 0, b.N)
			var next atomic.Int64
			b.ResetTimer()
			var rg sync.WaitGroup
			for r := 0; r < 4; r++ {
				rg.Add(1)
				go func() {
					defer rg.Done()
					for next.Add(1) <= int64(b.N) {
						start := time.Now()
						if code := call("GET", read.Target(25), nil); code != 200 {
							b.Errorf("read: %d", code)
							return
						}
						d := time.Since(start)
						mu.Lock()
						lat = append(lat, d)
						mu.Unlock()
					}
				}()
			}
			rg.Wait()
			b.StopTimer()
			close(stop)
			wg.Wait()
			slices.Sort(lat)
			pct := func(p float64) float64 {
				if len(lat) == 0 {
					return 0
				}
				return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))]) / float64(time.Millisecond)
			}
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
			b.ReportMetric(float64(writes.Load()), "writes")
			if n := failed.Load(); n > 0 {
				b.Errorf("%d writes failed", n)
			}
		})
	}
}
