package execute

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quarrycms/quarry/ir/apierror"
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

// customField runs an extension resolver (nil: the field answers null) and writes its
// completed result.
func (x *execution) customField(typeName string, f *pg.Field, parent map[string]any, p *path) done {
	t := fieldType(f)
	if f.Resolver == nil {
		if parent != nil {
			if v, ok := parent[f.Name]; ok {
				return x.complete(t, typeName, f, v, p)
			}
		}
		return x.null()
	}
	next := func(ctx context.Context, rp gqlschema.ResolveParams) (v any, err error) {
		defer func() {
			// Extension code is not ours: a panic in it fails the field, not the server.
			if r := recover(); r != nil {
				err = fmt.Errorf("resolver %s.%s panicked: %v", typeName, f.Name, r)
			}
		}()
		return f.Resolver(ctx, rp)
	}
	v, err := x.resolve(typeName, f, nil, false, parent, next)
	if err != nil {
		x.fieldError(err, f, p)
		return x.settle(t, typeName, f, p, x.w.Len(), failed)
	}
	if f.Entities != nil && !isNil(v) {
		return x.customEntities(typeName, f, v, p)
	}
	if m, ok := v.(map[string]any); ok && f.Object != nil && (m["value"] != nil || m["nodes"] != nil) {
		if ti := x.h.gs.Type(f.Object.Type.Name); ti != nil && (ti.Role == gqlschema.RoleEntityResponse || ti.Role == gqlschema.RoleEntityResponseCollection) {
			// toEntityResponse's answer below a root field: not resolved by Quarry, refused
			// rather than answered as an empty response.
			x.fieldError(&apierror.Error{Status: 501, Name: "NotImplementedError",
				Message: typeName + "." + f.Name + " returns a " + f.Object.Type.Name + " from the format service below a root field, which Quarry does not resolve"}, f, p)
			return x.settle(t, typeName, f, p, x.w.Len(), failed)
		}
	}
	return x.complete(t, typeName, f, v, p)
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

// complete writes v as a value of type t. failed: a non-null position inside got null, or
// v is not a value of t (the error is recorded): the nearest nullable position holding it
// is null in turn, as graphql-js completes values.
func (x *execution) complete(t *ast.Type, parentType string, f *pg.Field, v any, p *path) done {
	if t == nil {
		return x.null()
	}
	if t.NonNull {
		inner := *t
		inner.NonNull = false
		switch x.complete(&inner, parentType, f, v, p) {
		case failed:
			return failed
		case wroteNull:
			x.nonNullError(parentType, f.Name, f, p)
			return failed
		}
		return wrote
	}
	if isNil(v) {
		return x.null()
	}
	if t.Elem != nil {
		rv := reflect.ValueOf(v)
		if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
			x.errs = append(x.errs, &gqlError{Message: fmt.Sprintf("Expected Iterable, but did not find one for field \"%s.%s\".", parentType, f.Name),
				Locations: f.Locations(), Path: p.list(), Code: codeInternal})
			return failed
		}
		x.w.WriteByte('[')
		var ip path // outside the loop, to stay on the stack (see path)
		for i := range rv.Len() {
			if i > 0 {
				x.w.WriteByte(',')
			}
			ip = p.at(i)
			mark := x.w.Len()
			if x.complete(t.Elem, parentType, f, rv.Index(i).Interface(), &ip) == failed {
				if t.Elem.NonNull {
					return failed
				}
				x.nullAt(mark) // a nullable item holds the failure
			}
		}
		x.w.WriteByte(']')
		return wrote
	}
	def := x.h.gs.AST.Types[t.NamedType]
	if def == nil {
		return x.null()
	}
	switch def.Kind {
	case ast.Scalar, ast.Enum:
		lv := leaf(def.Name, v)
		if lv == nil {
			return x.null()
		}
		x.w.value(lv)
		return wrote
	case ast.Object:
		return x.object(f.Object, v, p)
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
				Locations: f.Locations(), Path: p.list(), Code: codeInternal})
			return failed
		}
		return x.object(obj, v, p)
	}
	return x.null()
}

// object writes the fields of an object value.
func (x *execution) object(o *pg.Object, v any, p *path) done {
	if o == nil {
		x.w.WriteString("{}")
		return wrote
	}
	x.w.WriteByte('{')
	var fp path // outside the loop, to stay on the stack (see path)
	for i, f := range o.Fields {
		fp = p.field(f.Key)
		start, mark := x.now(), x.member(i, f.Key)
		if f.Name == "__typename" {
			x.w.Str(o.Type.Name)
			continue
		}
		var d done
		switch src := v.(type) {
		case resolvable:
			d = x.complete(fieldType(f), o.Type.Name, f, src.field(f.Name, f.Args), &fp)
		case map[string]any:
			if f.Resolver != nil {
				d = x.customField(o.Type.Name, f, src, &fp)
			} else {
				d = x.complete(fieldType(f), o.Type.Name, f, src[f.Name], &fp)
			}
		default:
			d = x.complete(fieldType(f), o.Type.Name, f, nil, &fp)
		}
		if x.settled(o.Type.Name, f, &fp, start, mark, d) == failed {
			return failed
		}
	}
	x.w.WriteByte('}')
	return wrote
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
