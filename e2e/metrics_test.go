package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// TestMetrics scrapes a real server's opt-in metrics listener and parses the Prometheus text
// format with the official parser.
func TestMetrics(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := copyBlog(t)
			// The response cache would answer the repeated lists without a statement.
			env := append(be.Env(t), "API_TOKEN_SALT=metrics-salt", "LOG_LEVEL=warn", "QUARRY_RESPONSE_CACHE=off")
			token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", app, "--name", "m", "--type", "full-access"))
			maddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
			srv := serve(t, env, app, token, "--metrics-addr", maddr)

			for i := 0; i < 3; i++ {
				if st, _ := srv.do(t, "GET", "/api/articles?populate=*", nil); st != 200 {
					t.Fatalf("articles: %d", st)
				}
			}
			srv.do(t, "GET", "/api/nothing-here/1", nil)
			srv.do(t, "POST", "/graphql", []byte(`{"query":"query Secret { tags { data { id } } }"}`))
			srv.do(t, "POST", "/graphql", []byte(`{"query":"mutation { createTag(data: {name: \"m\"}) { data { id } } }"}`))
			srv.do(t, "POST", "/graphql", []byte(`{"query":"{ nope }"}`))

			res, err := http.Get("http://" + maddr + "/metrics")
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
				t.Errorf("content type %q", ct)
			}
			parser := expfmt.NewTextParser(model.UTF8Validation)
			fams, err := parser.TextToMetricFamilies(res.Body)
			if err != nil {
				t.Fatalf("parse the text format: %v", err)
			}
			value := func(name string, labels map[string]string) (float64, bool) {
				f := fams[name]
				if f == nil {
					return 0, false
				}
			next:
				for _, m := range f.Metric {
					got := map[string]string{}
					for _, lp := range m.Label {
						got[lp.GetName()] = lp.GetValue()
					}
					for k, v := range labels {
						if got[k] != v {
							continue next
						}
					}
					return metricValue(m), true
				}
				return 0, false
			}
			if v, _ := value("quarry_http_requests_total", map[string]string{"method": "GET", "route": "/api/{name}", "status": "200"}); v != 3 {
				t.Errorf("GET /api/{name} 200: %v", v)
			}
			if v, _ := value("quarry_http_requests_total", map[string]string{"route": "/api/{name}/{id}", "status": "404"}); v != 1 {
				t.Errorf("GET /api/{name}/{id} 404: %v", v)
			}
			if v, _ := value("quarry_http_request_duration_seconds", map[string]string{"route": "/api/{name}"}); v != 3 {
				t.Errorf("latency histogram count: %v", v)
			}
			if v, ok := value("quarry_http_request_sql_statements", map[string]string{"route": "/api/{name}"}); !ok || v != 3 {
				t.Errorf("statements histogram count: %v", v)
			}
			if s := fams["quarry_http_request_sql_statements"]; s != nil {
				for _, m := range s.Metric {
					if m.Histogram.GetSampleSum() < 3*2 && labelOf(m, "route") == "/api/{name}" {
						t.Errorf("populate=* lists ran %v statements in 3 requests", m.Histogram.GetSampleSum())
					}
				}
			}
			for typ, want := range map[string]float64{"query": 1, "mutation": 1, "invalid": 1} {
				if v, _ := value("quarry_graphql_operations_total", map[string]string{"type": typ}); v != want {
					t.Errorf("graphql %s: %v", typ, v)
				}
			}
			if _, ok := value("go_sql_open_connections", map[string]string{"db_name": be.Name}); !ok {
				t.Errorf("no database pool figures")
			}
			for name, f := range fams {
				for _, m := range f.Metric {
					for _, lp := range m.Label {
						if strings.Contains(lp.GetValue(), "Secret") || strings.Contains(lp.GetValue(), "articles") {
							t.Errorf("%s has an unbounded label value %q", name, lp.GetValue())
						}
					}
				}
			}
		})
	}
}

func labelOf(m *dto.Metric, name string) string {
	for _, lp := range m.Label {
		if lp.GetName() == name {
			return lp.GetValue()
		}
	}
	return ""
}

// metricValue is a counter's or gauge's value, or a histogram's sample count.
func metricValue(m *dto.Metric) float64 {
	switch {
	case m.Counter != nil:
		return m.Counter.GetValue()
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	case m.Histogram != nil:
		return float64(m.Histogram.GetSampleCount())
	}
	return 0
}
