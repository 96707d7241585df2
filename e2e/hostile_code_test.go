package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestHostileProjectCode serves controllers that loop forever, allocate without bound, reach
// for the file system or the process, throw what is not an error or never settle: each such
// request fails cleanly (Strapi's 500 envelope, no stack, no partial answer), within the time
// limit, and the server keeps answering the next request.
func TestHostileProjectCode(t *testing.T) {
	be := backends()[0]
	app := copyProject(t, "testdata/projects/hostile")
	limit := backend{Name: be.Name, Env: func(t *testing.T) []string {
		return append(be.Env(t), "QUARRY_PROJECT_CODE_TIMEOUT=2s")
	}}
	srv := start(t, limit, app)
	fine := func() {
		t.Helper()
		if st, b := srv.doAs(t, "", "GET", "/api/things/hostile/fine", nil); st != 200 || string(b) != `{"count":0}` {
			t.Fatalf("the server stopped answering: %d %s", st, b)
		}
	}
	fine()
	// The file system is a module Quarry does not provide: NotImplementedError naming it, as
	// for an npm module, whether a handler or a file it loads requires it.
	if st, b := srv.doAs(t, "", "GET", "/api/things/hostile/fs", nil); st != 501 || !strings.Contains(string(b), `"name":"NotImplementedError","message":"require('fs'): files, processes and the network are not available`) {
		t.Errorf("fs: %d %s", st, b)
	}
	fine()
	for _, h := range []string{"loop", "grow", "repeat", "fill", "buffer", "exit", "throwString", "throwObject", "never", "interval", "bigBuffer", "bcryptCost"} {
		start := time.Now()
		st, b := srv.doAs(t, "", "GET", "/api/things/hostile/"+h, nil)
		took := time.Since(start)
		if st != 500 || string(b) != `{"data":null,"error":{"status":500,"name":"InternalServerError","message":"Internal Server Error"}}` {
			t.Errorf("%s: %d %s", h, st, b)
		}
		if took > 20*time.Second {
			t.Errorf("%s took %s", h, took)
		}
		fine()
	}
	log := srv.log.String()
	for _, want := range []string{"ran out of time", "caps one allocation", "no member 'exit'", "a thrown string", "a thrown object", "did not finish", "in Quarry's sandbox"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log does not say %q:\n%s", want, log)
		}
	}
}
