package projectcode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/quarrycms/quarry/ir/apierror"
)

// The project's code reaches the network only through fetch (and the axios and node-fetch
// modules over it), and only the hosts config/quarry lists under fetch.allow: anything else
// is refused, never sent.
const (
	fetchTimeout  = 10 * time.Second
	fetchMaxBody  = 8 << 20
	fetchMaxHops  = 5
	fetchRefusal  = "FetchError"
	fetchAllowKey = "fetch.allow in config/quarry"
)

type fetchRequest struct {
	URL     string            `json:"url"`
	Method  string            `json:"method"`
	Headers map[string]string `json:"headers"`
	Body    *string           `json:"body"`
}

type fetchResponse struct {
	Status     int               `json:"status"`
	StatusText string            `json:"statusText"`
	Headers    map[string]string `json:"headers"`
	Body       string            `json:"body"`
	URL        string            `json:"url"`
	Redirected bool              `json:"redirected"`
}

// allowed says whether config/quarry's fetch.allow lists u's host: "api.example.com",
// "api.example.com:8443" (that port only) or "*.example.com" (its subdomains).
func (rt *Runtime) allowed(u *url.URL) bool {
	host, port := strings.ToLower(u.Hostname()), u.Port()
	for _, a := range rt.FetchAllow {
		a = strings.ToLower(strings.TrimSpace(a))
		h, p, hasPort := strings.Cut(a, ":")
		if hasPort && p != port {
			continue
		}
		if h == host || strings.HasPrefix(h, "*.") && strings.HasSuffix(host, h[1:]) {
			return true
		}
	}
	return false
}

func fetchError(format string, args ...any) error {
	return &apierror.Error{Status: http.StatusInternalServerError, Name: fetchRefusal, Message: fmt.Sprintf(format, args...)}
}

// fetch sends one request of the project's code and answers the response as text, within
// fetchTimeout (and the request's own deadline), following redirects only to allowed hosts.
func (rt *Runtime) fetch(ctx context.Context, args []byte) ([]byte, error) {
	var req fetchRequest
	if err := json.Unmarshal(args, &req); err != nil {
		return nil, fetchError("fetch: %v", err)
	}
	u, err := url.Parse(req.URL)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fetchError("fetch: %q is not an http(s) URL", req.URL)
	}
	if !rt.allowed(u) {
		return nil, fetchError("Quarry refuses fetch to %s: the host is not in %s", u.Host, fetchAllowKey)
	}
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	var body io.Reader
	if req.Body != nil {
		body = strings.NewReader(*req.Body)
	}
	hr, err := http.NewRequestWithContext(ctx, req.Method, u.String(), body)
	if err != nil {
		return nil, fetchError("fetch: %v", err)
	}
	for k, v := range req.Headers {
		hr.Header.Set(k, v)
	}
	client := &http.Client{CheckRedirect: func(next *http.Request, via []*http.Request) error {
		if len(via) >= fetchMaxHops {
			return errors.New("too many redirects")
		}
		if !rt.allowed(next.URL) {
			return fmt.Errorf("redirect to %s, which is not in %s", next.URL.Host, fetchAllowKey)
		}
		return nil
	}}
	resp, err := client.Do(hr)
	if err != nil {
		rt.Log.Warn("project code: fetch failed", "url", u.Redacted(), "error", err)
		return nil, fetchError("fetch failed: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, fetchMaxBody+1))
	if err != nil {
		return nil, fetchError("fetch failed: %v", err)
	}
	if len(b) > fetchMaxBody {
		return nil, fetchError("fetch: the response of %s is over %d bytes", u.Host, fetchMaxBody)
	}
	out := fetchResponse{Status: resp.StatusCode, StatusText: http.StatusText(resp.StatusCode), Headers: map[string]string{},
		Body: string(b), URL: resp.Request.URL.String(), Redirected: resp.Request.URL.String() != u.String()}
	for k, v := range resp.Header {
		out.Headers[strings.ToLower(k)] = strings.Join(v, ", ")
	}
	return json.Marshal(out)
}
