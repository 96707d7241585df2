package e2e

import (
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// dbProxy forwards a port to a database server until it is cut: then every open connection
// is closed and new ones are accepted and dropped at once, as a server that went away; mend
// forwards again. It stands for a MySQL server the test may not stop (the machine's own).
type dbProxy struct {
	target string
	l      net.Listener
	mu     sync.Mutex
	cut    bool
	conns  map[net.Conn]bool
}

func newDBProxy(t *testing.T, target string) *dbProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &dbProxy{target: target, l: l, conns: map[net.Conn]bool{}}
	t.Cleanup(func() { l.Close(); p.setCut(true) })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
	return p
}

func (p *dbProxy) addr() string { return p.l.Addr().String() }

func (p *dbProxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cut {
		return false
	}
	p.conns[c] = true
	return true
}

func (p *dbProxy) serve(c net.Conn) {
	if !p.track(c) {
		c.Close()
		return
	}
	s, err := net.Dial("tcp", p.target)
	if err != nil || !p.track(s) {
		c.Close()
		if s != nil {
			s.Close()
		}
		return
	}
	go func() { io.Copy(s, c); s.Close() }()
	io.Copy(c, s)
	c.Close()
}

// setCut cuts (closing every open connection) or mends the link.
func (p *dbProxy) setCut(cut bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = cut
	if cut {
		for c := range p.conns {
			c.Close()
		}
		p.conns = map[net.Conn]bool{}
	}
}

// TestMySQLOutage: while the MySQL server cannot be reached (connections cut, new ones
// dropped), every request answers 503 in Strapi's envelope with Retry-After, at once, and
// /_ready says so; when it is back, Quarry serves again without a restart and nothing
// attempted during the outage was written.
func TestMySQLOutage(t *testing.T) {
	admin := os.Getenv("QUARRY_TEST_MYSQL_URL")
	if admin == "" {
		t.Skip("QUARRY_TEST_MYSQL_URL not set")
	}
	u, err := url.Parse(freshMySQL(t, admin))
	if err != nil {
		t.Fatal(err)
	}
	proxy := newDBProxy(t, u.Host)
	u.Host = proxy.addr()
	be := backend{Name: "mysql", Env: func(t *testing.T) []string {
		return []string{"DATABASE_CLIENT=mysql", "DATABASE_URL=" + u.String()}
	}}
	srv := start(t, be, "../examples/blog")
	if a := srv.sendAsync("POST", "/api/tags", `{"data":{"name":"kept"}}`); a.Status != 200 {
		t.Fatalf("create: %s", a)
	}

	proxy.setCut(true)
	want := `{"data":null,"error":{"status":503,"name":"ServiceUnavailableError","message":"Service Unavailable","details":{}}}`
	deadline := time.Now().Add(2 * time.Second)
	answers := 0
	for n := 0; time.Now().Before(deadline); n++ {
		var a answer
		switch n % 3 {
		case 0:
			a = srv.sendAsync("GET", "/api/tags", "")
		case 1:
			a = srv.sendAsync("POST", "/api/tags", `{"data":{"name":"lost-`+strconv.Itoa(n)+`"}}`)
		default:
			a = srv.sendAsync("POST", "/graphql", `{"query":"{ tags { data { id } } }"}`)
		}
		answers++
		ra, _ := strconv.Atoi(a.Header.Get("Retry-After"))
		if a.Status != 503 || string(a.Body) != want || ra < 1 {
			t.Fatalf("during the outage: %s (Retry-After %q)", a, a.Header.Get("Retry-After"))
		}
		if a.Took > 2*time.Second {
			t.Errorf("an answer during the outage took %s", a.Took)
		}
	}
	if answers < 20 {
		t.Errorf("only %d answers in 2 s: requests do not fail fast", answers)
	}
	if r := srv.sendAsync("GET", "/_ready", ""); r.Status != 503 || r.Header.Get("Retry-After") == "" {
		t.Errorf("/_ready during the outage: %s", r)
	}

	proxy.setCut(false)
	ready := time.Now().Add(20 * time.Second)
	for srv.sendAsync("GET", "/_ready", "").Status != 204 {
		if time.Now().After(ready) {
			t.Fatal("not ready 20 s after the database came back")
		}
		time.Sleep(200 * time.Millisecond)
	}
	if a := srv.sendAsync("POST", "/api/tags", `{"data":{"name":"after"}}`); a.Status != 200 {
		t.Fatalf("write after recovery: %s", a)
	}
	a := srv.sendAsync("GET", "/api/tags?sort=id", "")
	if a.Status != 200 || !strings.Contains(string(a.Body), `"kept"`) || !strings.Contains(string(a.Body), `"after"`) || strings.Contains(string(a.Body), "lost-") {
		t.Errorf("after recovery: %s", a)
	}
}
