package projectcode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dop251/goja"
	"github.com/robfig/cron/v3"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/schemas/jseval"
)

// CronJob is one job of Strapi's cron service as the project fills it: config/server's
// cron.tasks and bootstrap()'s strapi.cron.add.
type CronJob struct {
	Index int    `json:"index"`
	Name  string `json:"name"` // the task's key in the { name: { task, options } } form
	// Rule is node-schedule's cron text (five fields, or six with seconds first).
	Rule  string `json:"rule"`
	TZ    string `json:"tz"`
	Start string `json:"start"` // RFC 3339, from options.start
	End   string `json:"end"`
	// Unsupported says what options Quarry cannot schedule (a RecurrenceRule object, a
	// Date); such a job is not run, and the start-up log says so.
	Unsupported string `json:"unsupported"`
}

// String names the job in logs: its name, or its rule for the { rule: fn } form.
func (j CronJob) String() string {
	if j.Name != "" {
		return j.Name
	}
	return j.Rule
}

// cronParser reads node-schedule's cron text: seconds optional, names, ranges, steps, and
// the @daily-style descriptors.
var cronParser = cron.NewParser(cron.SecondOptional | cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// cronSchedule parses a job's rule (with its tz) as node-schedule's cron-parser reads it.
func cronSchedule(j CronJob) (cron.Schedule, error) {
	spec := strings.TrimSpace(j.Rule)
	fields := strings.Fields(spec)
	if len(fields) == 5 || len(fields) == 6 {
		// cron-parser takes 7 for Sunday as well as 0; robfig/cron only 0.
		fields[len(fields)-1] = sundaySeven(fields[len(fields)-1])
		spec = strings.Join(fields, " ")
	}
	if j.TZ != "" {
		if _, err := time.LoadLocation(j.TZ); err != nil {
			return nil, fmt.Errorf("time zone %q: %w", j.TZ, err)
		}
		spec = "CRON_TZ=" + j.TZ + " " + spec
	}
	return cronParser.Parse(spec)
}

// sundaySeven rewrites a day-of-week field's 7 (Sunday, as cron-parser allows) to 0.
func sundaySeven(field string) string {
	items := strings.Split(field, ",")
	for i, it := range items {
		switch {
		case it == "7":
			items[i] = "0"
		case strings.HasSuffix(it, "-7") && !strings.Contains(it, "/"):
			from := strings.TrimSuffix(it, "-7")
			if from == "7" {
				items[i] = "0"
			} else {
				items[i] = from + "-6,0"
			}
		}
	}
	return strings.Join(items, ",")
}

// keptState is the sandbox that ran bootstrap(), kept to run the cron jobs and the
// eventHub listeners (their functions may close over what bootstrap() made), with the jobs
// it listed.
type keptState struct {
	turn chan struct{} // one run at a time (a job, an event's listeners): they share one sandbox
	vm   *vm           // nil once a run was stopped by its limit (its state is unknown)
	jobs []CronJob
	sch  *cron.Cron
}

// wait takes the kept sandbox's turn, or gives up when ctx ends.
func (ks *keptState) wait(ctx context.Context) error {
	select {
	case ks.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// done gives the turn back.
func (ks *keptState) done() { <-ks.turn }

// CronJobs are the jobs bootstrap() left to schedule (none before Bootstrap ran).
func (rt *Runtime) CronJobs() []CronJob {
	if rt.kept == nil {
		return nil
	}
	return rt.kept.jobs
}

// keep lists the cron jobs and the eventHub listeners of the sandbox that ran bootstrap()
// and keeps it when there are any.
func (rt *Runtime) keep(v *vm) error {
	var jobs []CronJob
	err := v.js.Run(context.Background(), time.Second, func() error {
		out, err := v.cronList(goja.Undefined())
		if err != nil {
			return err
		}
		return json.Unmarshal([]byte(out.String()), &jobs)
	})
	if err != nil {
		return fmt.Errorf("cron jobs: %w", jseval.JSError(err))
	}
	listens, err := rt.readListened(v)
	if err != nil {
		return err
	}
	if len(jobs) > 0 || listens {
		v.cur = nil
		rt.kept = &keptState{vm: v, jobs: jobs, turn: make(chan struct{}, 1)}
	}
	return nil
}

// StartCron schedules the jobs bootstrap() left, as Strapi's cron service does once the
// server listens, each run under limit; it answers the jobs scheduled. A job whose rule
// Quarry cannot read, or whose options are not a rule, is logged and left out. The
// schedule stops with ctx.
func (rt *Runtime) StartCron(ctx context.Context, limit time.Duration) ([]CronJob, error) {
	cs := rt.kept
	if cs == nil {
		return nil, nil
	}
	cs.sch = cron.New(cron.WithParser(cronParser), cron.WithLocation(time.Local))
	var scheduled []CronJob
	for _, j := range cs.jobs {
		if j.Unsupported != "" {
			rt.Log.Warn("cron job not scheduled: Quarry schedules cron text rules ('0 0 * * *' or { rule, tz, start, end })", "job", j.String(), "options", j.Unsupported)
			continue
		}
		s, err := cronSchedule(j)
		if err != nil {
			rt.Log.Warn("cron job not scheduled", "job", j.String(), "rule", j.Rule, "error", err)
			continue
		}
		var start, end time.Time
		if j.Start != "" {
			start, _ = time.Parse(time.RFC3339Nano, j.Start)
		}
		if j.End != "" {
			end, _ = time.Parse(time.RFC3339Nano, j.End)
		}
		cs.sch.Schedule(s, cron.FuncJob(func() {
			now := time.Now()
			if !start.IsZero() && now.Before(start) || !end.IsZero() && now.After(end) {
				return
			}
			_ = rt.runCronJob(ctx, j, limit) // logged there
		}))
		scheduled = append(scheduled, j)
	}
	cs.sch.Start()
	go func() {
		<-ctx.Done()
		<-cs.sch.Stop().Done()
	}()
	return scheduled, nil
}

// runCronJob runs one job in the kept sandbox. A job that runs out of its limit leaves the
// sandbox in an unknown state: the schedule stops, said in the log.
func (rt *Runtime) runCronJob(ctx context.Context, j CronJob, limit time.Duration) error {
	cs := rt.kept
	if err := cs.wait(ctx); err != nil {
		return err
	}
	defer cs.done()
	v := cs.vm
	if v == nil {
		return errCronLost
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	c := &call{ctx: ctx, who: ir.System, route: "cron " + j.String()}
	c.ctx = context.WithValue(context.WithValue(ctx, vmKey{}, v), keptKey{}, v)
	v.cur = c
	defer func() { v.cur = nil }()
	var state, jobErr string
	started := time.Now()
	rt.heap.enter(v)
	err := v.js.Run(ctx, limit, func() error {
		b, err := v.cronRun(goja.Undefined(), v.js.Runtime().ToValue(j.Index))
		if err != nil {
			return err
		}
		box := b.ToObject(v.js.Runtime())
		if err := v.js.Settle(ctx, func() bool { return boxString(box, "state") != "pending" && v.idle() }); err != nil {
			return err
		}
		state, jobErr = boxString(box, "state"), boxString(box, "error")
		return nil
	})
	rt.heap.leave(v)
	rt.closeTx(c)
	if err == nil {
		rt.refreshListened(v) // a job may add or remove listeners
	}
	switch {
	case err != nil:
		cs.vm = nil
		if cs.sch != nil {
			cs.sch.Stop()
		}
		err = jseval.JSError(err)
		rt.hubLost("the cron job " + j.String() + " was stopped (" + err.Error() + ")")
		rt.Log.Error("cron job stopped; the cron schedule is stopped (its sandbox is lost)", "job", j.String(), "error", err)
		return err
	case state != "done":
		rt.Log.Error("cron job did not finish: it waits on something that never comes", "job", j.String())
		return errors.New("the cron job did not finish")
	case jobErr != "":
		rt.Log.Error("cron job failed", "job", j.String(), "error", jobErr)
		return errors.New(jobErr)
	}
	rt.Log.Info("cron job ran", "job", j.String(), "took", time.Since(started).Round(time.Millisecond))
	return nil
}

var (
	errNoCron   = errors.New("no such cron job")
	errCronLost = errors.New("the cron jobs' sandbox was stopped by an earlier job; restart the server")
)

// RunCronJob runs the listed job i now and answers how it ended (tests, an operator's run).
func (rt *Runtime) RunCronJob(ctx context.Context, i int, limit time.Duration) error {
	if rt.kept == nil || i < 0 || i >= len(rt.kept.jobs) {
		return errNoCron
	}
	return rt.runCronJob(ctx, rt.kept.jobs[i], limit)
}
