package projectconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/go-playground/validator/v10"

	"github.com/quarrycms/quarry/schemas"
)

// The typed views below hold the keys Quarry honours; unknown keys are left alone, as Strapi
// leaves them. Types and ranges are declared with validator tags and checked once at start:
// a violation stops start-up naming the file, the key, the value and what was expected.

// Database is config/database.*.
type Database struct {
	Connection DatabaseConnection `json:"connection"`
}

// DatabaseConnection is database.connection: knex's client, connection and pool.
type DatabaseConnection struct {
	Client     string         `json:"client" validate:"omitempty,oneof=sqlite sqlite3 better-sqlite3 @vscode/sqlite3 postgres pg mysql mysql2"`
	Connection DatabaseParams `json:"connection"`
	Pool       DatabasePool   `json:"pool"`
	// AcquireConnectionTimeout is knex's wait for a connection, in milliseconds: how long
	// start-up waits for a database that is not up yet.
	AcquireConnectionTimeout *FlexInt `json:"acquireConnectionTimeout" validate:"omitnil,min=0"`
	// Replicas is Quarry's own key (knex ignores it): PostgreSQL read replicas as
	// connection URLs, which reads go to when they have caught up (see sqlgen/database).
	Replicas []string `json:"replicas" validate:"omitempty,dive,required"`
}

// DatabaseParams is database.connection.connection.
type DatabaseParams struct {
	ConnectionString string    `json:"connectionString"`
	Host             string    `json:"host"`
	Port             *FlexInt  `json:"port" validate:"omitnil,min=0,max=65535"`
	Database         string    `json:"database"`
	User             string    `json:"user"`
	Password         string    `json:"password"`
	Schema           OptString `json:"schema"`
	SSL              SSL       `json:"ssl"`
	Filename         string    `json:"filename"`
}

// DatabasePool is database.connection.pool (tarn's min and max).
type DatabasePool struct {
	Min *FlexInt `json:"min" validate:"omitnil,min=0"`
	Max *FlexInt `json:"max" validate:"omitnil,min=1"`
	// AcquireTimeoutMillis is tarn's acquire timeout (knex takes the smaller of it and
	// acquireConnectionTimeout).
	AcquireTimeoutMillis *FlexInt `json:"acquireTimeoutMillis" validate:"omitnil,min=0"`
}

// SSL is connection.ssl: false, true, or node-postgres's TLS options object.
type SSL struct {
	Enabled bool
	// RejectUnauthorized is false when the server's certificate is not to be verified.
	RejectUnauthorized bool
}

// UnmarshalJSON takes a boolean, null, or an object (enabled; rejectUnauthorized defaults to
// true as in Node's tls).
func (s *SSL) UnmarshalJSON(b []byte) error {
	*s = SSL{}
	switch {
	case string(b) == "null" || string(b) == "false":
		return nil
	case string(b) == "true":
		*s = SSL{Enabled: true, RejectUnauthorized: true}
		return nil
	case bytes.HasPrefix(b, []byte("{")):
		var o struct {
			RejectUnauthorized *bool `json:"rejectUnauthorized"`
		}
		if err := json.Unmarshal(b, &o); err != nil {
			return err
		}
		*s = SSL{Enabled: true, RejectUnauthorized: o.RejectUnauthorized == nil || *o.RejectUnauthorized}
		return nil
	}
	return &json.UnmarshalTypeError{Value: jsonKind(b), Type: reflect.TypeFor[SSL]()}
}

// Server is config/server.*.
type Server struct {
	Host  string   `json:"host"`
	Port  *FlexInt `json:"port" validate:"omitnil,min=0,max=65535"`
	URL   string   `json:"url"`
	Proxy bool     `json:"proxy"`
}

// API is config/api.*.
type API struct {
	REST struct {
		Prefix       *string  `json:"prefix" validate:"omitnil,startswith=/"`
		DefaultLimit *FlexInt `json:"defaultLimit" validate:"omitnil,min=1"`
		MaxLimit     *FlexInt `json:"maxLimit" validate:"omitnil,min=1"`
		WithCount    *bool    `json:"withCount"`
	} `json:"rest"`
}

// Admin is config/admin.* (only what the content API uses).
type Admin struct {
	APIToken struct {
		Salt string `json:"salt"`
	} `json:"apiToken"`
}

// Plugin is one entry of config/plugins.*: `true`/`false`, or {enabled, resolve, config}.
type Plugin struct {
	Enabled *bool          `json:"enabled"`
	Resolve string         `json:"resolve"`
	Config  map[string]any `json:"config"`
}

// UnmarshalJSON takes Strapi's boolean shorthand too.
func (p *Plugin) UnmarshalJSON(b []byte) error {
	*p = Plugin{}
	switch string(b) {
	case "true", "false":
		on := string(b) == "true"
		p.Enabled = &on
		return nil
	case "null":
		return nil
	}
	type plain Plugin
	if !bytes.HasPrefix(b, []byte("{")) {
		return &json.UnmarshalTypeError{Value: jsonKind(b), Type: reflect.TypeFor[Plugin]()}
	}
	return json.Unmarshal(b, (*plain)(p))
}

// IsEnabled is Strapi's rule: a declared plugin is enabled unless it says enabled: false
// (its `enabled` key is read as JavaScript truthiness).
func (p Plugin) IsEnabled() bool { return p.Enabled == nil || *p.Enabled }

// Plugins are the plugin configurations Quarry implements, typed for checking.
type Plugins struct {
	UsersPermissions struct {
		Config struct {
			JWTSecret *string `json:"jwtSecret"`
			JWT       struct {
				ExpiresIn *StringOrNumber `json:"expiresIn"`
			} `json:"jwt"`
			Register struct {
				AllowedFields []string `json:"allowedFields"`
			} `json:"register"`
			RateLimit struct {
				Enabled  *bool           `json:"enabled"`
				Interval *StringOrNumber `json:"interval"`
				Max      *FlexInt        `json:"max" validate:"omitnil,min=0"`
			} `json:"ratelimit"`
		} `json:"config"`
	} `json:"users-permissions"`
	GraphQL struct {
		Config struct {
			Endpoint         *string  `json:"endpoint" validate:"omitnil,startswith=/"`
			PlaygroundAlways *bool    `json:"playgroundAlways"`
			DepthLimit       *FlexInt `json:"depthLimit" validate:"omitnil,min=0"`
			AmountLimit      *FlexInt `json:"amountLimit" validate:"omitnil,min=0"`
			DefaultLimit     *FlexInt `json:"defaultLimit" validate:"omitnil,min=1"`
			MaxLimit         *FlexInt `json:"maxLimit" validate:"omitnil,min=-1"`
			TypeDefs         *string  `json:"typeDefs"`
		} `json:"config"`
	} `json:"graphql"`
	Upload struct {
		Config struct {
			SizeLimit            *float64       `json:"sizeLimit" validate:"omitnil,gt=0"`
			Breakpoints          map[string]int `json:"breakpoints" validate:"omitempty,dive,min=1"`
			ResponsiveDimensions *bool          `json:"responsiveDimensions"`
			SizeOptimization     *bool          `json:"sizeOptimization"`
			// Provider is any provider package; those Quarry does not have leave the media
			// library read-only (the upload plugin's Config.Unsupported).
			Provider string `json:"provider"`
		} `json:"config"`
	} `json:"upload"`
	I18n struct {
		Locales []struct {
			Code string `json:"code" validate:"required"`
			Name string `json:"name"`
		} `json:"locales" validate:"dive"`
		DefaultLocale string `json:"defaultLocale"`
	} `json:"i18n"`
}

// Middleware is one entry of config/middlewares.*: a name, or {name, config, resolve}.
type Middleware struct {
	Name    string         `json:"name"`
	Resolve string         `json:"resolve"`
	Config  map[string]any `json:"config"`
}

// UnmarshalJSON takes the name shorthand.
func (m *Middleware) UnmarshalJSON(b []byte) error {
	*m = Middleware{}
	if bytes.HasPrefix(b, []byte(`"`)) {
		return json.Unmarshal(b, &m.Name)
	}
	if !bytes.HasPrefix(b, []byte("{")) {
		return &json.UnmarshalTypeError{Value: jsonKind(b), Type: reflect.TypeFor[Middleware]()}
	}
	type plain Middleware
	return json.Unmarshal(b, (*plain)(m))
}

// BodyConfig is strapi::body's configuration (koa-body's limits).
type BodyConfig struct {
	JSONLimit  *ByteSize `json:"jsonLimit"`
	FormLimit  *ByteSize `json:"formLimit"`
	TextLimit  *ByteSize `json:"textLimit"`
	Formidable struct {
		MaxFileSize *FlexInt `json:"maxFileSize" validate:"omitnil,min=1"`
	} `json:"formidable"`
}

// FlexInt is an integer that may come as a string of digits: ports and pool sizes are often
// written env('PORT', 1337), which is a string when the variable is set, and node-postgres,
// tarn and Node's listen take it.
type FlexInt int

// UnmarshalJSON takes an integer or a string holding one.
func (n *FlexInt) UnmarshalJSON(b []byte) error {
	s := string(b)
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		return &json.UnmarshalTypeError{Value: jsonKind(b), Type: reflect.TypeFor[FlexInt]()}
	}
	*n = FlexInt(f)
	return nil
}

// Int returns the value, def when nil.
func (n *FlexInt) Int(def int) int {
	if n == nil {
		return def
	}
	return int(*n)
}

// OptString is a string that may be given as false or null, which Strapi's dialects take as
// not given (`schema: false` in a SQLite project's connection).
type OptString string

// UnmarshalJSON takes a string, false or null.
func (o *OptString) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "false", "null":
		*o = ""
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return &json.UnmarshalTypeError{Value: jsonKind(b), Type: reflect.TypeFor[string]()}
	}
	*o = OptString(s)
	return nil
}

// StringOrNumber is a value given as a string ("30d", "1m") or a number (seconds, ms).
type StringOrNumber struct {
	String string
	Number *float64
}

// UnmarshalJSON takes a string or a number.
func (v *StringOrNumber) UnmarshalJSON(b []byte) error {
	*v = StringOrNumber{}
	if bytes.HasPrefix(b, []byte(`"`)) {
		return json.Unmarshal(b, &v.String)
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return &json.UnmarshalTypeError{Value: jsonKind(b), Type: reflect.TypeFor[StringOrNumber]()}
	}
	v.Number = &f
	return nil
}

// ByteSize is a koa-body limit: a number of bytes or a string the `bytes` package parses
// ("1mb", "56kb", "100"; units are powers of 1024).
type ByteSize int64

var byteSizeExpr = regexp.MustCompile(`(?i)^((-|\+)?(\d+(?:\.\d+)?)) *(kb|mb|gb|tb|pb)$`)

// UnmarshalJSON takes a number or a bytes string.
func (n *ByteSize) UnmarshalJSON(b []byte) error {
	bad := &json.UnmarshalTypeError{Value: jsonKind(b), Type: reflect.TypeFor[ByteSize]()}
	if !bytes.HasPrefix(b, []byte(`"`)) {
		var f float64
		if err := json.Unmarshal(b, &f); err != nil || f <= 0 {
			return bad
		}
		*n = ByteSize(f)
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return bad
	}
	v, ok := ParseBytes(s)
	if !ok || v <= 0 {
		return bad
	}
	*n = ByteSize(v)
	return nil
}

// ParseBytes parses a size as the `bytes` package (koa-body's) does: "1mb" is 1048576; a
// string without a unit is a number of bytes (parseInt).
func ParseBytes(s string) (int64, bool) {
	m := byteSizeExpr.FindStringSubmatch(s)
	unit := 1.0
	var f float64
	var err error
	if m == nil {
		// parseInt(s, 10): leading digits only.
		t := strings.TrimLeft(s, " \t\n\r")
		end := 0
		if end < len(t) && (t[end] == '-' || t[end] == '+') {
			end++
		}
		for end < len(t) && t[end] >= '0' && t[end] <= '9' {
			end++
		}
		if f, err = strconv.ParseFloat(t[:end], 64); err != nil {
			return 0, false
		}
	} else {
		f, _ = strconv.ParseFloat(m[1], 64)
		unit = map[string]float64{"kb": 1 << 10, "mb": 1 << 20, "gb": 1 << 30, "tb": 1 << 40, "pb": 1 << 50}[strings.ToLower(m[4])]
	}
	return int64(math.Floor(f * unit)), true
}

func jsonKind(b []byte) string {
	switch {
	case len(b) == 0:
		return "nothing"
	case b[0] == '"':
		return "string"
	case b[0] == '{':
		return "object"
	case b[0] == '[':
		return "array"
	case b[0] == 't' || b[0] == 'f':
		return "bool"
	case b[0] == 'n':
		return "null"
	}
	return "number"
}

// KeyError is a configuration value of the wrong type or out of range.
type KeyError struct {
	File     string // the file that set it, relative to the project
	Key      string // its path, e.g. rest.maxLimit
	Value    any
	Expected string
}

func (e *KeyError) Error() string {
	v, _ := json.Marshal(e.Value)
	return fmt.Sprintf("%s: %s is %s, expected %s", e.File, e.Key, v, e.Expected)
}

// validate is built once: validator caches each struct's rules on first use.
var validate = func() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			return ""
		}
		return name
	})
	// Registration fails only for an empty tag or a nil function.
	_ = v.RegisterValidation("customfieldtype", func(fl validator.FieldLevel) bool {
		return schemas.IsCustomFieldType(fl.Field().String())
	})
	return v
}()

// Decode decodes a configuration name (the part under prefix, a dotted path such as "" or
// "users-permissions") into out and checks out's validator constraints.
func (p *Project) Decode(name string, out any) error {
	v, ok := p.merged[name]
	if !ok {
		return nil
	}
	return p.decodeValue(name, v, out)
}

func (p *Project) decodeValue(name string, v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, out); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			path := strings.Split(te.Field, ".")
			if te.Field == "" {
				path = nil
			}
			// encoding/json names a map or list, not its element: find the element.
			if within, ok := lookupPath(v, path); ok && valueKind(within) != te.Value {
				path = append(path, elementOfKind(within, te.Value)...)
			}
			return p.keyErrorAt(name, path, expectedOf(te.Type))
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("%s: %w", strings.Join(p.Files(name), ", "), err)
		}
		return fmt.Errorf("%s: %w", strings.Join(p.Files(name), ", "), err)
	}
	if rv := reflect.ValueOf(out); rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return nil
	}
	if err := validate.Struct(out); err != nil {
		var ves validator.ValidationErrors
		if errors.As(err, &ves) && len(ves) > 0 {
			fe := ves[0]
			ns := fe.Namespace()
			if _, rest, ok := strings.Cut(ns, "."); ok {
				ns = rest
			}
			return p.keyErrorAt(name, nsPath(ns), constraintText(fe))
		}
		return err
	}
	return nil
}

// nsPath splits a validator namespace ("a.b[0].c", "customFields[plugin::x.y]") into keys;
// what is between brackets is one key, dots included.
func nsPath(ns string) []string {
	var path []string
	for ns != "" {
		i := strings.IndexAny(ns, ".[")
		switch {
		case i < 0:
			return append(path, ns)
		case ns[i] == '.':
			if i > 0 {
				path = append(path, ns[:i])
			}
			ns = ns[i+1:]
		default:
			if i > 0 {
				path = append(path, ns[:i])
			}
			end := strings.IndexByte(ns[i:], ']')
			if end < 0 {
				return append(path, ns[i+1:])
			}
			path = append(path, ns[i+1:i+end])
			ns = ns[i+end+1:]
		}
	}
	return path
}

func (p *Project) keyError(name, key, expected string) error {
	path := strings.Split(key, ".")
	if key == "" {
		path = nil
	}
	return p.keyErrorAt(name, path, expected)
}

func (p *Project) keyErrorAt(name string, path []string, expected string) error {
	val, _ := lookupPath(p.merged[name], path)
	return &KeyError{File: p.SourceOf(name, path), Key: strings.Join(path, "."), Value: val, Expected: expected}
}

// valueKind names a decoded value's JSON kind as json.UnmarshalTypeError.Value does.
func valueKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "bool"
	case nil:
		return "null"
	}
	return "number"
}

// elementOfKind is the path, below v, of the first element (keys sorted) of a JSON kind.
func elementOfKind(v any, kind string) []string {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if valueKind(t[k]) == kind {
				return []string{k}
			}
			if sub := elementOfKind(t[k], kind); sub != nil {
				return append([]string{k}, sub...)
			}
		}
	case []any:
		for i, e := range t {
			if valueKind(e) == kind {
				return []string{strconv.Itoa(i)}
			}
			if sub := elementOfKind(e, kind); sub != nil {
				return append([]string{strconv.Itoa(i)}, sub...)
			}
		}
	}
	return nil
}

func lookupPath(v any, path []string) (any, bool) {
	for _, k := range path {
		switch t := v.(type) {
		case map[string]any:
			x, ok := t[k]
			if !ok {
				return nil, false
			}
			v = x
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(t) {
				return nil, false
			}
			v = t[i]
		default:
			return nil, false
		}
	}
	return v, true
}

func expectedOf(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case reflect.TypeFor[FlexInt]():
		return "an integer"
	case reflect.TypeFor[SSL]():
		return "a boolean or an object of TLS options"
	case reflect.TypeFor[Plugin]():
		return "a boolean or an object {enabled, config}"
	case reflect.TypeFor[Middleware]():
		return "a middleware name or an object {name, config}"
	case reflect.TypeFor[StringOrNumber]():
		return "a string or a number"
	case reflect.TypeFor[ByteSize]():
		return `a positive size (a number of bytes or a string such as "1mb")`
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean (true or false; env.bool reads one from the environment)"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Float64:
		return "a number"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Slice:
		return "a list"
	}
	return t.String()
}

func constraintText(fe validator.FieldError) string {
	switch fe.Tag() {
	case "min":
		return "a value of at least " + fe.Param()
	case "max":
		return "a value of at most " + fe.Param()
	case "gt":
		return "a value greater than " + fe.Param()
	case "oneof":
		return "one of " + strings.Join(strings.Fields(fe.Param()), ", ")
	case "startswith":
		return fmt.Sprintf("a path starting with %q", fe.Param())
	case "required":
		return "a value"
	case "customfieldtype":
		return "a type a custom field can have (" + strings.Join(schemas.CustomFieldTypes(), ", ") + ")"
	}
	return fe.Tag() + " " + fe.Param()
}
