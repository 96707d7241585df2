package observe

import (
	"context"
	"log/slog"
	"strings"
)

// AccessLog writes one line per request: method, route pattern, path (without its query),
// status, bytes, duration, SQL statements and request id; 5xx answers at error level, health
// and readiness probes at debug level. No
// header, query or body is logged, so tokens, passwords and reset codes never are.
func AccessLog(log *slog.Logger) Observer {
	return func(rec *Record) {
		lvl := slog.LevelInfo
		switch {
		case rec.Status >= 500:
			lvl = slog.LevelError
		case rec.Route == "/_health" || rec.Route == "/_ready":
			lvl = slog.LevelDebug // probes every few seconds would drown the requests
		}
		if !log.Enabled(context.Background(), lvl) {
			return
		}
		attrs := []slog.Attr{
			slog.String("method", rec.Method),
			slog.String("route", rec.Route),
			slog.String("path", rec.Path),
			slog.Int("status", rec.Status),
			slog.Int64("bytes", rec.Bytes),
			slog.Float64("duration_ms", float64(rec.Duration.Microseconds())/1000),
			slog.Int64("sql_statements", rec.Statements),
			slog.String("request_id", rec.ID),
		}
		if len(rec.GraphQL) > 0 {
			attrs = append(attrs, slog.String("graphql", strings.Join(rec.GraphQL, ",")))
		}
		log.LogAttrs(context.Background(), lvl, "request", attrs...)
	}
}
