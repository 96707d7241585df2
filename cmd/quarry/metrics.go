package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/quarrycms/quarry/transport"
	"github.com/quarrycms/quarry/transport/app"
	"github.com/quarrycms/quarry/transport/metrics"
)

// startMetrics serves Prometheus metrics on their own listener when addr is set: opt-in, and
// apart from the API so that they are not exposed wherever the API is.
func startMetrics(addr string, a *app.App, srv *transport.Server, log *slog.Logger) (stop func(), err error) {
	if addr == "" {
		return func() {}, nil
	}
	m := metrics.New(a.DB.DB.DB, a.DB.Dialect.Name())
	srv.Observers = append(srv.Observers, m.Observe)
	if a.DB.HasReplicas() {
		m.WatchReplicas(a.DB.ReplicaStats)
	}
	if srv.Cache != nil {
		m.WatchCache(func() (int64, int64, int64, int64, int64) {
			st := srv.Cache.Stats()
			return st.Hits, st.Misses, st.Evictions, st.Entries, st.Bytes
		})
	}
	if srv.Webhooks != nil {
		m.WatchWebhooks(func() (int64, int64, int64) {
			st := srv.Webhooks.Stats()
			return st.Delivered, st.Failed, st.Dropped
		})
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics listener %s: %w; choose another address with --metrics-addr or QUARRY_METRICS_ADDR", addr, err)
	}
	hs := &http.Server{Handler: m.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics listener", "err", err)
		}
	}()
	log.Info("metrics", "url", "http://"+ln.Addr().String()+"/metrics")
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(ctx)
	}, nil
}
