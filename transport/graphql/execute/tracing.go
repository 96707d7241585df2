package execute

import (
	"time"

	pg "github.com/quarrycms/quarry/parser/graphql"
)

// tracer records per-field timings in the Apollo tracing format (version 1), reported in
// extensions.tracing when apolloServer.tracing is on. Root fields time the whole query or
// mutation including its SQL; nested fields time their shaping.
type tracer struct {
	start      time.Time
	parseStart time.Duration
	parseDur   time.Duration
	validStart time.Duration
	validDur   time.Duration
	resolvers  []traceEntry
	endTime    time.Time
}

type traceEntry struct {
	path       []any
	parentType string
	fieldName  string
	returnType string
	start      time.Duration
	dur        time.Duration
}

func (x *execution) traceField(p *path, parentType string, f *pg.Field, start time.Time) {
	if x.trace == nil || f == nil {
		return
	}
	rt := ""
	if f.Def != nil {
		rt = f.Def.Type.String()
	} else if f.Name == "__typename" {
		rt = "String!"
	}
	x.trace.resolvers = append(x.trace.resolvers, traceEntry{path: p.list(), parentType: parentType,
		fieldName: f.Name, returnType: rt, start: start.Sub(x.trace.start), dur: time.Since(start)})
}

func (t *tracer) write(b *jw) {
	end := t.endTime
	b.WriteString(`{"version":1,"startTime":`)
	b.value(t.start)
	b.WriteString(`,"endTime":`)
	b.value(end)
	b.WriteString(`,"duration":`)
	b.value(int64(end.Sub(t.start)))
	b.WriteString(`,"parsing":{"startOffset":`)
	b.value(int64(t.parseStart))
	b.WriteString(`,"duration":`)
	b.value(int64(t.parseDur))
	b.WriteString(`},"validation":{"startOffset":`)
	b.value(int64(t.validStart))
	b.WriteString(`,"duration":`)
	b.value(int64(t.validDur))
	b.WriteString(`},"execution":{"resolvers":[`)
	for i, r := range t.resolvers {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"path":`)
		b.value(r.path)
		b.WriteString(`,"parentType":`)
		b.Str(r.parentType)
		b.WriteString(`,"fieldName":`)
		b.Str(r.fieldName)
		b.WriteString(`,"returnType":`)
		b.Str(r.returnType)
		b.WriteString(`,"startOffset":`)
		b.value(int64(r.start))
		b.WriteString(`,"duration":`)
		b.value(int64(r.dur))
		b.WriteByte('}')
	}
	b.WriteString("]}}")
}
