package plugins

import (
	"context"
	"sync"
	"time"
)

// A multipart upload's body may take long to arrive, but the work after it (processing the
// files, writing the rows) is bounded like any request's. WithBodyDeadline gives such a
// request a deadline from its start, as every write has; the code that receives a long body
// pauses it while the body arrives (ReceivingBody) and starts it again, whole, once the body
// is in (BodyReceived). Any other handler of the request, which never pauses it, keeps the
// deadline from the start: nothing runs unbounded because it was not told about.

// bodyDeadline is a request context whose deadline can be paused and restarted. Its Err is
// context.DeadlineExceeded when the deadline passed (the error the database and the server
// answer with a 503), its parent's error when the request ended first.
type bodyDeadline struct {
	context.Context // the request's
	timeout         time.Duration

	mu       sync.Mutex
	deadline time.Time // zero while paused
	timer    *time.Timer
	done     chan struct{}
	err      error
}

type bodyDeadlineKey struct{}

// WithBodyDeadline bounds the request of ctx by timeout from now, a bound ReceivingBody
// pauses and BodyReceived restarts. cancel releases it (as a context's cancel does).
func WithBodyDeadline(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	c := &bodyDeadline{Context: ctx, timeout: timeout, done: make(chan struct{})}
	c.start()
	stop := context.AfterFunc(ctx, func() { c.finish(ctx.Err()) })
	return c, func() {
		stop()
		c.finish(context.Canceled)
	}
}

func (c *bodyDeadline) Deadline() (time.Time, bool) {
	c.mu.Lock()
	d := c.deadline
	c.mu.Unlock()
	if pd, ok := c.Context.Deadline(); ok && (d.IsZero() || pd.Before(d)) {
		return pd, true
	}
	return d, !d.IsZero()
}

func (c *bodyDeadline) Done() <-chan struct{} { return c.done }

func (c *bodyDeadline) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *bodyDeadline) Value(key any) any {
	if key == (bodyDeadlineKey{}) {
		return c
	}
	return c.Context.Value(key)
}

func (c *bodyDeadline) finish(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	c.err = err
	if c.timer != nil {
		c.timer.Stop()
	}
	close(c.done)
}

// start (re)starts the whole timeout from now, unless the context is done.
func (c *bodyDeadline) start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	if c.timer != nil {
		c.timer.Stop()
	}
	c.deadline = time.Now().Add(c.timeout)
	c.timer = time.AfterFunc(c.timeout, func() { c.finish(context.DeadlineExceeded) })
}

// pause stops the deadline, unless it has passed.
func (c *bodyDeadline) pause() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	c.deadline = time.Time{}
}

// ReceivingBody pauses the deadline of ctx's request (WithBodyDeadline) while a long body
// arrives: its reading is bounded by the connection's read deadline instead. It does
// nothing for a request without such a deadline or whose deadline has passed.
func ReceivingBody(ctx context.Context) {
	if c, ok := ctx.Value(bodyDeadlineKey{}).(*bodyDeadline); ok {
		c.pause()
	}
}

// BodyReceived starts the deadline of ctx's request again, whole, from now: the work on the
// body received is bounded like any request's.
func BodyReceived(ctx context.Context) {
	if c, ok := ctx.Value(bodyDeadlineKey{}).(*bodyDeadline); ok {
		c.start()
	}
}
