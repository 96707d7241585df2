package main

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/dustin/go-humanize"
)

// progress shows how a long command (import, export, backup, migrate, indexes --apply)
// advances: on a terminal a bar redrawn in place with counts, rate and time left; otherwise a
// log line every few seconds (JSON with LOG_FORMAT=json, through the process logger).
type progress struct {
	mu     sync.Mutex
	w      io.Writer
	log    *slog.Logger
	bar    bool
	every  time.Duration
	now    func() time.Time
	stage  string
	starts map[string]time.Time
	last   time.Time
	drawn  bool
	action string
}

// newProgress picks the form for stderr: a bar when it is a terminal and logs are text.
func newProgress(action string, stderr io.Writer, log *slog.Logger, getenv func(string) string) *progress {
	p := &progress{w: stderr, log: log, every: 5 * time.Second, now: time.Now, action: action, starts: map[string]time.Time{}}
	if strings.EqualFold(getenv("LOG_FORMAT"), "json") {
		p.every = 2 * time.Second
	} else if isTerminal(stderr) {
		p.bar = true
		p.every = 100 * time.Millisecond
	}
	return p
}

// update reports a stage's state: done of total items (total < 0: unknown), with bytes of
// totalBytes when the stage moves files. A finished stage is always shown.
func (p *progress) update(stage string, done, total, bytes, totalBytes int64, finished bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if stage != p.stage {
		p.endBar()
		p.stage, p.last = stage, time.Time{}
		if !p.bar {
			p.last = now // a line once the stage has run a while, and at its end
		}
	}
	start, ok := p.starts[stage]
	if !ok {
		start = now
		p.starts[stage] = now
	}
	if !finished && now.Sub(p.last) < p.every {
		return
	}
	p.last = now
	elapsed := now.Sub(start).Seconds()
	rate := 0.0
	if elapsed > 0 {
		rate = float64(done) / elapsed
	}
	eta := time.Duration(-1)
	if total > 0 && rate > 0 && done <= total {
		eta = time.Duration(float64(total-done) / rate * float64(time.Second)).Round(time.Second)
	}
	if !p.bar {
		attrs := []any{"stage", stage, "done", done, "rate_per_s", round1(rate)}
		if total >= 0 {
			attrs = append(attrs, "total", total)
		}
		if totalBytes > 0 || bytes > 0 {
			attrs = append(attrs, "bytes", bytes, "total_bytes", totalBytes)
		}
		if eta >= 0 && !finished {
			attrs = append(attrs, "eta_s", int64(eta.Seconds()))
		}
		msg := p.action + " progress"
		if finished {
			msg = p.action + " stage done"
		}
		p.log.Info(msg, attrs...)
		return
	}
	const width = 28
	fill := width
	if total > 0 {
		fill = int(float64(width) * float64(min(done, total)) / float64(total))
	}
	count := fmt.Sprintf("%d", done)
	if total >= 0 {
		count += fmt.Sprintf("/%d", total)
	}
	if totalBytes > 0 {
		count += fmt.Sprintf(" (%s/%s)", humanize.IBytes(uint64(bytes)), humanize.IBytes(uint64(totalBytes)))
	}
	left := ""
	if eta >= 0 && !finished {
		left = " ETA " + eta.String()
	}
	fmt.Fprintf(p.w, "\r\033[K%-14s [%s%s] %s %.0f/s%s", stage, strings.Repeat("=", fill), strings.Repeat(" ", width-fill), count, rate, left)
	p.drawn = true
	if finished {
		p.endBar()
	}
}

func round1(f float64) float64 { return float64(int64(f*10)) / 10 }

// endBar ends the bar's line, so that what is printed next starts on its own.
func (p *progress) endBar() {
	if p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}

// done ends the display.
func (p *progress) done() {
	p.mu.Lock()
	p.endBar()
	p.mu.Unlock()
}
