package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// cronServer is config/server as projects enable cron tasks, from a file of their own.
const cronServer = `module.exports = ({ env }) => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
  cron: { enabled: env.bool('CRON_ENABLED', true), tasks: require('./cron-tasks') },
});
`

// cronTasks has both of Strapi's forms: { name: { task, options } } and { rule: fn }. The
// counter lives in the sandbox between runs, as in Node.
const cronTasks = `let ticks = 0;
module.exports = {
  tick: {
    task: async ({ strapi }) => {
      ticks += 1;
      await strapi.entityService.create('api::category.category', { data: { name: 'tick-' + ticks } });
    },
    options: { rule: '* * * * * *', tz: 'Europe/Paris' },
  },
  '0 0 1 1 *': async () => { throw new Error('a yearly job ran'); },
};
`

// cronIndex adds a job in bootstrap(), closing over what bootstrap() made, and removes one.
const cronIndex = `'use strict';
module.exports = {
  async bootstrap({ strapi }) {
    const prefix = 'tock-' + (await strapi.entityService.count('api::category.category')) + '-';
    let n = 0;
    strapi.cron.add({
      tock: { task: async () => { n += 1; await strapi.entityService.create('api::category.category', { data: { name: prefix + n } }); }, options: '*/1 * * * * *' },
      gone: { task: () => { throw new Error('removed'); }, options: '* * * * * *' },
    });
    strapi.cron.remove('gone');
  },
};
`

func cronProject(t *testing.T) string {
	app := copyProject(t, filepath.Join("testdata", "projects", "startup"))
	for name, src := range map[string]string{"config/server.js": cronServer, "config/cron-tasks.js": cronTasks, "src/index.js": cronIndex} {
		if err := os.WriteFile(filepath.Join(app, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return app
}

// TestCronJobs: config/server's cron tasks and bootstrap()'s strapi.cron.add run on their
// schedule in the real server, writing through the one write path, each job keeping its
// state between runs.
func TestCronJobs(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			srv := start(t, be, cronProject(t))
			deadline := time.Now().Add(20 * time.Second)
			for {
				_, body, _ := srv.send(t, "", "GET", "/api/categories?sort=id&pagination[pageSize]=100", "", nil)
				s := string(body)
				if strings.Contains(s, `"tick-2"`) && strings.Contains(s, `"tock-0-2"`) {
					if strings.Contains(s, "removed") {
						t.Fatalf("a removed job ran: %s", s)
					}
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("the cron jobs did not run twice each in 20 s: %s", s)
				}
				time.Sleep(300 * time.Millisecond)
			}
		})
	}
}

// TestCronJobsOff: QUARRY_CRON=off schedules none (a Strapi on the same database runs them),
// and cron.enabled: false none either.
func TestCronJobsOff(t *testing.T) {
	be := backends()[0]
	for _, env := range []string{"QUARRY_CRON=off", "CRON_ENABLED=false"} {
		t.Run(env, func(t *testing.T) {
			app := cronProject(t)
			if env == "CRON_ENABLED=false" {
				// bootstrap()'s own job still runs when config's are off, as in Strapi.
				if err := os.WriteFile(filepath.Join(app, "src", "index.js"), []byte("module.exports = {};\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			base := append(be.Env(t), "API_TOKEN_SALT=quarry-e2e-salt", "LOG_LEVEL=warn", env)
			token := strings.TrimSpace(quarry(t, base, "tokens", "create", "--app", app, "--name", "e2e", "--type", "full-access"))
			srv := serve(t, base, app, token)
			time.Sleep(2500 * time.Millisecond)
			status, body, _ := srv.send(t, "", "GET", "/api/categories", "", nil)
			if status != 200 {
				t.Fatalf("categories: %d %s", status, body)
			}
			if strings.Contains(string(body), "tick-") || strings.Contains(string(body), "tock-") {
				t.Fatalf("a cron job ran with %s: %s", env, body)
			}
		})
	}
}
