package database

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

// A database that is not up yet at start is waited for, with progress in the log, up to
// connection.acquireConnectionTimeout; then Open says how long it waited (issue 28, item 9).
func TestOpenWaitsForDatabase(t *testing.T) {
	admin := os.Getenv("QUARRY_TEST_POSTGRES_URL")
	if admin == "" {
		t.Skip("QUARRY_TEST_POSTGRES_URL not set")
	}
	target, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	// A port nobody listens on yet.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	u := *target
	u.Host = addr

	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	began := time.Now()
	_, err = Open(context.Background(), Config{Client: "postgres", URL: u.String(), ConnectWait: 1200 * time.Millisecond, Log: log})
	if err == nil || !strings.Contains(err.Error(), "acquireConnectionTimeout") || time.Since(began) < time.Second {
		t.Fatalf("down database: %v after %s", err, time.Since(began))
	}
	if !strings.Contains(logs.String(), "waiting for it") {
		t.Errorf("no progress logged:\n%s", logs.String())
	}

	// The database comes up (a proxy starts listening) while Open waits.
	go func() {
		time.Sleep(700 * time.Millisecond)
		pl, err := net.Listen("tcp", addr)
		if err != nil {
			return
		}
		t.Cleanup(func() { pl.Close() })
		for {
			c, err := pl.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				s, err := net.Dial("tcp", target.Host)
				if err != nil {
					return
				}
				defer s.Close()
				go io.Copy(s, c)
				io.Copy(c, s)
			}()
		}
	}()
	logs.Reset()
	db, err := Open(context.Background(), Config{Client: "postgres", URL: u.String(), ConnectWait: 20 * time.Second, Log: log})
	if err != nil {
		t.Fatalf("database up during the wait: %v\n%s", err, logs.String())
	}
	db.Close()
	if !strings.Contains(logs.String(), "database reachable") {
		t.Errorf("the end of the wait is not logged:\n%s", logs.String())
	}
}
