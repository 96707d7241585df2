package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

// health asks a running server's /_health: the container image's HEALTHCHECK runs it, since a
// static image has no curl or wget.
func health(ctx context.Context, args []string, stdout io.Writer, getenv func(string) string) error {
	fs := newFlags("health")
	port := envOr(getenv, "PORT", "1337")
	url := fs.String("url", "http://127.0.0.1:"+port+"/_health", "health URL to ask")
	timeout := fs.Duration("timeout", 3*time.Second, "how long to wait for the answer")
	if _, err := parseFlags(fs, args, 0, stdout); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, *url, nil)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent && res.StatusCode != http.StatusOK {
		return fmt.Errorf("health: %s answered %s", *url, res.Status)
	}
	fmt.Fprintln(stdout, "ok")
	return nil
}
