// Package webhook fires the webhooks stored in Strapi's strapi_webhooks table (the ones an
// editor manages in the admin panel) on Quarry's writes, with Strapi v4's payloads: it
// delivers the events the write path announces (planner/write's Announce, whose event names
// are Strapi's). Events are queued after the write commits and sent by a few workers, so a slow or failing
// receiver never delays or fails a write; it is logged.
package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/sqlgen"
)

// Options bound the dispatcher.
type Options struct {
	QueueSize int           // events waiting to be sent; more are dropped (and logged)
	Workers   int           // events sent at once (Strapi's queue runs 5)
	Timeout   time.Duration // per delivery (Strapi's is 10 s)
}

// DefaultOptions are Strapi's concurrency and timeout with a queue of a thousand events.
var DefaultOptions = Options{QueueSize: 1000, Workers: 5, Timeout: 10 * time.Second}

// Dispatcher queues events and delivers them to the enabled webhooks that listen to them.
type Dispatcher struct {
	db     *sqlx.DB
	d      sqlgen.Dialect
	log    *slog.Logger
	client *http.Client
	queue  chan event
	now    func() time.Time
	wg     sync.WaitGroup
	stop   chan struct{}
	once   sync.Once

	mu       sync.Mutex
	cached   []Hook
	cachedAt time.Time

	delivered, failed, dropped atomic.Int64
}

// Stats are a dispatcher's counts since start: deliveries a webhook accepted (2xx), those
// that failed (an error or another status), and events dropped on a full queue.
type Stats struct {
	Delivered, Failed, Dropped int64
}

// Stats reads the counters (zero for a nil dispatcher).
func (x *Dispatcher) Stats() Stats {
	if x == nil {
		return Stats{}
	}
	return Stats{Delivered: x.delivered.Load(), Failed: x.failed.Load(), Dropped: x.dropped.Load()}
}

// hooksMaxAge is how long the webhooks read from the table are reused: a webhook an editor
// adds in the admin panel fires from the writes of the next second on, and a burst of writes
// costs one read.
const hooksMaxAge = time.Second

type event struct {
	name    string
	payload []byte
}

// New starts a dispatcher's workers; Close stops them.
func New(db *sqlx.DB, d sqlgen.Dialect, log *slog.Logger, opts Options) *Dispatcher {
	if opts.QueueSize <= 0 {
		opts.QueueSize = DefaultOptions.QueueSize
	}
	if opts.Workers <= 0 {
		opts.Workers = DefaultOptions.Workers
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultOptions.Timeout
	}
	x := &Dispatcher{db: db, d: d, log: log, queue: make(chan event, opts.QueueSize), now: time.Now,
		stop: make(chan struct{}),
		client: &http.Client{Timeout: opts.Timeout, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}}}
	for i := 0; i < opts.Workers; i++ {
		x.wg.Add(1)
		go x.work()
	}
	return x
}

// Close stops taking events and waits (up to ctx) for the queued ones to be sent.
func (x *Dispatcher) Close(ctx context.Context) {
	if x == nil {
		return
	}
	x.once.Do(func() { close(x.stop) })
	done := make(chan struct{})
	go func() { x.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// Entry queues an entry event: {event, createdAt, model, uid, entry}, entry being the
// entry as written (sanitized: no private or password attributes), as JSON.
func (x *Dispatcher) Entry(name, modelName, uid string, entry []byte) {
	if x == nil {
		return
	}
	var b bytes.Buffer
	x.head(&b, name)
	b.WriteString(`,"model":`)
	writeString(&b, modelName)
	b.WriteString(`,"uid":`)
	writeString(&b, uid)
	b.WriteString(`,"entry":`)
	b.Write(entry)
	b.WriteByte('}')
	x.enqueue(name, b.Bytes())
}

// Media queues a media event: {event, createdAt, media}.
func (x *Dispatcher) Media(name string, file []byte) {
	if x == nil {
		return
	}
	var b bytes.Buffer
	x.head(&b, name)
	b.WriteString(`,"media":`)
	b.Write(file)
	b.WriteByte('}')
	x.enqueue(name, b.Bytes())
}

func (x *Dispatcher) head(b *bytes.Buffer, name string) {
	b.WriteString(`{"event":`)
	writeString(b, name)
	b.WriteString(`,"createdAt":`)
	writeString(b, x.now().UTC().Format("2006-01-02T15:04:05.000Z"))
}

func writeString(b *bytes.Buffer, s string) {
	j, _ := json.Marshal(s)
	b.Write(j)
}

func (x *Dispatcher) enqueue(name string, payload []byte) {
	select {
	case <-x.stop:
		return
	default:
	}
	select {
	case x.queue <- event{name, payload}:
	default:
		x.dropped.Add(1)
		x.log.Warn("webhook queue full: event dropped", "event", name)
	}
}

func (x *Dispatcher) work() {
	defer x.wg.Done()
	for {
		select {
		case ev := <-x.queue:
			x.deliver(ev)
		case <-x.stop:
			for { // send what is queued, then stop
				select {
				case ev := <-x.queue:
					x.deliver(ev)
				default:
					return
				}
			}
		}
	}
}

// Hook is one row of strapi_webhooks.
type Hook struct {
	ID      int64
	Name    string
	URL     string
	Headers map[string]string
	Events  []string
	Enabled bool
}

// hooks reads the webhooks (see hooksMaxAge).
func (x *Dispatcher) hooks(ctx context.Context) ([]Hook, error) {
	st := sqlgen.Webhooks(x.d)
	rows, err := x.db.QueryContext(ctx, st.SQL, st.Args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Hook
	for rows.Next() {
		var h Hook
		var name, url, headers, events sqlNullText
		var enabled nullBool
		if err := rows.Scan(&h.ID, &name, &url, &headers, &events, &enabled); err != nil {
			return nil, err
		}
		h.Name, h.URL, h.Enabled = name.s, url.s, enabled.b
		if headers.s != "" {
			var m map[string]any
			if err := json.Unmarshal([]byte(headers.s), &m); err == nil {
				h.Headers = map[string]string{}
				for k, v := range m {
					if s, ok := v.(string); ok {
						h.Headers[k] = s
					} else {
						h.Headers[k] = fmt.Sprint(v)
					}
				}
			}
		}
		if events.s != "" {
			_ = json.Unmarshal([]byte(events.s), &h.Events)
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// Forget drops the cached webhooks: the next event reads them again.
func (x *Dispatcher) Forget() {
	if x == nil {
		return
	}
	x.mu.Lock()
	x.cachedAt = time.Time{}
	x.mu.Unlock()
}

func (x *Dispatcher) current() ([]Hook, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.cachedAt.IsZero() || time.Since(x.cachedAt) > hooksMaxAge {
		ctx, cancel := context.WithTimeout(context.Background(), x.client.Timeout)
		hooks, err := x.hooks(ctx)
		cancel()
		if err != nil {
			return nil, err
		}
		x.cached, x.cachedAt = hooks, time.Now()
	}
	return x.cached, nil
}

func (x *Dispatcher) deliver(ev event) {
	hooks, err := x.current()
	if err != nil {
		x.log.Error("webhooks: read strapi_webhooks", "err", err)
		return
	}
	for _, h := range hooks {
		if !h.Enabled || !listens(h, ev.name) {
			continue
		}
		x.send(h, ev)
	}
}

func listens(h Hook, name string) bool {
	for _, e := range h.Events {
		if e == name {
			return true
		}
	}
	return false
}

func (x *Dispatcher) send(h Hook, ev event) {
	req, err := http.NewRequest(http.MethodPost, h.URL, bytes.NewReader(ev.payload))
	if err != nil {
		x.failed.Add(1)
		x.log.Warn("webhook: bad url", "webhook", h.Name, "url", h.URL, "err", err)
		return
	}
	for k, v := range h.Headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("X-Strapi-Event", ev.name)
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	resp, err := x.client.Do(req)
	if err != nil {
		x.failed.Add(1)
		x.log.Warn("webhook failed", "webhook", h.Name, "url", h.URL, "event", ev.name, "err", err)
		return
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		x.failed.Add(1)
		x.log.Warn("webhook failed", "webhook", h.Name, "url", h.URL, "event", ev.name, "status", resp.StatusCode)
		return
	}
	x.delivered.Add(1)
	x.log.Debug("webhook sent", "webhook", h.Name, "event", ev.name, "status", resp.StatusCode, "took", time.Since(start))
}

// sqlNullText scans text, JSON (jsonb comes as text or decoded, by driver) or NULL.
type sqlNullText struct{ s string }

func (t *sqlNullText) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		t.s = ""
	case string:
		t.s = v
	case []byte:
		t.s = string(v)
	default:
		j, err := json.Marshal(v)
		if err != nil {
			return err
		}
		t.s = string(j)
	}
	return nil
}

// nullBool scans a boolean (SQLite stores 0/1) or NULL (false).
type nullBool struct{ b bool }

func (n *nullBool) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		n.b = false
	case bool:
		n.b = v
	case int64:
		n.b = v != 0
	case []byte:
		n.b = string(v) == "1" || string(v) == "true" || string(v) == "t"
	case string:
		n.b = v == "1" || v == "true" || v == "t"
	default:
		return fmt.Errorf("webhook enabled: unexpected %T", src)
	}
	return nil
}
