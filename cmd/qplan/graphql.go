package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/explain"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/transport/app"
)

// gqlOutput is qplan's answer for a GraphQL document: one plan per root field.
type gqlOutput struct {
	Request string     `json:"request"`
	Dialect string     `json:"dialect"`
	Fields  []gqlField `json:"fields,omitempty"`
	Errors  []string   `json:"errors,omitempty"`
}

type gqlField struct {
	Field   string         `json:"field"`
	IR      *ir.Query      `json:"ir,omitempty"`
	Steps   []explain.Step `json:"steps,omitempty"`
	Removed []string       `json:"removed,omitempty"`
	Error   string         `json:"error,omitempty"`
}

// readArg reads an argument given as text, @file, or - for stdin.
func readArg(v string) (string, error) {
	switch {
	case v == "-":
		b, err := io.ReadAll(os.Stdin)
		return string(b), err
	case strings.HasPrefix(v, "@"):
		b, err := os.ReadFile(v[1:])
		return string(b), err
	}
	return v, nil
}

func runGraphQL(ctx context.Context, stdout io.Writer, dir string, s *schemas.Schema, d sqlgen.Dialect, a *app.App, who *ir.Caller, doc, vars string, asJSON, analyze bool) (int, error) {
	query, err := readArg(doc)
	if err != nil {
		return 2, err
	}
	req := pg.Request{Query: query}
	if vars != "" {
		raw, err := readArg(vars)
		if err != nil {
			return 2, err
		}
		if err := json.Unmarshal([]byte(raw), &req.Variables); err != nil {
			return 2, fmt.Errorf("--variables: %w", err)
		}
	}
	gcfg, err := gqlschema.LoadConfig(dir)
	if err != nil {
		return 1, err
	}
	gs, err := gqlschema.Build(s, gcfg)
	if err != nil {
		return 1, err
	}
	cfg := planner.DefaultConfig()
	if a != nil {
		cfg = a.REST
	}
	p := &planner.Planner{Schema: s, Config: cfg}
	out := gqlOutput{Request: strings.TrimSpace(query), Dialect: d.Name()}
	code := 0
	op, err := pg.Parse(gs, req, pg.OptionsFrom(gcfg))
	if err != nil {
		var reqErrs pg.RequestErrors
		if !errors.As(err, &reqErrs) {
			return 1, err
		}
		for _, e := range reqErrs {
			out.Errors = append(out.Errors, fmt.Sprintf("%s (%s)", e.Message, e.Code))
		}
		code = 3
	} else {
		for _, rf := range op.Fields {
			f := gqlField{Field: rf.Name, IR: rf.Query}
			switch {
			case rf.Err != nil:
				f.Error = rf.Err.Error()
				code = 3
			case rf.Query == nil:
				f.Error = "not planned (introspection or a custom resolver)"
			case !who.Can(rf.Model.UID + "." + rf.Action):
				f.Error = apierror.Forbidden().Error()
				code = 3
			default:
				pl, err := p.Read(rf.Query, who)
				if err != nil {
					f.Error = err.Error()
					code = 3
					break
				}
				if f.Steps, err = explain.Steps(pl, d); err != nil {
					return 1, err
				}
				if a != nil {
					if err := explain.Run(ctx, a.DB, f.Steps, analyze); err != nil {
						return 1, err
					}
				}
				f.Removed = pl.Removed
			}
			out.Fields = append(out.Fields, f)
		}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return code, enc.Encode(out)
	}
	fmt.Fprintf(stdout, "request:\n%s\n", out.Request)
	for _, e := range out.Errors {
		fmt.Fprintf(stdout, "error: %s\n", e)
	}
	for _, f := range out.Fields {
		fmt.Fprintf(stdout, "\nfield %s:\n", f.Field)
		if f.IR != nil {
			irJSON, _ := json.MarshalIndent(f.IR, "  ", "  ")
			fmt.Fprintf(stdout, "IR:\n  %s\n", irJSON)
		}
		if f.Error != "" {
			fmt.Fprintf(stdout, "error: %s\n", f.Error)
			continue
		}
		fmt.Fprintf(stdout, "plan (%s):\n", d.Name())
		fmt.Fprint(stdout, explain.Format(f.Steps))
		for _, r := range f.Removed {
			fmt.Fprintf(stdout, "removed: %s\n", r)
		}
	}
	return code, nil
}
