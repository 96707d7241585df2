// Package planner checks an ir.Query against the schema, the caller's permissions and the
// configured limits, and turns it into a plan.Plan: one root statement, an optional count, and
// one batched statement per populated attribute per level. The number of statements depends
// only on the query's shape, never on the number of rows.
package planner
