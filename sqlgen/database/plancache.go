package database

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// customPlans is the pool's after-connect step on PostgreSQL: each connection plans every
// execution of its prepared statements with the values bound to it (plan_cache_mode =
// force_custom_plan), unless the connection URL sets plan_cache_mode itself.
//
// Why: pgx prepares and caches every statement, and after five executions PostgreSQL's
// default (auto) switches to a generic plan when its estimate is lower. A generic plan cannot
// see a LIKE pattern, so it takes a `$containsi`/`$startsWith` condition as 0.5% selective and
// picks nested loops over index lookups: the corpus's `filters` page at 10 000 articles runs in
// 25–30 ms with it against 8 ms with its custom plan (bench/README.md, "Side by side with
// Strapi"). Strapi sends unnamed statements, which are always planned with their values. The
// statement stays prepared (parsed once per connection); only the planning is repeated, a
// fraction of a millisecond for the corpus's statements.
func customPlans(configured map[string]string) func(context.Context, *pgx.Conn) error {
	if _, ok := configured["plan_cache_mode"]; ok {
		return nil
	}
	return func(ctx context.Context, c *pgx.Conn) error {
		if major(c.PgConn().ParameterStatus("server_version")) < 12 {
			return nil // plan_cache_mode is PostgreSQL 12's; older servers plan as they always did
		}
		if _, err := c.Exec(ctx, "SET plan_cache_mode = force_custom_plan"); err != nil {
			return fmt.Errorf("set plan_cache_mode: %w", err)
		}
		return nil
	}
}

// major is the major version in a server_version such as "15.4 (Debian 15.4-1)" (0 when
// there is none).
func major(v string) int {
	end := strings.IndexFunc(v, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(v)
	}
	n, _ := strconv.Atoi(v[:end])
	return n
}
