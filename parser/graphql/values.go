package graphql

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator/core"

	"github.com/quarrycms/quarry/parser/gqlschema"
)

// Obj is an input object value with its keys in the order the client wrote them (literals)
// or sorted (variables, which arrive as JSON objects without a usable order). Filters keep
// their order so that the SQL text, and so the plan cache key, is stable.
type Obj struct {
	Keys []string
	Map  map[string]any
}

// Get returns a key's value and whether it was given.
func (o *Obj) Get(k string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.Map[k]
	return v, ok
}

func (o *Obj) set(k string, v any) {
	if _, dup := o.Map[k]; !dup {
		o.Keys = append(o.Keys, k)
	}
	o.Map[k] = v
}

func newObj() *Obj { return &Obj{Map: map[string]any{}} }

// Coerced input values are Go values: nil, string (String, ID, enums, Date, Time, DateTime
// and Long given as strings), json.Number (Int, Float, Long and JSON numbers, kept as text so
// nothing is lost before the planner casts them), bool, []any, *Obj (input objects) and, inside
// JSON scalars, map[string]any.

// Upload is a value of the Upload scalar: a file part of a GraphQL multipart request
// (https://github.com/jaydenseric/graphql-multipart-request-spec), named by its key in the
// request's map. The transport puts it into the variables at the paths the map gives and
// resolves it to the received file.
type Upload struct{ Part string }

// inputError is a coercion failure, worded as graphql-js words it.
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }

func errf(format string, args ...any) error { return &inputError{fmt.Sprintf(format, args...)} }

// coercer turns variables and literals into coerced values against the schema.
type coercer struct {
	schema *ast.Schema
	gs     *gqlschema.Schema
	vars   map[string]any // coerced variable values
	faults []*pathError   // coercion failures of the variable being coerced
	// orderOf gives the key order of the request's variable objects, when known; keyOrder
	// calls it once.
	orderOf func() KeyOrder
	order   KeyOrder
}

func (c *coercer) keyOrder() KeyOrder {
	if c.orderOf != nil {
		c.order, c.orderOf = c.orderOf(), nil
	}
	return c.order
}

// coerceVariables coerces the raw JSON variables of an operation, reporting every failure
// as graphql-js does.
func (c *coercer) coerceVariables(op *ast.OperationDefinition, raw map[string]any) []*RequestError {
	var errs []*RequestError
	c.vars = map[string]any{}
	for _, vd := range op.VariableDefinitions {
		loc := locations(vd.Position)
		v, given := raw[vd.Variable]
		if !given {
			if vd.DefaultValue != nil {
				dv, _, err := c.literal(vd.DefaultValue, vd.Type)
				if err != nil {
					errs = append(errs, &RequestError{Message: fmt.Sprintf("Variable \"$%s\" has invalid default value: %s", vd.Variable, err), Locations: loc, Code: CodeBadUserInput})
					continue
				}
				c.vars[vd.Variable] = dv
				continue
			}
			if vd.Type.NonNull {
				errs = append(errs, &RequestError{Message: fmt.Sprintf("Variable \"$%s\" of required type \"%s\" was not provided.", vd.Variable, vd.Type.String()), Locations: loc, Code: CodeBadUserInput})
			}
			continue
		}
		if v == nil && vd.Type.NonNull {
			errs = append(errs, &RequestError{Message: fmt.Sprintf("Variable \"$%s\" of non-null type \"%s\" must not be null.", vd.Variable, vd.Type.String()), Locations: loc, Code: CodeBadUserInput})
			continue
		}
		c.faults = nil
		cv := c.value(v, vd.Type, nil)
		if len(c.faults) == 0 {
			c.vars[vd.Variable] = cv
			continue
		}
		for _, pe := range c.faults {
			msg := fmt.Sprintf("Variable \"$%s\" got invalid value %s", vd.Variable, c.keyOrder().inspect(v))
			if len(pe.path) > 0 {
				msg = fmt.Sprintf("Variable \"$%s\" got invalid value %s at \"%s\"", vd.Variable, c.keyOrder().inspect(pe.value), vd.Variable+pe.pathString())
			}
			errs = append(errs, &RequestError{Message: msg + "; " + pe.msg, Locations: loc, Code: CodeBadUserInput})
		}
	}
	return errs
}

// pathError locates a coercion failure inside a variable's value.
type pathError struct {
	path  []any
	value any
	msg   string
}

func (e *pathError) Error() string { return e.msg }

func (e *pathError) pathString() string {
	var b strings.Builder
	for _, p := range e.path {
		switch x := p.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", x)
		case string:
			b.WriteString("." + x)
		}
	}
	return b.String()
}

// fail records a coercion failure; coercion goes on so that every failure is reported.
func (c *coercer) fail(path []any, v any, format string, args ...any) any {
	c.faults = append(c.faults, &pathError{path: append([]any(nil), path...), value: v, msg: fmt.Sprintf(format, args...)})
	return nil
}

// value coerces a JSON value (a variable or part of one) to a type.
func (c *coercer) value(v any, t *ast.Type, path []any) any {
	if v == nil {
		if t.NonNull {
			return c.fail(path, v, "Expected non-nullable type \"%s\" not to be null.", t.String())
		}
		return nil
	}
	if t.Elem != nil {
		list, ok := v.([]any)
		if !ok {
			// A single value where a list is expected is a list of one (GraphQL input coercion).
			return []any{c.value(v, t.Elem, path)}
		}
		out := make([]any, len(list))
		for i, e := range list {
			out[i] = c.value(e, t.Elem, append(path, i))
		}
		return out
	}
	def := c.schema.Types[t.NamedType]
	if def == nil {
		return c.fail(path, v, "Unknown type \"%s\".", t.NamedType)
	}
	switch def.Kind {
	case ast.InputObject:
		m, ok := v.(map[string]any)
		if !ok {
			return c.fail(path, v, "Expected type \"%s\" to be an object.", def.Name)
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := newObj()
		for _, f := range def.Fields {
			fv, given := m[f.Name]
			if !given {
				if f.DefaultValue != nil {
					dv, _, err := c.literal(f.DefaultValue, f.Type)
					if err != nil {
						c.fail(path, v, "%s", err)
					}
					out.set(f.Name, dv)
				} else if f.Type.NonNull {
					c.fail(path, v, "Field \"%s\" of required type \"%s\" was not provided.", f.Name, f.Type.String())
				}
				continue
			}
			out.set(f.Name, c.value(fv, f.Type, append(path, f.Name)))
		}
		for _, k := range keys {
			if def.Fields.ForName(k) == nil {
				msg := fmt.Sprintf("Field \"%s\" is not defined by type \"%s\".", k, def.Name)
				names := make([]string, len(def.Fields))
				for i, f := range def.Fields {
					names[i] = f.Name
				}
				if sug := core.SuggestionList(k, names); len(sug) > 0 {
					msg += " Did you mean " + core.QuotedOrList(sug...) + "?"
				}
				c.fail(path, v, "%s", msg)
			}
		}
		sortObj(out)
		return out
	case ast.Enum:
		s, ok := v.(string)
		if !ok || def.EnumValues.ForName(s) == nil {
			msg := fmt.Sprintf("Value %s does not exist in \"%s\" enum.", jsInspect(v), def.Name)
			if ok {
				names := make([]string, len(def.EnumValues))
				for i, ev := range def.EnumValues {
					names[i] = ev.Name
				}
				if sug := core.SuggestionList(s, names); len(sug) > 0 {
					msg += " Did you mean the enum value " + core.QuotedOrList(sug...) + "?"
				}
			}
			return c.fail(path, v, "%s", msg)
		}
		return s
	case ast.Scalar:
		if f := checkScalar(c.gs, def.Name, v, false); f != nil {
			if f.thrown {
				return c.fail(path, v, "%s", f.msg)
			}
			return c.fail(path, v, "Expected type \"%s\". %s", def.Name, f.msg)
		}
		cv, err := scalarValue(def.Name, v)
		if err != nil {
			return c.fail(path, v, "%s", err)
		}
		return cv
	}
	return c.fail(path, v, "Expected an input type, found \"%s\".", def.Name)
}

// sortObj orders a variable object's keys, which JSON decoding lost.
func sortObj(o *Obj) { sort.Strings(o.Keys) }

// scalarValue coerces a JSON value to a scalar.
func scalarValue(name string, v any) (any, error) {
	switch name {
	case "Int":
		n, ok := v.(json.Number)
		if !ok {
			if f, isF := v.(float64); isF {
				n = json.Number(strconv.FormatFloat(f, 'f', -1, 64))
				ok = true
			}
		}
		if !ok {
			return nil, errf("Int cannot represent non-integer value: %s", jsInspect(v))
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil {
			f, ferr := strconv.ParseFloat(string(n), 64)
			if ferr == nil && f == math.Trunc(f) && math.Abs(f) < 1<<31 {
				return json.Number(strconv.FormatInt(int64(f), 10)), nil
			}
			if ferr == nil && f == math.Trunc(f) {
				return nil, errf("Int cannot represent non 32-bit signed integer value: %s", n)
			}
			return nil, errf("Int cannot represent non-integer value: %s", n)
		}
		if i > math.MaxInt32 || i < math.MinInt32 {
			return nil, errf("Int cannot represent non 32-bit signed integer value: %s", n)
		}
		return json.Number(strconv.FormatInt(i, 10)), nil
	case "Float":
		switch x := v.(type) {
		case json.Number:
			if _, err := strconv.ParseFloat(string(x), 64); err != nil {
				return nil, errf("Float cannot represent non numeric value: %s", jsInspect(v))
			}
			return x, nil
		case float64:
			return json.Number(strconv.FormatFloat(x, 'f', -1, 64)), nil
		}
		return nil, errf("Float cannot represent non numeric value: %s", jsInspect(v))
	case "String":
		if s, ok := v.(string); ok {
			return s, nil
		}
		return nil, errf("String cannot represent a non string value: %s", jsInspect(v))
	case "Boolean":
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return nil, errf("Boolean cannot represent a non boolean value: %s", jsInspect(v))
	case "ID":
		switch x := v.(type) {
		case string:
			return x, nil
		case json.Number:
			if _, err := strconv.ParseInt(string(x), 10, 64); err == nil {
				return string(x), nil
			}
		case float64:
			if x == math.Trunc(x) {
				return strconv.FormatFloat(x, 'f', -1, 64), nil
			}
		}
		return nil, errf("ID cannot represent value: %s", jsInspect(v))
	case "Long":
		switch x := v.(type) {
		case string:
			if _, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64); err != nil {
				return nil, errf("BigInt cannot represent non-integer value: %s", jsInspect(v))
			}
			return x, nil
		case json.Number:
			if _, err := strconv.ParseInt(string(x), 10, 64); err != nil {
				return nil, errf("BigInt cannot represent non-integer value: %s", x)
			}
			return x, nil
		case float64:
			return json.Number(strconv.FormatFloat(x, 'f', -1, 64)), nil
		}
		return nil, errf("BigInt cannot represent non-integer value: %s", jsInspect(v))
	case "Date", "Time", "I18NLocaleCode":
		if s, ok := v.(string); ok {
			return s, nil
		}
		return nil, errf("%s cannot represent a non string value: %s", name, jsInspect(v))
	case "DateTime":
		switch x := v.(type) {
		case string:
			return x, nil
		case json.Number:
			return string(x), nil // epoch milliseconds, as graphql-scalars accepts
		}
		return nil, errf("DateTime cannot represent a non string value: %s", jsInspect(v))
	case "Upload":
		// graphql-upload's GraphQLUpload.parseValue: only a file of the multipart request.
		if u, ok := v.(Upload); ok {
			return u, nil
		}
		return nil, errf("Upload value invalid.")
	}
	// JSON, dynamic-zone inputs and extension scalars take any JSON value.
	return v, nil
}

// literal resolves an argument literal (with variables already coerced) to a coerced value.
// present is false when the value is a variable the request did not give and that has no
// default: the argument is then absent, not null.
func (c *coercer) literal(v *ast.Value, t *ast.Type) (any, bool, error) {
	if v == nil {
		return nil, false, nil
	}
	if v.Kind == ast.Variable {
		cv, ok := c.vars[v.Raw]
		if !ok {
			return nil, false, nil
		}
		return cv, true, nil
	}
	if v.Kind == ast.NullValue {
		return nil, true, nil
	}
	if t == nil {
		// Without a type (JSON scalar content), take the value untyped.
		return c.untyped(v), true, nil
	}
	if t.Elem != nil {
		if v.Kind != ast.ListValue {
			cv, present, err := c.literal(v, t.Elem)
			if err != nil || !present {
				return nil, present, err
			}
			return []any{cv}, true, nil
		}
		out := make([]any, 0, len(v.Children))
		for _, ch := range v.Children {
			cv, present, err := c.literal(ch.Value, t.Elem)
			if err != nil {
				return nil, false, err
			}
			if !present {
				cv = nil // an unset variable inside a list is null
			}
			out = append(out, cv)
		}
		return out, true, nil
	}
	def := c.schema.Types[t.NamedType]
	if def == nil {
		return nil, false, errf("Unknown type \"%s\".", t.NamedType)
	}
	switch def.Kind {
	case ast.InputObject:
		if v.Kind != ast.ObjectValue {
			return nil, false, errf("Expected value of type \"%s\", found %s.", t.String(), v.String())
		}
		out := newObj()
		for _, ch := range v.Children {
			f := def.Fields.ForName(ch.Name)
			if f == nil {
				return nil, false, errf("Field \"%s\" is not defined by type \"%s\".", ch.Name, def.Name)
			}
			cv, present, err := c.literal(ch.Value, f.Type)
			if err != nil {
				return nil, false, err
			}
			if present {
				out.set(ch.Name, cv)
			}
		}
		for _, f := range def.Fields {
			if _, ok := out.Map[f.Name]; ok || f.DefaultValue == nil {
				continue
			}
			dv, _, err := c.literal(f.DefaultValue, f.Type)
			if err != nil {
				return nil, false, err
			}
			out.set(f.Name, dv)
		}
		return out, true, nil
	case ast.Enum:
		return v.Raw, true, nil
	case ast.Scalar:
		switch v.Kind {
		case ast.IntValue, ast.FloatValue:
			switch def.Name {
			case "ID", "DateTime":
				// IDs are strings once coerced; a DateTime number is epoch milliseconds.
				return v.Raw, true, nil
			}
			return json.Number(v.Raw), true, nil
		case ast.StringValue, ast.BlockValue:
			return v.Raw, true, nil
		case ast.BooleanValue:
			return v.Raw == "true", true, nil
		case ast.EnumValue:
			return v.Raw, true, nil
		}
		// Object and list literals for JSON-like scalars.
		return c.untyped(v), true, nil
	}
	return nil, false, errf("Expected an input type, found \"%s\".", def.Name)
}

// untyped converts a literal inside a JSON-like scalar: objects become map[string]any.
func (c *coercer) untyped(v *ast.Value) any {
	switch v.Kind {
	case ast.Variable:
		return c.vars[v.Raw]
	case ast.IntValue, ast.FloatValue:
		return json.Number(v.Raw)
	case ast.StringValue, ast.BlockValue, ast.EnumValue:
		return v.Raw
	case ast.BooleanValue:
		return v.Raw == "true"
	case ast.NullValue:
		return nil
	case ast.ListValue:
		out := make([]any, 0, len(v.Children))
		for _, ch := range v.Children {
			out = append(out, c.untyped(ch.Value))
		}
		return out
	case ast.ObjectValue:
		out := make(map[string]any, len(v.Children))
		for _, ch := range v.Children {
			out[ch.Name] = c.untyped(ch.Value)
		}
		return out
	}
	return nil
}

// args coerces a field's arguments, applying argument defaults.
func (c *coercer) args(f *ast.Field) (*Obj, error) {
	out := newObj()
	if f.Definition == nil {
		return out, nil
	}
	for _, a := range f.Arguments {
		ad := f.Definition.Arguments.ForName(a.Name)
		if ad == nil {
			continue
		}
		v, present, err := c.literal(a.Value, ad.Type)
		if err != nil {
			return nil, err
		}
		if present {
			out.set(a.Name, v)
		}
	}
	for _, ad := range f.Definition.Arguments {
		if _, ok := out.Map[ad.Name]; ok || ad.DefaultValue == nil {
			continue
		}
		v, _, err := c.literal(ad.DefaultValue, ad.Type)
		if err != nil {
			return nil, err
		}
		out.set(ad.Name, v)
	}
	return out, nil
}

// jsInspect prints a value as graphql-js's inspect does in error messages.
func jsInspect(v any) string { return KeyOrder(nil).inspect(v) }

// inspect prints a value as Node's util.inspect does in graphql-js messages, objects in
// request order when known (sorted otherwise).
func (o KeyOrder) inspect(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case Upload:
		return "{}"
	case string:
		b, _ := json.Marshal(x)
		return string(b)
	case json.Number:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = o.inspect(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		if len(x) == 0 {
			return "{}"
		}
		keys, known := o.keysOf(x)
		if !known {
			keys = make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
		}
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ": " + o.inspect(x[k])
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return fmt.Sprint(v)
}
