package forward

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"time"
)

// Timeouts bound a forwarded request: connecting to Strapi and waiting for its response
// headers. Bodies stream both ways without a bound of their own (uploads through the admin
// panel can be large); the server's own read timeout still applies.
type Timeouts struct {
	Dial           time.Duration
	ResponseHeader time.Duration
}

// DefaultTimeouts are generous for an admin panel's slow requests and short for a Strapi
// that is down.
var DefaultTimeouts = Timeouts{Dial: 5 * time.Second, ResponseHeader: 2 * time.Minute}

// ParseUpstream checks an --upstream URL.
func ParseUpstream(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("upstream %q: %w", s, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("upstream %q: want http://host[:port] or https://…", s)
	}
	return u, nil
}

// NewProxy forwards requests to target, setting X-Forwarded-For/-Host/-Proto. onError
// answers a request Strapi could not be reached for (Strapi's error envelope, 502).
func NewProxy(target *url.URL, t Timeouts, log *slog.Logger, onError func(http.ResponseWriter, *http.Request, error)) http.Handler {
	transport := &http.Transport{
		Proxy:                 nil, // Strapi is beside Quarry; never through an environment proxy
		DialContext:           (&net.Dialer{Timeout: t.Dial, KeepAlive: 30 * time.Second}).DialContext,
		ResponseHeaderTimeout: t.ResponseHeader,
		TLSHandshakeTimeout:   t.Dial,
		IdleConnTimeout:       90 * time.Second,
		MaxIdleConnsPerHost:   32,
		ExpectContinueTimeout: time.Second,
	}
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.SetXForwarded()
			// Keep the client's Host: Strapi builds absolute URLs (admin panel, OAuth
			// callbacks) from it and X-Forwarded-Host when its proxy option is on.
			pr.Out.Host = pr.In.Host
		},
		Transport:     transport,
		FlushInterval: -1, // stream responses (server-sent events, large downloads) as they come
		ErrorLog:      slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			log.Warn("upstream unreachable", "method", r.Method, "path", r.URL.Path, "err", err)
			onError(w, r, err)
		},
	}
}
