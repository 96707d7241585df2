package graphql

import (
	"encoding/json"
	"strings"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/schemas"
)

// inputData turns a <Type>Input value into the payload the REST body would carry for the
// same write: enum members become the stored values, dynamic-zone items name their
// component with __component, ids stay as given. The writer then validates it exactly as
// it validates REST bodies.
func (l *lowerer) inputData(m *schemas.Model, v any) (map[string]any, error) {
	o, ok := v.(*Obj)
	if !ok || o == nil {
		return nil, apierror.Validation(`Missing "data" payload in the request body`)
	}
	return l.inputObject(m, o, false)
}

func (l *lowerer) inputObject(m *schemas.Model, o *Obj, component bool) (map[string]any, error) {
	out := make(map[string]any, len(o.Keys))
	for _, k := range o.Keys {
		v := o.Map[k]
		if component && k == "id" {
			out[k] = idValue(v)
			continue
		}
		a, ok := l.s.InputAttr(m, k)
		if !ok {
			continue // not writable here; the schema's validation let it through only if typeDefs added it
		}
		cv, err := l.inputValue(m, a, v)
		if err != nil {
			return nil, err
		}
		out[k] = cv
	}
	return out, nil
}

func (l *lowerer) inputValue(m *schemas.Model, a *schemas.Attribute, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch a.Type {
	case schemas.Enumeration:
		s, _ := v.(string)
		if stored, ok := l.s.EnumIn(a, s); ok {
			return stored, nil
		}
		return s, nil
	case schemas.ComponentT:
		comp := a.Components[0]
		if list, ok := v.([]any); ok {
			out := make([]any, 0, len(list))
			for _, e := range list {
				eo, ok := e.(*Obj)
				if !ok {
					out = append(out, plain(e))
					continue
				}
				cv, err := l.inputObject(comp, eo, true)
				if err != nil {
					return nil, err
				}
				out = append(out, cv)
			}
			return out, nil
		}
		if eo, ok := v.(*Obj); ok {
			return l.inputObject(comp, eo, true)
		}
		return plain(v), nil
	case schemas.Relation, schemas.Media:
		if list, ok := v.([]any); ok {
			out := make([]any, len(list))
			for i, e := range list {
				out[i] = idValue(e)
			}
			return out, nil
		}
		return idValue(v), nil
	case schemas.DynamicZone:
		list, ok := v.([]any)
		if !ok {
			list = []any{v}
		}
		out := make([]any, 0, len(list))
		for _, e := range list {
			item, err := l.zoneItem(a, e)
			if err != nil {
				return nil, err
			}
			out = append(out, item)
		}
		return out, nil
	}
	return plain(v), nil
}

// zoneItem converts one dynamic-zone input {__typename: "ComponentSharedSeo", ...} into
// {__component: "shared.seo", ...}. Like Strapi, it looks the type name up among all
// components and names the zone's components when it finds none.
func (l *lowerer) zoneItem(a *schemas.Attribute, e any) (any, error) {
	var m map[string]any
	switch x := e.(type) {
	case map[string]any:
		m = x
	case *Obj:
		m = x.Map
	}
	notFound := func() error {
		names := make([]string, len(a.Components))
		for i, c := range a.Components {
			names[i] = l.s.TypeName(c)
		}
		return apierror.Application("Component not found. expected one of: " + strings.Join(names, ", "))
	}
	if m == nil {
		return nil, notFound()
	}
	tn, _ := m["__typename"].(string)
	var comp *schemas.Model
	for _, c := range l.s.Content.Components {
		if l.s.TypeName(c) == tn {
			comp = c
			break
		}
	}
	if comp == nil {
		return nil, notFound()
	}
	out := map[string]any{"__component": comp.UID}
	for k, v := range m {
		if k == "__typename" {
			continue
		}
		out[k] = plain(v)
		if ca, ok := comp.Attr(k); ok && ca.Type == schemas.Enumeration {
			if s, ok := v.(string); ok {
				if stored, ok := l.s.EnumIn(ca, s); ok {
					out[k] = stored
				}
			}
		}
	}
	return out, nil
}

// idValue gives a numeric ID the form a JSON body gives it (a number), so the writer sees
// what it sees for REST.
func idValue(v any) any {
	s, ok := v.(string)
	if !ok || s == "" {
		return v
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return v
		}
	}
	return json.Number(s)
}

// plain converts coerced values back to JSON-like Go values (objects as maps).
func plain(v any) any {
	switch x := v.(type) {
	case *Obj:
		out := make(map[string]any, len(x.Keys))
		for _, k := range x.Keys {
			out[k] = plain(x.Map[k])
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = plain(e)
		}
		return out
	}
	return v
}
