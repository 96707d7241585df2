package projectcode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/parser/jsquery"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/schemas/jseval"
	"github.com/quarrycms/quarry/transport/envelope"
)

// Writer is the one write path the project's writes go through (planner/write.Service).
type Writer interface {
	Apply(ctx context.Context, q *ir.Query, who *ir.Caller) (*write.Result, error)
	UpdateMany(ctx context.Context, m *schemas.Model, ids []int64, data map[string]any) (int64, error)
	DeleteMany(ctx context.Context, m *schemas.Model, ids []int64) (int64, error)
	CreateMany(ctx context.Context, m *schemas.Model, rows []map[string]any) ([]int64, error)
	// Begin opens a write transaction (strapi.db.transaction) that end commits or rolls
	// back: see planner/write.Service.Begin.
	Begin(ctx context.Context) (context.Context, func(ctx context.Context, commit bool) error, error)
}

// vmKey carries, in a request's context, the sandbox its script runs in: a write that
// script makes runs its lifecycle hooks in another sandbox (goja settles promises only
// when the outermost call returns, so a hook cannot run nested in the caller's).
type vmKey struct{}

// write runs strapi.entityService.create/update/delete and strapi.db.query(uid)'s
// create/update/delete through the one write path, as the system (no permission check),
// and answers the entry flat, as Strapi's entity service returns it.
func (rt *Runtime) write(c *call, style jsquery.Style, op string, a readArgs) ([]byte, error) {
	params, err := rt.writeParams(a)
	if err != nil {
		return nil, err
	}
	m, _ := rt.model(a.UID)
	q := &ir.Query{Model: m.UID, Via: ir.ViaEntityService}
	if style == jsquery.QueryEngine {
		// The query engine's writes run the hooks but announce no entry.* event (no eventHub
		// listener, no webhook).
		q.Via = ir.ViaQueryEngine
	}
	readParams := a.Params
	switch op {
	case "create":
		q.Op = ir.Create
	case "update":
		q.Op = ir.Update
	case "delete":
		q.Op = ir.Delete
	default:
		return nil, &apierror.Error{Status: 501, Name: "NotImplementedError", Message: fmt.Sprintf("%s is not provided by Quarry yet", op)}
	}
	if q.Op != ir.Create && m.Kind != schemas.SingleType {
		id, err := rt.writeTarget(c, style, m, a, params.Where)
		if err != nil {
			return nil, err
		}
		if id == "" {
			return []byte("null"), nil
		}
		q.ID = id
	}
	if q.Op != ir.Delete {
		if err := setData(q, params.Data); err != nil {
			return nil, err
		}
	}
	// The entry answered is read with the call's fields and populate.
	rq := &ir.Query{Model: m.UID}
	if _, err := jsquery.Lower(stripWriteKeys(readParams), style, rq); err != nil {
		return nil, err
	}
	q.Fields, q.Populate, q.Locale = rq.Fields, rq.Populate, rq.Locale
	// The hooks of this write read its entry back with what the call selects; a write a
	// hook makes in turn has its own (a nested call's value hides this one).
	ctx := context.WithValue(c.ctx, readBackKey{}, &readBack{q: q, params: a.ReadBack})
	res, err := rt.Writes.Apply(ctx, q, ir.System)
	if err != nil {
		return nil, err
	}
	if res != nil && res.Hooked != nil {
		// The entry as the model's findOne and after hooks left it, as Strapi returns it.
		return res.Hooked, nil
	}
	if res == nil || res.Entry == nil || res.Plan == nil {
		return []byte("null"), nil
	}
	b := envelope.Get()
	defer envelope.Put(b)
	b.FlatEntry(res.Plan.Root, res.Entry)
	return bytes.Clone(b.Bytes()), nil
}

// readBackKey carries, in a write's context, what the project's code asked its write to
// answer with (readBack), for the hooks that read the entry back.
type readBackKey struct{}

type readBack struct {
	q      *ir.Query       // the write
	params json.RawMessage // {select, populate} of the query engine; nil for none
}

// readBackOf is the read-back params of the write a hook runs for (nil when the write was
// not made by the project's code, which passes none: REST's and GraphQL's own writes).
func readBackOf(ctx context.Context, l *write.Lifecycle) json.RawMessage {
	rb, ok := ctx.Value(readBackKey{}).(*readBack)
	if !ok || l.Params == nil || rb.q.Model != l.Model.UID || rb.q.Op != l.Params.Op {
		return nil
	}
	// A single type's write names no id (the write path finds its entry): its hooks' params
	// do, and are the write's.
	if l.Params != rb.q && rb.q.ID != l.Params.ID && !(rb.q.ID == "" && l.Model.Kind == schemas.SingleType) {
		return nil
	}
	return rb.params
}

// writeParams are a write call's data and where, once the runtime has a write path.
func (rt *Runtime) writeParams(a readArgs) (params struct {
	Data  json.RawMessage `json:"data"`
	Where json.RawMessage `json:"where"`
}, err error) {
	if rt.Writes == nil {
		return params, &apierror.Error{Status: 501, Name: "NotImplementedError", Message: "writes from the project's code are not available"}
	}
	if len(a.Params) > 0 {
		if err := json.Unmarshal(a.Params, &params); err != nil {
			return params, apierror.Validation("Invalid params: %v", err)
		}
	}
	return params, nil
}

// writeMany runs the query engine's updateMany and deleteMany: the entries its where finds
// (one read, through the planner), then the one write path's bulk write of them.
func (rt *Runtime) writeMany(c *call, m *schemas.Model, op string, a readArgs) ([]byte, error) {
	params, err := rt.writeParams(a)
	if err != nil {
		return nil, err
	}
	var q ir.Query
	if op == "updateMany" {
		if err := setData(&q, params.Data); err != nil {
			return nil, err
		}
	}
	where := params.Where
	if len(where) == 0 || string(where) == "null" {
		where = json.RawMessage("{}") // Strapi's query builder: no where, every row
	}
	sel, _ := json.Marshal(map[string]json.RawMessage{"where": where, "select": json.RawMessage(`["id"]`)})
	out, err := rt.read(c, jsquery.QueryEngine, "findMany", m, readArgs{UID: m.UID, Params: sel})
	if err != nil {
		return nil, err
	}
	var found []struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal(out, &found); err != nil {
		return nil, err
	}
	ids := make([]int64, len(found))
	for i, e := range found {
		ids[i] = e.ID
	}
	var n int64
	switch {
	case op == "updateMany":
		n, err = rt.Writes.UpdateMany(c.ctx, m, ids, q.Data) // validates data even when nothing matches
	case len(ids) > 0:
		n, err = rt.Writes.DeleteMany(c.ctx, m, ids)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]int64{"count": n})
}

// createMany runs the query engine's createMany({ data: [...] }) through the one write
// path and answers as Strapi's does: { count, ids }.
func (rt *Runtime) createMany(c *call, m *schemas.Model, a readArgs) ([]byte, error) {
	params, err := rt.writeParams(a)
	if err != nil {
		return nil, err
	}
	var items []json.RawMessage
	if err := json.Unmarshal(params.Data, &items); err != nil || items == nil {
		return nil, apierror.Validation("CreateMany expects data to be an array")
	}
	rows := make([]map[string]any, len(items))
	for i, it := range items {
		var q ir.Query
		if err := setData(&q, it); err != nil {
			return nil, err
		}
		rows[i] = q.Data
	}
	ids, err := rt.Writes.CreateMany(c.ctx, m, rows)
	if err != nil {
		return nil, err
	}
	if ids == nil {
		ids = []int64{}
	}
	return json.Marshal(struct {
		Count int     `json:"count"`
		IDs   []int64 `json:"ids"`
	}{len(items), ids})
}

// writeTarget is the id an update or delete writes: the entity service's id argument, or
// the first entry the query engine's where finds ("" when none).
func (rt *Runtime) writeTarget(c *call, style jsquery.Style, m *schemas.Model, a readArgs, where json.RawMessage) (string, error) {
	if style == jsquery.EntityService {
		return jsquery.ID(a.ID)
	}
	if len(where) == 0 || string(where) == "null" {
		return "", apierror.Validation("strapi.db.query('%s') writes need a where", m.UID)
	}
	params, _ := json.Marshal(map[string]json.RawMessage{"where": where, "select": json.RawMessage(`["id"]`)})
	out, err := rt.read(c, style, "findOne", m, readArgs{UID: m.UID, Params: params})
	if err != nil {
		return "", err
	}
	var e struct {
		ID json.Number `json:"id"`
	}
	if string(out) == "null" {
		return "", nil
	}
	if err := json.Unmarshal(out, &e); err != nil {
		return "", err
	}
	return e.ID.String(), nil
}

// stripWriteKeys leaves the params of the read that answers a write.
func stripWriteKeys(params json.RawMessage) json.RawMessage {
	var v any
	if err := decodeOrdered(params, &v); err != nil {
		return nil
	}
	o, ok := v.(*ordered)
	if !ok {
		return nil
	}
	out := &ordered{}
	for i, k := range o.keys {
		switch k {
		case "fields", "populate", "select", "locale":
			out.keys = append(out.keys, k)
			out.vals = append(out.vals, o.vals[i])
		}
	}
	b, _ := json.Marshal(out)
	return b
}

// setData reads a write's data (a JSON object) into q, keeping its keys' order.
func setData(q *ir.Query, raw json.RawMessage) error {
	q.Data = map[string]any{}
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var data map[string]any
	if err := dec.Decode(&data); err != nil {
		return apierror.Validation("data must be an object")
	}
	q.Data = data
	return nil
}

// Before runs the project's before<Action> lifecycle hook of a model (write.Lifecycles):
// what it leaves in event.params.data is what the write stores; what it throws is the
// answer (Strapi's error envelope for Strapi's errors).
func (rt *Runtime) Before(ctx context.Context, l *write.Lifecycle) error {
	return rt.runHook(ctx, l)
}

// After runs the project's after<Action> hook once the write committed.
func (rt *Runtime) After(ctx context.Context, l *write.Lifecycle) error {
	return rt.runHook(ctx, l)
}

// HasLifecycles says whether some model has a lifecycles file Quarry runs.
func (rt *Runtime) HasLifecycles() bool {
	// Not init: the server sets the runtime's services after asking, before the first request.
	return len(projectFiles(rt.Dir)["lifecycles"]) > 0 || len(rt.PluginLifecycles) > 0 || rt.Subscriptions > 0 || rt.EventHub
}

func (rt *Runtime) runHook(ctx context.Context, l *write.Lifecycle) error {
	rt.init()
	if err := rt.hubGuard(l); err != nil {
		return err
	}
	if rt.files["lifecycles"][l.Model.UID] == "" && rt.Subscriptions == 0 {
		return nil
	}
	event, err := rt.eventJSON(l)
	if err != nil {
		return err
	}
	var res boxResult
	var data, state, hooked string // JSON; "" when the hook left none
	c := &call{who: ir.System, route: string(l.Action) + " of " + l.Model.UID}
	rb, err := readBackJSON(ctx, l)
	if err != nil {
		return err
	}
	err = rt.run(ctx, c, func(v *vm, js *goja.Runtime) (goja.Value, error) {
		return v.hook(goja.Undefined(), js.ToValue(l.Model.UID), js.ToValue(string(l.Action)), js.ToValue(string(event)), js.ToValue(string(rb)))
	}, func(box *goja.Object) {
		res, data, state, hooked = readBox(box), boxString(box, "data"), boxString(box, "stateJSON"), boxString(box, "result")
	})
	if err != nil {
		return rt.failed(&Route{Key: string(l.Action) + " " + l.Model.UID}, err)
	}
	switch {
	case res.state != "done":
		rt.Log.Error("lifecycle hook did not finish: it waits on something that never comes", "hook", l.Action, "model", l.Model.UID)
		return internal()
	case res.internal != "":
		rt.Log.Error("lifecycle hook failed", "hook", l.Action, "model", l.Model.UID, "error", res.internal)
		return internal()
	case res.json != "":
		return boxError(res)
	}
	if state != "" {
		// Kept as the sandbox wrote it (key order too) for the after hook's sandbox.
		var st map[string]json.RawMessage
		if json.Unmarshal([]byte(state), &st) == nil {
			l.State = make(map[string]any, len(st))
			for k, v := range st {
				l.State[k] = v
			}
		}
	}
	if hooked != "" && l.Result != nil {
		l.Result.Hooked = []byte(hooked)
	}
	if strings.HasPrefix(string(l.Action), "before") && l.Params != nil && data != "" {
		return setData(l.Params, json.RawMessage(data))
	}
	return nil
}

// readBackJSON is what the hook's sandbox needs to read the written entry back as Strapi's
// query engine does (through findOne, running its read hooks) when the model has such
// hooks: {id, select, populate}. The sandbox decides whether it reads.
func readBackJSON(ctx context.Context, l *write.Lifecycle) ([]byte, error) {
	var id int64
	switch {
	case l.Result != nil:
		id = l.Result.ID
	case l.Params != nil && l.Params.ID != "":
		n, err := strconv.ParseInt(l.Params.ID, 10, 64)
		if err != nil {
			return nil, nil
		}
		id = n
	default:
		return []byte("{}"), nil
	}
	var b bytes.Buffer
	b.WriteString(`{"id":`)
	b.WriteString(strconv.FormatInt(id, 10))
	if p := readBackOf(ctx, l); len(p) > 0 && string(p) != "null" {
		b.WriteString(`,"params":`)
		b.Write(p)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// eventJSON is Strapi's lifecycle event: {action, model, params: {data, where, select,
// populate}, result, state}.
func (rt *Runtime) eventJSON(l *write.Lifecycle) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"action":`)
	writeJSON(&b, string(l.Action))
	b.WriteString(`,"model":{"uid":`)
	writeJSON(&b, l.Model.UID)
	b.WriteString(`,"singularName":`)
	writeJSON(&b, l.Model.SingularName)
	b.WriteString(`,"tableName":`)
	writeJSON(&b, l.Model.Table)
	b.WriteString(`},"params":{`)
	comma := false
	if p := l.Params; p != nil {
		if p.Op != ir.Delete && p.Data != nil {
			b.WriteString(`"data":{`)
			keys := dataKeys(l.Model, p.Data)
			n := 0
			for _, k := range keys {
				val, ok := p.Data[k]
				if !ok {
					continue
				}
				if n > 0 {
					b.WriteByte(',')
				}
				n++
				writeJSON(&b, k)
				b.WriteByte(':')
				if err := writeJSON(&b, val); err != nil {
					return nil, err
				}
			}
			b.WriteByte('}')
			comma = true
		}
		if p.ID != "" {
			if comma {
				b.WriteByte(',')
			}
			b.WriteString(`"where":{"id":`)
			if _, err := strconv.ParseInt(p.ID, 10, 64); err == nil {
				b.WriteString(p.ID)
			} else {
				writeJSON(&b, p.ID)
			}
			b.WriteByte('}')
		}
	}
	b.WriteByte('}')
	if l.Result != nil {
		b.WriteString(`,"result":`)
		switch {
		case l.Result.JSON != nil:
			b.Write(l.Result.JSON)
		case l.Result.Step != nil && l.Result.Entry != nil:
			eb := envelope.Get()
			eb.FlatEntry(l.Result.Step, l.Result.Entry)
			b.Write(eb.Bytes())
			envelope.Put(eb)
		default:
			b.WriteString("null")
		}
	}
	b.WriteString(`,"state":`)
	if l.State == nil {
		b.WriteString("{}")
	} else if err := writeJSON(&b, l.State); err != nil {
		return nil, err
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func writeJSON(b *bytes.Buffer, v any) error {
	enc, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b.Write(enc)
	return nil
}

// dataKeys orders a payload's keys as the model lists its attributes (the others after, by
// name): the IR keeps data as a map, and a hook sees the attributes in the schema's order.
func dataKeys(m *schemas.Model, data map[string]any) []string {
	keys := make([]string, 0, len(data))
	seen := map[string]bool{}
	for _, a := range m.Attributes {
		if _, ok := data[a.Name]; ok {
			keys = append(keys, a.Name)
			seen[a.Name] = true
		}
	}
	var rest []string
	for k := range data {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(keys, rest...)
}

// Bootstrap runs the start-up code Strapi runs after register(): the enabled local plugins'
// bootstrap() and then src/index's, with the entity service, the query engine and the
// plugins' services, as the system. It runs in a sandbox of its own, dropped afterwards (the
// sandboxes that serve requests replay only the subscriptions it makes), under a time limit
// of its own: Strapi gives start-up code as long as it takes, Quarry a few minutes.
func (rt *Runtime) Bootstrap(ctx context.Context, limit time.Duration) error {
	rt.init()
	if rt.err != nil {
		return rt.err
	}
	v, err := rt.newVMWith(false)
	if err != nil {
		return err
	}
	c := &call{ctx: ctx, who: ir.System, route: "bootstrap()"}
	c.ctx = context.WithValue(context.WithValue(ctx, vmKey{}, v), keptKey{}, v)
	v.cur = c
	var res struct{ state, err string }
	rt.heap.enter(v)
	err = v.js.Run(ctx, limit, func() error {
		r := v.js.Runtime()
		b, err := v.boot(goja.Undefined())
		if err != nil {
			return err
		}
		box := b.ToObject(r)
		// The listeners of the events its writes raised run on before it ends.
		if err := v.js.Settle(ctx, func() bool { return boxString(box, "state") != "pending" && v.idle() }); err != nil {
			return err
		}
		res.state, res.err = boxString(box, "state"), boxString(box, "error")
		return nil
	})
	rt.heap.leave(v)
	rt.closeTx(c)
	switch {
	case err != nil:
		err = fmt.Errorf("bootstrap(): %w", jseval.JSError(err))
	case res.state != "done":
		err = errors.New("bootstrap() did not finish: it waits on something that never comes")
	case res.err != "":
		err = fmt.Errorf("bootstrap(): %s", res.err)
	}
	if err != nil {
		// Its listeners may be missing: the writes they would see are refused.
		rt.hubLost(err.Error())
		return err
	}
	return rt.keep(v)
}
