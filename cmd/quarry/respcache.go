package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport"
	"github.com/quarrycms/quarry/transport/app"
	"github.com/quarrycms/quarry/transport/respcache"
)

// setupCache builds the response cache from config/quarry.* (responseCache) and the
// environment (QUARRY_RESPONSE_CACHE=on|off, QUARRY_RESPONSE_CACHE_BYTES,
// QUARRY_RESPONSE_CACHE_ENTRY_BYTES), which wins. It is on by default; it stays off where it
// could not be exact: MySQL (no change position), read replicas (reads may come from a
// replica behind the position taken on the primary) and signed media URLs (they expire).
func setupCache(ctx context.Context, a *app.App, srv *transport.Server, getenv func(string) string) (string, error) {
	qc, err := a.Config.Quarry()
	if err != nil {
		return "", err
	}
	rc := qc.ResponseCache
	on := rc.Enabled == nil || *rc.Enabled
	switch v := strings.ToLower(strings.TrimSpace(getenv("QUARRY_RESPONSE_CACHE"))); v {
	case "":
	case "1", "on", "true", "yes":
		on = true
	case "0", "off", "false", "no":
		on = false
	default:
		return "", fmt.Errorf("QUARRY_RESPONSE_CACHE: %q is not on or off", v)
	}
	cfg := respcache.Config{MaxBytes: rc.MaxBytes, MaxEntryBytes: rc.MaxEntryBytes}
	for _, e := range []struct {
		name string
		set  func(int64)
	}{
		{"QUARRY_RESPONSE_CACHE_BYTES", func(n int64) { cfg.MaxBytes = n }},
		{"QUARRY_RESPONSE_CACHE_ENTRY_BYTES", func(n int64) { cfg.MaxEntryBytes = int(n) }},
	} {
		if v := getenv(e.name); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return "", fmt.Errorf("%s: %q is not a positive number of bytes", e.name, v)
			}
			e.set(n)
		}
	}
	switch {
	case !on:
		return "off", nil
	case a.DB.HasReplicas():
		return "off (read replicas)", nil
	case srv.Upload != nil && srv.Upload.Signing():
		return "off (signed media URLs)", nil
	}
	if _, err := a.DB.Position(ctx); err != nil {
		if errors.Is(err, database.ErrNoPosition) {
			return "off (" + a.DB.Dialect.Name() + " has no exact change position)", nil
		}
		return "", fmt.Errorf("response cache: %w", err)
	}
	// Write transactions record the tables they wrote, so that an answer is dropped only
	// when one of its tables changed (PostgreSQL and SQLite; see respcache's package doc).
	if err := a.DB.TrackWrites(ctx); err != nil {
		return "", fmt.Errorf("response cache: %w", err)
	}
	srv.Cache = respcache.New(a.DB, cfg)
	return "on", nil
}
