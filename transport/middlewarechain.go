package transport

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/quarrycms/quarry/parser/qs"
	"github.com/quarrycms/quarry/schemas/jseval"
	"github.com/quarrycms/quarry/schemas/routes"
)

// MiddlewareChain is a route's query-rewriting middlewares, loaded: the QueryRewriter of a
// core route whose routes file lists middlewares that only touch ctx.query.
type MiddlewareChain struct {
	mws []*jseval.Middleware
}

// LoadMiddlewareChain loads a route's middlewares (routes.QueryOnly must hold).
func LoadMiddlewareChain(dir string, c routes.RouteConfig, opts jseval.Options, log *slog.Logger) (*MiddlewareChain, error) {
	ch := &MiddlewareChain{}
	for _, e := range c.Middlewares {
		f, cfg := routes.MiddlewareFile(dir, e)
		if f == "" {
			return nil, fmt.Errorf("middleware %v: no such file", e)
		}
		mw, err := jseval.LoadMiddleware(f, cfg, opts, log)
		if err != nil {
			return nil, err
		}
		ch.mws = append(ch.mws, mw)
	}
	return ch, nil
}

// Rewrite runs the chain on a request's raw query string (parsed as Strapi's koa-qs parses
// it) and returns the query string the core action then reads.
func (ch *MiddlewareChain) Rewrite(ctx context.Context, rawQuery string, params map[string]string) (string, error) {
	for _, mw := range ch.mws {
		obj, err := qs.Parse(rawQuery, qs.StrapiOptions())
		if err != nil {
			return "", err
		}
		if rawQuery, err = mw.Query(ctx, obj.String(), params); err != nil {
			return "", err
		}
	}
	return rawQuery, nil
}
