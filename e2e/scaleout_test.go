package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestScaleOut is the deployment recipe of the README on loopback: three `quarry serve`
// processes on one PostgreSQL primary with a streaming replica, media in an S3 bucket.
// Writers and uploaders spread over the instances; every acknowledged write is read back at
// once through another instance; one instance is killed (SIGKILL) mid-load, then the replica
// is stopped; the others keep serving without an error, every write and upload any instance acknowledged is there afterwards, and every
// stored file's objects are in the bucket.
func TestScaleOut(t *testing.T) {
	primary := newCluster(t)
	replica := newReplica(t, primary)
	gw := startS3(t)
	const bucket = "scale"
	gw.publicBucket(t, bucket)
	app := s3App(t)
	env := []string{"DATABASE_CLIENT=postgres", "DATABASE_URL=" + primary.url(),
		"QUARRY_DATABASE_REPLICAS=" + replica.url(), "API_TOKEN_SALT=scale-salt", "LOG_LEVEL=warn",
		"AWS_ACCESS_KEY_ID=" + s3Key, "AWS_ACCESS_SECRET=" + s3Secret, "AWS_REGION=us-east-1",
		"S3_ENDPOINT=" + gw.URL, "S3_FORCE_PATH_STYLE=true", "AWS_BUCKET=" + bucket}
	token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", app, "--name", "e2e", "--type", "full-access"))
	var instances []*server
	for i := 0; i < 3; i++ {
		instances = append(instances, serve(t, env, app, token))
	}
	var dead atomic.Int32
	dead.Store(-1)
	alive := func(i int) bool { return int(dead.Load()) != i }

	type ack struct {
		id   int
		name string
	}
	var (
		mu             sync.Mutex
		acked          []ack
		stale, errored atomic.Int64
	)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				i := (w + n) % len(instances)
				if !alive(i) {
					continue
				}
				name := fmt.Sprintf("w%d-%d", w, n)
				a := instances[i].sendAsync("POST", "/api/tags", `{"data":{"name":"`+name+`"}}`)
				if a.Err != nil || a.Status != 200 {
					if alive(i) {
						errored.Add(1)
						t.Errorf("instance %d: create: %s", i, a)
					}
					continue // not acknowledged: it may or may not have been stored
				}
				var created struct {
					Data struct{ ID int } `json:"data"`
				}
				if err := json.Unmarshal(a.Body, &created); err != nil {
					t.Errorf("create answer: %v", err)
					continue
				}
				mu.Lock()
				acked = append(acked, ack{created.Data.ID, name})
				mu.Unlock()
				// Read it back through the next live instance.
				j := (i + 1) % len(instances)
				if !alive(j) {
					j = (j + 1) % len(instances)
				}
				got := instances[j].sendAsync("GET", fmt.Sprintf("/api/tags/%d", created.Data.ID), "")
				if got.Err == nil && (got.Status != 200 || !strings.Contains(string(got.Body), `"name":"`+name+`"`)) {
					stale.Add(1)
					t.Errorf("instance %d read %s after instance %d acknowledged it: %s", j, name, i, got)
				}
			}
		}(w)
	}
	type upload struct {
		id  int
		url string
		via int
	}
	var uploads []upload
	image := pngOf(t, 64, 48)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for n := 0; ; n++ {
			select {
			case <-stop:
				return
			default:
			}
			i := n % len(instances)
			if !alive(i) {
				continue
			}
			body, ct := multipartBody(t, filepart("files", fmt.Sprintf("u%d.png", n), "image/png", image))
			a := instances[i].post("/api/upload", ct, body)
			if a.Err != nil || a.Status != 200 {
				if alive(i) {
					errored.Add(1)
					t.Errorf("instance %d: upload: %s", i, a)
				}
				continue
			}
			var files []struct {
				ID  int    `json:"id"`
				URL string `json:"url"`
			}
			if err := json.Unmarshal(a.Body, &files); err != nil || len(files) != 1 {
				t.Errorf("upload answer: %v %s", err, a.Body)
				continue
			}
			mu.Lock()
			uploads = append(uploads, upload{files[0].ID, files[0].URL, i})
			mu.Unlock()
		}
	}()
	time.Sleep(1500 * time.Millisecond)
	dead.Store(0)
	instances[0].cmd.Process.Kill()
	time.Sleep(700 * time.Millisecond)
	// The replica stops too: its reads go back to the primary, and nothing fails.
	replica.stop(t)
	time.Sleep(1500 * time.Millisecond)
	close(stop)
	wg.Wait()

	// The survivors serve, and hold every acknowledged write.
	missing := 0
	for _, a := range acked {
		got := instances[1+a.id%2].sendAsync("GET", fmt.Sprintf("/api/tags/%d", a.id), "")
		if got.Status != 200 || !strings.Contains(string(got.Body), `"name":"`+a.name+`"`) {
			missing++
			if missing < 5 {
				t.Errorf("acknowledged write %s (id %d) lost: %s", a.name, a.id, got)
			}
		}
	}
	// Media uploaded through one instance are read through the others, and their objects
	// are in the bucket.
	for _, u := range uploads {
		via := 1 + (u.via+1)%2
		got := instances[via].sendAsync("GET", fmt.Sprintf("/api/upload/files/%d", u.id), "")
		if got.Status != 200 || !strings.Contains(string(got.Body), `"url":"`+u.url+`"`) {
			t.Errorf("upload %d through instance %d, read through %d: %s", u.id, u.via, via, got)
			continue
		}
		// The stored image is the optimized one (as Strapi's sharp writes it), not the upload.
		if st, b := fetch(t, u.url); st != 200 || !bytes.HasPrefix(b, []byte("\x89PNG")) {
			t.Errorf("upload %d: its object %s answers %d (%d bytes)", u.id, u.url, st, len(b))
		}
	}
	// No stored file lacks its object (a partial upload); objects without a file row are what
	// a killed instance may leave behind mid-upload (logged).
	list := instances[1].sendAsync("GET", "/api/upload/files", "")
	var rows []struct {
		Hash string `json:"hash"`
		Ext  string `json:"ext"`
	}
	if err := json.Unmarshal(list.Body, &rows); err != nil {
		t.Fatalf("files: %v %s", err, list.Body)
	}
	keys := map[string]bool{}
	for _, k := range gw.keys(t, bucket) {
		keys[k] = true
	}
	for _, r := range rows {
		if !keys[r.Hash+r.Ext] {
			t.Errorf("file %s%s is stored without its object", r.Hash, r.Ext)
		}
		delete(keys, r.Hash+r.Ext)
	}
	t.Logf("%d uploads acknowledged; %d objects in the bucket without a file row", len(uploads), len(keys))
	t.Logf("%d acknowledged writes over 3 instances, one killed mid-load: %d missing, %d stale reads, %d errors on live instances",
		len(acked), missing, stale.Load(), errored.Load())
	if len(acked) < 50 {
		t.Errorf("only %d writes acknowledged: the instances did not serve", len(acked))
	}
}

// post sends a body of a content type with the full-access token; it reports errors in the
// answer rather than failing the test, so goroutines can use it.
func (s *server) post(path, ctype string, body []byte) answer {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", s.URL+path, bytes.NewReader(body))
	if err != nil {
		return answer{Err: err}
	}
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("Authorization", "Bearer "+s.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return answer{Err: err}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return answer{Status: res.StatusCode, Header: res.Header, Body: b, Err: err}
}
