package projectcode

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/parser/jsquery"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/envelope"
)

// hostCall answers one call of the project's code to Quarry: op names it, args is its JSON.
// An error the script may catch comes back as {"$error": …}; anything else unexpected is
// logged and answered as an internal error.
func (rt *Runtime) hostCall(v *vm, op, args string) []byte {
	c := v.cur
	if c == nil {
		// Code running outside a request (a module's top level): no database.
		return errorJSON(&apierror.Error{Status: 501, Name: "NotImplementedError", Message: op + " is not available outside a request under Quarry"})
	}
	out, err := rt.do(c, op, []byte(args))
	if err != nil {
		var ae *apierror.Error
		if errors.As(err, &ae) {
			return errorJSON(ae)
		}
		if u := unavailable(err); u != nil {
			return errorJSON(u)
		}
		rt.Log.Error("project code: host call failed", "op", op, "error", err)
		return errorJSON(&apierror.Error{Status: 500, Name: "InternalServerError", Message: "Internal Server Error"})
	}
	return out
}

// unavailable is set by the server: a database error that means "try later".
var unavailable = func(error) *apierror.Error { return nil }

type readArgs struct {
	UID    string          `json:"uid"`
	ID     json.RawMessage `json:"id"`
	Params json.RawMessage `json:"params"`
	// ReadBack is what a write's read of its entry selects and populates ({select,
	// populate}, the query engine's), given by the sandbox for a model whose findOne read
	// hooks run on that read.
	ReadBack json.RawMessage `json:"readBack"`
}

func (rt *Runtime) do(c *call, op string, args []byte) ([]byte, error) {
	switch op {
	case "cookie.sign", "cookie.index":
		return cookieSignature(op, args)
	case "db.transaction.begin":
		if rt.Writes == nil {
			return nil, &apierror.Error{Status: 501, Name: "NotImplementedError", Message: "strapi.db.transaction is not available here"}
		}
		if c.txEnd != nil {
			return nil, errors.New("a transaction is already open")
		}
		ctx, end, err := rt.Writes.Begin(c.ctx)
		if err != nil {
			return nil, err
		}
		c.txOuter, c.ctx, c.txEnd = c.ctx, ctx, end
		return nil, nil
	case "db.transaction.open":
		return json.Marshal(c.txEnd != nil)
	case "db.transaction.end":
		var a struct {
			Commit bool `json:"commit"`
		}
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		return nil, c.endTx(a.Commit)
	case "store.get", "store.set", "store.delete":
		var a database.StoreEntry
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		return rt.Host.CoreStore(c.ctx, strings.TrimPrefix(op, "store."), a)
	case "auth.user":
		var a struct {
			ID int64 `json:"id"`
		}
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		if c.who != nil && c.who.User != nil && c.who.UserID == a.ID {
			return c.who.User, nil
		}
		b, err := rt.Host.User(c.ctx, a.ID)
		if b == nil && err == nil {
			return []byte("null"), nil
		}
		return b, err
	case "net.fetch":
		return rt.fetch(c.ctx, args)
	case "ratelimit.incr":
		return rt.hits.incr(args, time.Now())
	case "eventHub.emit":
		return rt.emitFromCode(c, args)
	case "i18n.defaultLocale":
		// i18n's getDefaultLocale, for its entity-service decorator's locale filter.
		if rt.Localize == nil || rt.Localize.Locales == nil {
			return []byte("null"), nil
		}
		def, err := rt.Localize.Locales.Default(c.ctx)
		if err != nil {
			return nil, err
		}
		return json.Marshal(def)
	case "sanitize.output":
		var v any
		if err := decodeOrdered(args, &v); err != nil {
			return nil, err
		}
		a, _ := v.(*ordered)
		if a == nil {
			return []byte("null"), nil
		}
		data := a.get("data")
		m, ok := rt.model(a.str("uid"))
		if !ok {
			return json.Marshal(data)
		}
		return json.Marshal(rt.sanitizeOutput(c, m, data))
	case "sanitize.query":
		// Strapi drops what the caller may not filter, sort or populate by (private fields,
		// relations it cannot read) and the service then reads as the system: a silently
		// wider result. Quarry checks the query as the REST API would for the caller and
		// refuses it instead (the same 400 REST answers); a query that passes is unchanged.
		var a struct {
			Query json.RawMessage `json:"query"`
		}
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		if err := rt.checkQuery(c, args); err != nil {
			return nil, err
		}
		return a.Query, nil
	case "sanitize.input":
		var v any
		if err := decodeOrdered(args, &v); err != nil {
			return nil, err
		}
		a, _ := v.(*ordered)
		if a == nil {
			return []byte("null"), nil
		}
		data := a.get("data")
		m, ok := rt.model(a.str("uid"))
		if !ok {
			return json.Marshal(data)
		}
		return json.Marshal(rt.sanitizeInput(c, m, data))
	case "validate.query":
		if err := rt.checkQuery(c, args); err != nil {
			return nil, err
		}
		return []byte("null"), nil
	}
	if name, ok := strings.CutPrefix(op, "plugin."); ok {
		i := strings.LastIndexByte(name, '.')
		svc := rt.Services[name[:max(i, 0)]]
		if i < 0 || svc == nil {
			return nil, &apierror.Error{Status: 501, Name: "NotImplementedError", Message: "strapi.plugin service " + name + " is not provided by Quarry"}
		}
		var list []json.RawMessage
		if err := json.Unmarshal(args, &list); err != nil {
			return nil, err
		}
		out, err := svc.Call(c.ctx, c.who, name[i+1:], list)
		if err != nil {
			return nil, err
		}
		return json.Marshal(out)
	}
	style := jsquery.EntityService
	name, ok := strings.CutPrefix(op, "es.")
	if !ok {
		if name, ok = strings.CutPrefix(op, "db."); !ok {
			return nil, apierror.Validation("unknown host call %s", op)
		}
		style = jsquery.QueryEngine
	}
	var a readArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	m, ok := rt.model(a.UID)
	if !ok || !m.IsContentType() {
		return nil, apierror.Validation("Model %s not found", a.UID)
	}
	switch name {
	case "findMany", "findOne", "count", "findPage", "findWithCount":
		return rt.read(c, style, name, m, a)
	case "create", "update", "delete":
		return rt.write(c, style, name, a)
	case "updateMany", "deleteMany":
		if style == jsquery.QueryEngine {
			return rt.writeMany(c, m, name, a)
		}
	case "createMany":
		if style == jsquery.QueryEngine {
			return rt.createMany(c, m, a)
		}
	}
	api := "strapi.entityService." + name
	if style == jsquery.QueryEngine {
		api = "strapi.db.query('" + a.UID + "')." + name
	}
	return nil, &apierror.Error{Status: 501, Name: "NotImplementedError", Message: api + " is not provided by Quarry yet"}
}

// checkQuery plans a controller's query ({uid, query}) as the REST API would for the caller:
// the REST API's 400 for what the caller may not filter, sort, select or populate by.
func (rt *Runtime) checkQuery(c *call, args []byte) error {
	var a struct {
		UID   string          `json:"uid"`
		Query json.RawMessage `json:"query"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return err
	}
	if _, ok := rt.model(a.UID); !ok {
		return nil // Strapi's sanitizers need a model too; the service call that follows says so
	}
	q := &ir.Query{Model: a.UID}
	if err := rest.Parse(QueryString(a.Query), q); err != nil {
		return err
	}
	_, err := rt.Planner.Read(q, c.who)
	return err
}

// read runs a read of the entity service or the query engine and answers it as they do:
// flat entries (relations, components and media nested), a count, or a page.
func (rt *Runtime) read(c *call, style jsquery.Style, op string, m *schemas.Model, a readArgs) ([]byte, error) {
	q := &ir.Query{Model: m.UID, Op: ir.FindMany}
	p, err := jsquery.Lower(a.Params, style, q)
	if err != nil {
		return nil, err
	}
	if rt.populatesRelated(m, q.Populate, 0) {
		// The files' related entries (a morph relation) are read by the upload plugin's
		// routes alone; the planner would leave them out of the answer without a word.
		return nil, &apierror.Error{Status: 501, Name: "NotImplementedError", Message: "populate of plugin::upload.file's related entries in the project's code is not provided by Quarry"}
	}
	one := false
	switch {
	case op == "findOne" && style == jsquery.EntityService && m.Kind != schemas.SingleType:
		id, err := jsquery.ID(a.ID)
		if err != nil {
			return nil, err
		}
		q.Op, q.ID, one = ir.FindOne, id, true
	case op == "findOne":
		one = true
	case op == "findMany" && style == jsquery.EntityService && m.Kind == schemas.SingleType:
		one = true
	}
	if style == jsquery.EntityService && q.Op == ir.FindMany {
		// i18n's entity-service decorator: no locale means the default locale.
		if err := rt.Localize.ReadLocale(c.ctx, m, q); err != nil {
			return nil, err
		}
	}
	count := op == "count" || op == "findPage" || op == "findWithCount"
	if count {
		t := true
		q.Pagination.WithCount = &t
	}
	pl, err := rt.Planner.Read(q, planner.Everyone{})
	if err != nil {
		return nil, err
	}
	switch {
	case one:
		pl.Root.Limit = 1
	case op == "count":
		pl.Root.Limit = 0
	case !p.Limited:
		pl.Root.Limit = -1
	}
	if !count {
		pl.Count, pl.Root.WithTotal = nil, false
	}
	db := rt.DB
	if tx, ok := write.TxFrom(c.ctx); ok {
		// A hook's read sees what its write has written so far.
		db = tx
	}
	res, err := rt.Runner.Run(c.ctx, db, pl)
	if err != nil {
		return nil, err
	}
	defer res.Release()
	if op == "count" {
		return []byte(strconv.FormatInt(res.Total, 10)), nil
	}
	b := envelope.Get()
	defer envelope.Put(b)
	if one {
		if e := res.First(); e != nil {
			b.FlatEntry(pl.Root, e)
		} else {
			b.WriteString("null")
		}
		return bytes.Clone(b.Bytes()), nil
	}
	if op == "findWithCount" {
		b.WriteByte('[')
	} else if op == "findPage" {
		b.WriteString(`{"results":`)
	}
	b.WriteByte('[')
	for i, e := range res.Entries {
		if i > 0 {
			b.WriteByte(',')
		}
		b.FlatEntry(pl.Root, e)
	}
	b.WriteByte(']')
	switch op {
	case "findWithCount":
		b.WriteByte(',')
		b.Int(res.Total)
		b.WriteByte(']')
	case "findPage":
		pm := pl.Page
		page, size := pm.Page, pm.PageSize
		if pm.OffsetMode {
			size = pm.Limit
			if size > 0 {
				page = pm.Start/size + 1
			}
		}
		pages := 0
		if size > 0 {
			pages = int((res.Total + int64(size) - 1) / int64(size))
		}
		fmt.Fprintf(b, `,"pagination":{"page":%d,"pageSize":%d,"pageCount":%d,"total":%d}}`, page, size, pages, res.Total)
	}
	return bytes.Clone(b.Bytes()), nil
}

// native runs a core action of Quarry's for the project's code: its status and JSON body.
// id is nil when the request has none; query and body are JSON (nil when JSON.stringify
// gave undefined, and body nil for none).
func (rt *Runtime) native(c *call, uid, action string, id *string, query, body []byte) (int, string, error) {
	if c == nil {
		return 0, "", &apierror.Error{Status: 501, Name: "NotImplementedError", Message: "a core action is not available outside a request under Quarry"}
	}
	m, ok := rt.model(uid)
	if !ok {
		return 0, "", apierror.Validation("Model %s not found", uid)
	}
	ids := ""
	if id != nil {
		ids = *id
	}
	status, out := rt.Host.Native(c.ctx, m, action, ids, QueryString(query), jsonBody(body), c.who)
	return status, out, nil
}

// requestHeaders are the request's headers as the project's code left them (ctx.request.headers,
// JSON): text as it is, numbers and booleans as their text (Node's http writes them so), and
// nothing for other values; nil when the code gave none.
func requestHeaders(raw []byte) map[string]string {
	var m map[string]any
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil || m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		switch x := v.(type) {
		case string:
			out[strings.ToLower(k)] = x
		case float64:
			out[strings.ToLower(k)] = strconv.FormatFloat(x, 'f', -1, 64)
		case bool:
			out[strings.ToLower(k)] = strconv.FormatBool(x)
		}
	}
	return out
}

// jsonBody is a request body the project's code left (JSON): nil for none or null.
func jsonBody(body []byte) []byte {
	if len(body) == 0 || string(body) == "null" {
		return nil
	}
	return body
}

// nativeRoute answers the request's own route natively for a chain that ends there (app:
// the end of the app-level middlewares, whose ctx.state (JSON, "" when empty) the route's
// code gets), with the query and body (JSON) the chain left.
func (rt *Runtime) nativeRoute(c *call, query, body []byte, app bool, header []byte, state string) (int, string, http.Header) {
	if c == nil {
		return 501, `{"data":null,"error":{"status":501,"name":"NotImplementedError","message":"a plugin's action is not available outside a request under Quarry","details":{}}}`, nil
	}
	if app {
		ctx := c.ctx
		if state != "" {
			ctx = context.WithValue(ctx, appStateKey{}, state)
		}
		h := &callerHolder{}
		status, out, hdr := rt.Host.AppNext(context.WithValue(ctx, callerKey{}, h), c.method, c.path, QueryString(query), jsonBody(body), requestHeaders(header))
		c.routeCaller = h.who
		return status, out, hdr
	}
	status, out := rt.Host.NativeRoute(c.ctx, c.method, c.path, QueryString(query), jsonBody(body))
	return status, out, nil
}

// sanitizeOutput is Strapi's sanitize.contentAPI.output: private attributes and passwords
// go, and relations to types the caller may not read (media stays); relations and media are
// sanitized with their targets' models.
func (rt *Runtime) sanitizeOutput(c *call, m *schemas.Model, data any) any {
	return rt.sanitize(c, m, data, sanitizeRules{
		drop: func(_ string, a *schemas.Attribute) bool {
			return a != nil && (a.Private || a.Type == schemas.Password)
		},
		targets: true,
	})
}

// sanitizeInput is Strapi's sanitize.contentAPI.input: the attributes no one writes (the
// entry's id and timestamps) go, and relations to types the caller may not read (media
// stays); other keys stay for the write to check. The ids of components and dynamic-zone
// items stay: they say which of the entry's components an update keeps (Strapi omits
// only the first level's id).
func (rt *Runtime) sanitizeInput(c *call, m *schemas.Model, data any) any {
	return rt.sanitize(c, m, data, sanitizeRules{
		drop:     func(k string, _ *schemas.Attribute) bool { return k == "id" || k == "createdAt" || k == "updatedAt" },
		rootOnly: true,
	})
}

// sanitizeRules say what one of Strapi's sanitizers removes besides relations to types the
// caller may not read, which both remove.
type sanitizeRules struct {
	drop    func(key string, a *schemas.Attribute) bool // a is nil for a key that is no attribute
	targets bool                                        // relations and media: sanitized with their targets' models
	// rootOnly applies drop to the entries' own keys only, not to those of their components.
	rootOnly bool
}

// sanitize copies entries of m (an object or a list of them, keys in order) without what
// the rules remove, components and dynamic-zone items with their own models.
func (rt *Runtime) sanitize(c *call, m *schemas.Model, data any, r sanitizeRules) any {
	switch d := data.(type) {
	case []any:
		out := make([]any, 0, len(d))
		for _, x := range d {
			out = append(out, rt.sanitize(c, m, x, r))
		}
		return out
	case *ordered:
		out := &ordered{}
		nested := r
		if r.rootOnly {
			nested.drop = func(string, *schemas.Attribute) bool { return false }
			nested.rootOnly = false
		}
		for i, k := range d.keys {
			v := d.vals[i]
			a, _ := m.Attr(k)
			if r.drop(k, a) {
				continue
			}
			if a != nil {
				switch a.Type {
				case schemas.Relation, schemas.Media:
					if a.Type == schemas.Relation && a.Target != nil && !c.who.CanFind(a.Target.UID) {
						continue
					}
					if r.targets && a.Target != nil {
						v = rt.sanitize(c, a.Target, v, nested)
					}
				case schemas.ComponentT:
					v = rt.sanitize(c, a.Components[0], v, nested)
				case schemas.DynamicZone:
					if list, ok := v.([]any); ok {
						items := make([]any, 0, len(list))
						for _, it := range list {
							if o, ok := it.(*ordered); ok {
								if comp, ok := rt.model(o.str("__component")); ok {
									it = rt.sanitize(c, comp, o, nested)
								}
							}
							items = append(items, it)
						}
						v = items
					}
				}
			}
			out.keys = append(out.keys, k)
			out.vals = append(out.vals, v)
		}
		return out
	}
	return data
}

// ordered is a JSON object that keeps its keys' order through a round trip.
type ordered struct {
	keys []string
	vals []any
}

func (o *ordered) get(k string) any {
	for i, key := range o.keys {
		if key == k {
			return o.vals[i]
		}
	}
	return nil
}

func (o *ordered) str(k string) string { s, _ := o.get(k).(string); return s }

func (o *ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(o.vals[i])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// decodeOrdered decodes JSON into a *any with objects as *ordered and numbers as
// json.Number, so that what the project's code gave comes back in its order and digits.
func decodeOrdered(data []byte, dst *any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := orderedValue(dec)
	if err != nil {
		return err
	}
	*dst = v
	return nil
}

func orderedValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			o := &ordered{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := orderedValue(dec)
				if err != nil {
					return nil, err
				}
				o.keys = append(o.keys, kt.(string))
				o.vals = append(o.vals, v)
			}
			_, err := dec.Token()
			return o, err
		}
		list := []any{}
		for dec.More() {
			v, err := orderedValue(dec)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := dec.Token()
		return list, err
	}
	return tok, nil
}

// populatesRelated reports whether pop, populating m, populates the related entries of
// files (their morph relation) at any level: under m itself when m is the file model, or
// under a media attribute, a relation, a component or a dynamic zone's component.
func (rt *Runtime) populatesRelated(m *schemas.Model, pop *ir.Populate, depth int) bool {
	if m == nil || pop == nil || depth > 32 {
		return false
	}
	if m.UID == schemas.FileUID && (pop.All || pop.Find("related") != nil) {
		return true
	}
	for _, f := range pop.Children {
		a, ok := m.Attr(f.Field)
		if !ok {
			continue
		}
		if a.Target != nil && rt.populatesRelated(a.Target, f.Populate, depth+1) {
			return true
		}
		for _, c := range a.Components {
			if rt.populatesRelated(c, f.Populate, depth+1) {
				return true
			}
		}
		for _, on := range f.On {
			if c, ok := rt.model(on.Component); ok && on.Field != nil && rt.populatesRelated(c, on.Field.Populate, depth+1) {
				return true
			}
		}
	}
	return false
}

func (rt *Runtime) model(uid string) (*schemas.Model, bool) {
	m, ok := rt.Schema.Models[uid]
	return m, ok && m != nil
}

// cookieSignature is keygrip's sign (the digest of data with key) and index (which of keys
// signed data as digest, -1 for none), as the cookies package signs ctx.cookies: HMAC-SHA1,
// base64 with '/', '+' and '=' made URL-safe ('_', '-', nothing). Keys never enter the
// answer; index compares in constant time.
func cookieSignature(op string, args []byte) ([]byte, error) {
	var a struct {
		Data   string   `json:"data"`
		Key    string   `json:"key"`
		Digest string   `json:"digest"`
		Keys   []string `json:"keys"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, fmt.Errorf("cookie signature: %w", err)
	}
	sign := func(key string) string {
		m := hmac.New(sha1.New, []byte(key))
		m.Write([]byte(a.Data))
		return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
	}
	if op == "cookie.sign" {
		return json.Marshal(sign(a.Key))
	}
	for i, k := range a.Keys {
		if hmac.Equal([]byte(a.Digest), []byte(sign(k))) {
			return json.Marshal(i)
		}
	}
	return json.Marshal(-1)
}

// appStateKey holds, in a request's context, what the app-level middlewares left in ctx.state
// (JSON of {values, refused}): the route's chain starts from it, as Strapi's koa context is
// one for the whole request.
type appStateKey struct{}
