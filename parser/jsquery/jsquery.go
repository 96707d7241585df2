// Package jsquery lowers the queries a project's JavaScript makes into ir.Query: the params
// of strapi.entityService (filters, populate, fields, sort, start/limit, page/pageSize,
// publicationState, locale) and of strapi.db.query(uid) (where, select, populate, orderBy,
// limit, offset). They reach Quarry as JSON (the sandbox serializes them); their filter,
// populate and sort syntax is the REST API's, so they are rewritten to the REST query's
// shape and lowered by parser/rest, with the entity service's defaults rather than REST's:
// no default page size and no publication-state filter unless asked.
package jsquery

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/parser/qs"
	"github.com/quarrycms/quarry/parser/rest"
)

// Style says whose params these are.
type Style int

const (
	// EntityService is strapi.entityService's params.
	EntityService Style = iota
	// QueryEngine is strapi.db.query(uid)'s params.
	QueryEngine
)

// Params are what Lower found besides the query: whether the call asked for a page.
type Params struct {
	// Limited is true when the params give a limit (start/limit, page/pageSize, limit):
	// the entity service returns every entry otherwise.
	Limited bool
	// Paged is true for page/pageSize (findPage, the core service's find).
	Paged bool
}

// Lower fills q from params (a JSON object; null or empty is no params).
func Lower(params []byte, style Style, q *ir.Query) (Params, error) {
	var out Params
	params = bytes.TrimSpace(params)
	if len(params) == 0 || string(params) == "null" {
		q.PublicationState = "preview"
		return out, nil
	}
	root, err := decode(params)
	if err != nil {
		return out, apierror.Validation("Invalid query params: %v", err)
	}
	if root.Kind != qs.ObjectKind {
		q.PublicationState = "preview"
		return out, nil
	}
	restQ := &qs.Object{}
	page := &qs.Object{}
	add := func(o *qs.Object, k string, v *qs.Value) {
		o.Keys = append(o.Keys, k)
		o.Vals = append(o.Vals, v)
	}
	for i, k := range root.Obj.Keys {
		v := root.Obj.Vals[i]
		if v.Kind == qs.Null && k != "filters" && k != "where" {
			continue
		}
		switch style {
		case EntityService:
			switch k {
			case "start", "limit":
				out.Limited = out.Limited || k == "limit"
				add(page, k, v)
			case "page", "pageSize":
				out.Limited, out.Paged = true, true
				add(page, k, v)
			// The entity service reads no pagination key (the core service turns it into
			// start and limit before calling it).
			case "filters", "populate", "fields", "sort", "publicationState", "locale", "_q":
				add(restQ, k, v)
			}
		case QueryEngine:
			switch k {
			case "where":
				add(restQ, "filters", v)
			case "select":
				add(restQ, "fields", v)
			case "orderBy":
				add(restQ, "sort", v)
			case "populate":
				add(restQ, "populate", v)
			case "limit":
				out.Limited = true
				add(page, "limit", v)
			case "offset":
				add(page, "start", v)
			case "_q":
				add(restQ, "_q", v)
			}
		}
	}
	if page.Len() > 0 {
		add(restQ, "pagination", &qs.Value{Kind: qs.ObjectKind, Obj: page})
	}
	if err := rest.Lower(restQ, q); err != nil {
		return out, err
	}
	if q.PublicationState == "" {
		q.PublicationState = "preview"
	}
	return out, nil
}

// decode reads JSON into qs values in the object's key order: scalars as their text (qs
// never has numbers or booleans, and the REST lowering reads text), null as qs's null.
func decode(data []byte) (*qs.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}

// maxDepth bounds nesting as qs's depth bounds a query string's.
const maxDepth = 32

func decodeValue(dec *json.Decoder, depth int) (*qs.Value, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("nested deeper than %d levels", maxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &qs.Object{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				o.Keys = append(o.Keys, k)
				o.Vals = append(o.Vals, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return &qs.Value{Kind: qs.ObjectKind, Obj: o}, nil
		case '[':
			var arr []*qs.Value
			for dec.More() {
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return &qs.Value{Kind: qs.Array, Arr: arr}, nil
		}
	case string:
		return &qs.Value{Kind: qs.String, Str: t}, nil
	case json.Number:
		return &qs.Value{Kind: qs.String, Str: t.String()}, nil
	case bool:
		return &qs.Value{Kind: qs.String, Str: fmt.Sprint(t)}, nil
	case nil:
		return &qs.Value{Kind: qs.Null}, nil
	}
	return nil, fmt.Errorf("unexpected %v", tok)
}

// ID reads an entry id as the scripts pass it (a number or a numeric string).
func ID(raw json.RawMessage) (string, error) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return "", apierror.Validation("an id is required")
	}
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", apierror.Validation("invalid id")
		}
	}
	return s, nil
}
