package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// receiver is a webhook receiver: it records every delivery.
type receiver struct {
	*httptest.Server
	mu    sync.Mutex
	got   []delivery
	delay time.Duration
	arr   chan struct{}
}

type delivery struct {
	Event   string
	Header  http.Header
	Payload map[string]any
	Raw     string
}

func newReceiver(t *testing.T, delay time.Duration) *receiver {
	rc := &receiver{delay: delay, arr: make(chan struct{}, 100)}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var p map[string]any
		json.Unmarshal(b, &p)
		rc.mu.Lock()
		rc.got = append(rc.got, delivery{r.Header.Get("X-Strapi-Event"), r.Header.Clone(), p, string(b)})
		rc.mu.Unlock()
		rc.arr <- struct{}{}
		time.Sleep(rc.delay)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rc.Close)
	return rc
}

// wait returns the deliveries once n have arrived (or fails after a while).
func (rc *receiver) wait(t *testing.T, n int) []delivery {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		rc.mu.Lock()
		if len(rc.got) >= n {
			out := append([]delivery(nil), rc.got...)
			rc.mu.Unlock()
			return out
		}
		rc.mu.Unlock()
		select {
		case <-rc.arr:
		case <-deadline:
			t.Fatalf("webhook receiver got %d deliveries, want %d", len(rc.got), n)
		}
	}
}

// addWebhook stores a webhook as Strapi's admin panel does.
func addWebhook(t *testing.T, s *server, url string, events ...string) {
	t.Helper()
	db := openDB(t, s)
	ev, _ := json.Marshal(events)
	_, err := db.Exec(rebind(s, `INSERT INTO strapi_webhooks (name, url, headers, events, enabled) VALUES (?, ?, ?, ?, ?)`),
		"test", url, `{"Authorization":"Bearer hook-secret"}`, string(ev), true)
	if err != nil {
		t.Fatal(err)
	}
}

// TestWebhooks: Quarry's writes fire the webhooks of strapi_webhooks with Strapi v4's
// payloads, picked up without a restart; a slow receiver does not delay the write.
func TestWebhooks(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			s := start(t, be, "../examples/blog")
			rc := newReceiver(t, 3*time.Second)
			addWebhook(t, s, rc.URL, "entry.create", "entry.update", "entry.delete", "media.create", "media.delete")
			time.Sleep(1100 * time.Millisecond) // webhooks are read at most once a second

			began := time.Now()
			st, body := s.do(t, "POST", "/api/writers?populate=friends", []byte(`{"data":{"name":"Ann","email":"ann@example.com"}}`))
			if st != 200 {
				t.Fatalf("create: %d %s", st, body)
			}
			st, _ = s.do(t, "PUT", "/api/writers/1", []byte(`{"data":{"bio":"Poet"}}`))
			if st != 200 {
				t.Fatalf("update: %d", st)
			}
			st, _ = s.do(t, "DELETE", "/api/writers/1", nil)
			if st != 200 {
				t.Fatalf("delete: %d", st)
			}
			if took := time.Since(began); took > 2*time.Second {
				t.Errorf("three writes took %v with a receiver that answers in 3 s", took)
			}
			// Deliveries run concurrently (Strapi's queue sends 5 at once): find them by event.
			byEvent := map[string]delivery{}
			for _, d := range rc.wait(t, 3) {
				byEvent[d.Event] = d
				if d.Header.Get("Authorization") != "Bearer hook-secret" || d.Header.Get("Content-Type") != "application/json" {
					t.Errorf("%s: headers %v", d.Event, d.Header)
				}
				if d.Payload["event"] != d.Event || d.Payload["model"] != "writer" || d.Payload["uid"] != "api::writer.writer" {
					t.Errorf("payload %s", d.Raw)
				}
				if !strings.HasPrefix(d.Raw, `{"event":"`+d.Event+`","createdAt":"`) {
					t.Errorf("payload key order: %s", d.Raw)
				}
				entry, _ := d.Payload["entry"].(map[string]any)
				if entry["id"] != 1.0 || entry["name"] != "Ann" {
					t.Errorf("entry %v", entry)
				}
				if _, private := entry["secret"]; private {
					t.Errorf("private attribute in %s", d.Raw)
				}
			}
			if len(byEvent) != 3 || byEvent["entry.create"].Raw == "" || byEvent["entry.update"].Raw == "" || byEvent["entry.delete"].Raw == "" {
				t.Errorf("events %v", byEvent)
			}
			// The create asked for friends: the entry has them, flat ([] here), as Strapi's
			// entity service returns it.
			if c := byEvent["entry.create"].Raw; !strings.Contains(c, `"friends":[]`) || strings.Contains(c, `"attributes"`) {
				t.Errorf("create payload %s", c)
			}
			if u := byEvent["entry.update"]; u.Payload["entry"].(map[string]any)["bio"] != "Poet" {
				t.Errorf("update payload %s", u.Raw)
			}
		})
	}
}

// TestUpstream: without --upstream what Quarry does not serve is a 404; with an upstream
// that does not answer it is a 502 in Strapi's error envelope; one that answers gets the
// request with X-Forwarded-* headers and its answer streams back.
func TestUpstream(t *testing.T) {
	be := backends()[0]
	s := start(t, be, "../examples/blog")
	if st, body := s.do(t, "GET", "/admin/init", nil); st != 404 {
		t.Errorf("without upstream: %d %s", st, body)
	}

	dead := fmt.Sprintf("http://127.0.0.1:%d", freePort(t))
	d := serve(t, s.Env, "../examples/blog", s.Token, "--upstream", dead)
	st, body := d.do(t, "GET", "/admin/init", nil)
	if st != 502 || string(body) != `{"data":null,"error":{"status":502,"name":"BadGatewayError","message":"Bad Gateway","details":{}}}` {
		t.Errorf("dead upstream: %d %s", st, body)
	}

	var mu sync.Mutex
	var seen []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.RequestURI()+" xff="+r.Header.Get("X-Forwarded-For")+" xfp="+r.Header.Get("X-Forwarded-Proto")+" body="+string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"from":"strapi"}`))
	}))
	defer up.Close()
	q := serve(t, s.Env, "../examples/blog", s.Token, "--upstream", up.URL)
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/admin/init", ""},
		{"POST", "/content-manager/collection-types/api::tag.tag", `{"name":"x"}`},
		{"GET", "/api/connect/github", ""},
		{"PATCH", "/api/tags/1", `{}`}, // a method Quarry does not serve
	} {
		var b []byte
		if c.body != "" {
			b = []byte(c.body)
		}
		st, body := q.do(t, c.method, c.path, b)
		if st != 200 || string(body) != `{"from":"strapi"}` {
			t.Errorf("%s %s: %d %s", c.method, c.path, st, body)
		}
	}
	// What Quarry serves stays Quarry's.
	if st, body := q.do(t, "GET", "/api/tags", nil); st != 200 || !strings.Contains(string(body), `"meta"`) {
		t.Errorf("GET /api/tags: %d %s", st, body)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{
		"GET /admin/init xff=127.0.0.1 xfp=http body=",
		`POST /content-manager/collection-types/api::tag.tag xff=127.0.0.1 xfp=http body={"name":"x"}`,
		"GET /api/connect/github xff=127.0.0.1 xfp=http body=",
		"PATCH /api/tags/1 xff=127.0.0.1 xfp=http body={}",
	}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Errorf("upstream saw:\n%s\nwant:\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
}

// TestMediaWebhooks: uploads, files sent with an entry and removals fire media.* with the
// file as the upload plugin answers it.
func TestMediaWebhooks(t *testing.T) {
	be := backends()[len(backends())-1]
	app := copyApp(t, "../examples/blog", `{}`)
	s := start(t, be, app)
	rc := newReceiver(t, 0)
	addWebhook(t, s, rc.URL, "media.create", "media.update", "media.delete", "entry.create")
	time.Sleep(1100 * time.Millisecond)
	st, b := s.upload(t, "/api/upload", filepart("files", "a.png", "image/png", pngOf(t, 20, 10)))
	if st != 200 {
		t.Fatalf("upload: %d %s", st, b)
	}
	// The first upload also creates the "API Uploads" folder: entry.create of a folder, as in
	// Strapi. Deliveries run concurrently: find them by event.
	got := rc.wait(t, 2)
	var files []json.RawMessage
	json.Unmarshal(b, &files)
	byEvent := func(ds []delivery) map[string][]delivery {
		out := map[string][]delivery{}
		for _, d := range ds {
			out[d.Event] = append(out[d.Event], d)
		}
		return out
	}
	first := byEvent(got)
	if len(files) != 1 || len(first["media.create"]) != 1 || !strings.HasSuffix(first["media.create"][0].Raw, `,"media":`+string(files[0])+`}`) {
		t.Errorf("media.create %v\nanswer %s", first["media.create"], b)
	}
	if len(first["entry.create"]) != 1 || first["entry.create"][0].Payload["model"] != "folder" {
		t.Errorf("the API Uploads folder's entry.create: %v", first["entry.create"])
	}
	st, b = s.upload(t, "/api/articles", field("data", `{"title":"With a cover"}`),
		filepart("files.cover", "c.png", "image/png", pngOf(t, 10, 10)))
	if st != 200 {
		t.Fatalf("create with a file: %d %s", st, b)
	}
	got = rc.wait(t, 4)
	events := map[string]int{}
	for _, d := range got[2:] {
		events[d.Event]++
	}
	if events["media.create"] != 1 || events["entry.create"] != 1 {
		t.Errorf("create with a file fired %v", events)
	}
	if st, b := s.do(t, "DELETE", "/api/upload/files/1", nil); st != 200 {
		t.Fatalf("remove: %d %s", st, b)
	}
	got = rc.wait(t, 5)
	if got[4].Event != "media.delete" || got[4].Payload["media"].(map[string]any)["name"] != "a.png" {
		t.Errorf("media.delete %s", got[4].Raw)
	}
}
