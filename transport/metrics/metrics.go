// Package metrics exposes what the server does in the Prometheus text format: requests by
// route pattern and status, latency, SQL statements per request, the database pool and
// GraphQL operations. Every label takes few values (route patterns, not paths; operation
// types, not names), so a scrape stays small however clients call the API.
package metrics

import (
	"database/sql"
	"net/http"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/quarrycms/quarry/transport/observe"
)

// Metrics holds the collectors of one server; it has its own registry (no global state).
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	size     *prometheus.HistogramVec
	stmts    *prometheus.HistogramVec
	graphql  *prometheus.CounterVec
}

// New registers the collectors; db's pool figures (sql.DBStats) are read at every scrape.
func New(db *sql.DB, dbName string) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "quarry_http_requests_total",
		Help: "HTTP requests answered, by method, route pattern and status code.",
	}, []string{"method", "route", "status"})
	m.duration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "quarry_http_request_duration_seconds",
		Help:    "Time from a request's arrival to its answer, by method and route pattern.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
	}, []string{"method", "route"})
	m.size = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "quarry_http_response_size_bytes",
		Help:    "Size of response bodies, by method and route pattern.",
		Buckets: prometheus.ExponentialBuckets(128, 4, 8),
	}, []string{"method", "route"})
	m.stmts = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "quarry_http_request_sql_statements",
		Help:    "SQL statements a request's reads ran, by route pattern.",
		Buckets: []float64{0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 100},
	}, []string{"route"})
	m.graphql = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "quarry_graphql_operations_total",
		Help: "GraphQL operations by type (query, mutation, subscription; invalid when the document did not parse or validate).",
	}, []string{"type"})
	m.reg.MustRegister(m.requests, m.duration, m.size, m.stmts, m.graphql,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewDBStatsCollector(db, dbName),
	)
	return m
}

var methods = map[string]bool{"GET": true, "HEAD": true, "POST": true, "PUT": true, "PATCH": true, "DELETE": true, "OPTIONS": true}

var opTypes = map[string]bool{"query": true, "mutation": true, "subscription": true, "invalid": true}

// Observe counts one answered request; it is an observe.Observer.
func (m *Metrics) Observe(rec *observe.Record) {
	method := rec.Method
	if !methods[method] {
		method = "other" // methods are client input
	}
	m.requests.WithLabelValues(method, rec.Route, strconv.Itoa(rec.Status)).Inc()
	m.duration.WithLabelValues(method, rec.Route).Observe(rec.Duration.Seconds())
	m.size.WithLabelValues(method, rec.Route).Observe(float64(rec.Bytes))
	m.stmts.WithLabelValues(rec.Route).Observe(float64(rec.Statements))
	for _, op := range rec.GraphQL {
		if !opTypes[op] {
			op = "invalid"
		}
		m.graphql.WithLabelValues(op).Inc()
	}
}

// Handler serves the metrics (Prometheus text format, or OpenMetrics when asked for).
func (m *Metrics) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg}))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("quarry metrics are at /metrics\n"))
	})
	return mux
}

// ReplicaStats reports read-replica routing: requests whose reads a replica served, requests
// whose replicas were all behind the primary, and replica failures.
type ReplicaStats func() (toReplica, lagging, failed int64)

// WatchReplicas exports the read-replica routing counters.
func (m *Metrics) WatchReplicas(stats ReplicaStats) {
	counter := func(name, help string, pick func(a, b, c int64) int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 {
			a, b, c := stats()
			return float64(pick(a, b, c))
		})
	}
	m.reg.MustRegister(
		counter("quarry_replica_reads_total", "Requests whose reads went to a read replica that had caught up.", func(a, _, _ int64) int64 { return a }),
		counter("quarry_replica_behind_total", "Requests whose reads went to the primary because every replica was behind it.", func(_, b, _ int64) int64 { return b }),
		counter("quarry_replica_failures_total", "Times a read replica failed and left the rotation for a while.", func(_, _, c int64) int64 { return c }),
	)
}

// CacheStats reports the response cache: hits, misses, evictions, and the entries and bytes
// it holds.
type CacheStats func() (hits, misses, evictions, entries, bytes int64)

// WatchCache exports the response cache's counters.
func (m *Metrics) WatchCache(stats CacheStats) {
	counter := func(name, help string, pick func(h, mi, ev, en, b int64) int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return float64(pick(stats())) })
	}
	gauge := func(name, help string, pick func(h, mi, ev, en, b int64) int64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return float64(pick(stats())) })
	}
	m.reg.MustRegister(
		counter("quarry_response_cache_hits_total", "Requests the response cache answered.", func(h, _, _, _, _ int64) int64 { return h }),
		counter("quarry_response_cache_misses_total", "Cacheable requests the response cache did not hold (computed).", func(_, mi, _, _, _ int64) int64 { return mi }),
		counter("quarry_response_cache_evictions_total", "Entries dropped to keep the response cache within its size.", func(_, _, ev, _, _ int64) int64 { return ev }),
		gauge("quarry_response_cache_entries", "Answers the response cache holds.", func(_, _, _, en, _ int64) int64 { return en }),
		gauge("quarry_response_cache_bytes", "Bytes the response cache holds.", func(_, _, _, _, b int64) int64 { return b }),
	)
}

// WebhookStats reports webhook deliveries: accepted, failed, and events dropped on a full
// queue.
type WebhookStats func() (delivered, failed, dropped int64)

// WatchWebhooks exports the webhook dispatcher's counters.
func (m *Metrics) WatchWebhooks(stats WebhookStats) {
	counter := func(name, help string, pick func(d, f, dr int64) int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return float64(pick(stats())) })
	}
	m.reg.MustRegister(
		counter("quarry_webhook_deliveries_total", "Webhook deliveries the receiver accepted (2xx).", func(d, _, _ int64) int64 { return d }),
		counter("quarry_webhook_failures_total", "Webhook deliveries that failed (no answer, or a status other than 2xx).", func(_, f, _ int64) int64 { return f }),
		counter("quarry_webhook_dropped_total", "Webhook events dropped because the delivery queue was full.", func(_, _, dr int64) int64 { return dr }),
	)
}
