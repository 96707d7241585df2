package execute

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
)

// Generic completion renders values that do not come from a plan: introspection and the
// results of extension resolvers. Objects are either resolvers (introspection types) or
// maps keyed by field name; a map's "__typename" names its type inside unions.

// resolvable is an object that computes its own fields.
type resolvable interface {
	typeName() string
	field(name string, args *pg.Obj) any
}

// customField runs an extension resolver (nil: the field answers null) and completes its
// result.
func (x *execution) customField(typeName string, f *pg.Field, parent map[string]any, path []any) (any, bool) {
	t := fieldType(f)
	if f.Resolver == nil {
		if parent != nil {
			if v, ok := parent[f.Name]; ok {
				return x.complete(t, typeName, f, v, path)
			}
		}
		return nil, true
	}
	next := func(ctx context.Context, p gqlschema.ResolveParams) (v any, err error) {
		defer func() {
			// Extension code is not ours: a panic in it fails the field, not the server.
			if r := recover(); r != nil {
				err = fmt.Errorf("resolver %s.%s panicked: %v", typeName, f.Name, r)
			}
		}()
		return f.Resolver(ctx, p)
	}
	v, err := x.resolve(typeName, f, nil, false, parent, next)
	if err != nil {
		x.fieldError(err, f, path)
		return x.wrap(t, typeName, f, path, nil, false)
	}
	return x.complete(t, typeName, f, v, path)
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface, reflect.Func:
		return rv.IsNil()
	}
	return false
}

// complete renders v as a value of type t (ok=false: a non-null position below got null).
func (x *execution) complete(t *ast.Type, parentType string, f *pg.Field, v any, path []any) (any, bool) {
	if t == nil {
		return nil, true
	}
	if t.NonNull {
		inner := *t
		inner.NonNull = false
		r, ok := x.complete(&inner, parentType, f, v, path)
		if !ok {
			return nil, false
		}
		if r == nil {
			x.nonNullError(parentType, f.Name, f, path)
			return nil, false
		}
		return r, true
	}
	if isNil(v) {
		return nil, true
	}
	if t.Elem != nil {
		rv := reflect.ValueOf(v)
		if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
			x.errs = append(x.errs, &gqlError{Message: fmt.Sprintf("Expected Iterable, but did not find one for field \"%s.%s\".", parentType, f.Name),
				Locations: f.Locations(), Path: path, Code: codeInternal})
			return nil, true
		}
		out := make([]any, rv.Len())
		for i := range out {
			r, ok := x.complete(t.Elem, parentType, f, rv.Index(i).Interface(), extend(path, i))
			if !ok {
				return nil, true
			}
			out[i] = r
		}
		return out, true
	}
	def := x.h.gs.AST.Types[t.NamedType]
	if def == nil {
		return nil, true
	}
	switch def.Kind {
	case ast.Scalar, ast.Enum:
		return leaf(def.Name, v), true
	case ast.Object:
		return x.object(f.Object, v, path)
	case ast.Union, ast.Interface:
		name := ""
		switch o := v.(type) {
		case resolvable:
			name = o.typeName()
		case map[string]any:
			name, _ = o["__typename"].(string)
		}
		obj := f.Union[name]
		if obj == nil {
			x.errs = append(x.errs, &gqlError{Message: fmt.Sprintf("Abstract type \"%s\" must resolve to an Object type at runtime for field \"%s.%s\".", def.Name, parentType, f.Name),
				Locations: f.Locations(), Path: path, Code: codeInternal})
			return nil, true
		}
		return x.object(obj, v, path)
	}
	return nil, true
}

// object completes the fields of an object value.
func (x *execution) object(o *pg.Object, v any, path []any) (any, bool) {
	if o == nil {
		return &omap{}, true
	}
	m := &omap{}
	for _, f := range o.Fields {
		start := time.Now()
		fp := extend(path, f.Key)
		if f.Name == "__typename" {
			m.set(f.Key, o.Type.Name)
			continue
		}
		var r any
		ok := true
		switch src := v.(type) {
		case resolvable:
			r, ok = x.complete(fieldType(f), o.Type.Name, f, src.field(f.Name, f.Args), fp)
		case map[string]any:
			if f.Resolver != nil {
				r, ok = x.customField(o.Type.Name, f, src, fp)
			} else {
				r, ok = x.complete(fieldType(f), o.Type.Name, f, src[f.Name], fp)
			}
		default:
			r, ok = x.complete(fieldType(f), o.Type.Name, f, nil, fp)
		}
		if !x.set(m, o.Type.Name, f, fp, start, r, ok) {
			return nil, false
		}
	}
	return m, true
}

// leaf serializes a scalar or enum value returned by extension code.
func leaf(typ string, v any) any {
	switch typ {
	case "ID":
		switch x := v.(type) {
		case string:
			return x
		case int64:
			return fmt.Sprint(x)
		case int:
			return fmt.Sprint(x)
		case json.Number:
			return string(x)
		}
		return fmt.Sprint(v)
	case "JSON":
		switch x := v.(type) {
		case json.RawMessage:
			return jsonValue(x)
		case []byte:
			return jsonValue(x)
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil
		}
		return jsonValue(b)
	case "Long":
		switch x := v.(type) {
		case int64:
			return longValue(x)
		case int:
			return longValue(int64(x))
		}
	case "DateTime":
		if t, ok := v.(time.Time); ok {
			return t
		}
	}
	switch x := v.(type) {
	case string, bool, int, int64, float64, json.Number, time.Time:
		return x
	case fmt.Stringer:
		return x.String()
	}
	return v
}
