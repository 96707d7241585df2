package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// storeIndex is a bootstrap() that configures the users-permissions plugin through the
// core store, as projects do to close registration or set providers from the environment,
// and keeps a value of its own there.
const storeIndex = `'use strict';
module.exports = {
  async bootstrap({ strapi }) {
    const pluginStore = strapi.store({ type: 'plugin', name: 'users-permissions' });
    const advanced = await pluginStore.get({ key: 'advanced' });
    await pluginStore.set({ key: 'advanced', value: { ...advanced, allow_register: false } });
    const own = strapi.store({ type: 'plugin', name: 'shop', key: 'seeded' });
    if (await own.get() === null) await own.set({ value: { at: 7 } });
    await own.set({ value: { at: (await own.get()).at + 1 } });
    await strapi.store({ type: 'plugin', name: 'shop', key: 'scratch' }).set({ value: 'gone' });
    await strapi.store({ type: 'plugin', name: 'shop' }).delete({ key: 'scratch' });
    const scratch = await strapi.store({ type: 'plugin', name: 'shop', key: 'scratch' }).get();
    const n = await strapi.store({ key: 'count' }).get();
    // The official starters' first-run flag, kept per environment.
    const setup = strapi.store({ environment: strapi.config.environment, type: 'type', name: 'setup' });
    const firstRun = !(await setup.get({ key: 'initHasRun' }));
    if (firstRun) await setup.set({ key: 'initHasRun', value: true });
    const tagged = strapi.store({ type: 'plugin', name: 'shop', key: 'seeded', tag: 'v2' });
    await tagged.set({ value: 1 });
    await strapi.entityService.create('api::category.category', {
      data: { name: ['store', (await own.get()).at, scratch, n, typeof advanced.email_confirmation, firstRun,
        await setup.get({ key: 'initHasRun' }), await tagged.get(), strapi.config.environment].join('-') },
    });
  },
};
`

// TestCoreStore: strapi.store reads and writes Strapi's core store, and a setting bootstrap()
// changes there is the one the server applies (registration closed). The entry's name and the
// register answer are what real Strapi 4.26.2 answered for the same project.
func TestCoreStore(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := copyProject(t, filepath.Join("testdata", "projects", "startup"))
			if err := os.WriteFile(filepath.Join(app, "src", "index.js"), []byte(storeIndex), 0o644); err != nil {
				t.Fatal(err)
			}
			be := be
			env := be.Env
			be.Env = func(t *testing.T) []string { return append(env(t), "NODE_ENV=production", "JWT_SECRET=e2e-core-store-secret-0123456789") }
			srv := start(t, be, app)
			status, body, _ := srv.send(t, "", "GET", "/api/categories", "", nil)
			if status != 200 || !strings.Contains(string(body), `"store-8---boolean-true-true-1-production"`) {
				t.Fatalf("categories: %d %s, want the entry bootstrap() made from the store", status, body)
			}
			status, body, _ = srv.send(t, "", "POST", "/api/auth/local/register", "application/json",
				[]byte(`{"username":"newbie","email":"newbie@example.com","password":"Secret123"}`))
			if status != 400 || !strings.Contains(string(body), "Register action is currently disabled") {
				t.Fatalf("register after bootstrap() closed it: %d %s", status, body)
			}
		})
	}
}

// adminSeedIndex seeds a super admin from the environment, as deployment-minded projects do,
// then content.
const adminSeedIndex = `'use strict';
module.exports = {
  async bootstrap({ strapi }) {
    if (!(await strapi.admin.services.user.exists())) {
      const superAdmin = await strapi.admin.services.role.getSuperAdmin();
      await strapi.admin.services.user.create({ email: 'admin@example.com', password: 'Admin123', registrationToken: null, isActive: true, roles: [superAdmin.id] });
    }
  },
};
`

// TestBootstrapAdminServices: a bootstrap() using the admin panel's services (which Quarry
// does not run) no longer refuses every route: the admin panel is not the content API's
// check. The call fails in bootstrap(), which is logged, and the routes are served.
func TestBootstrapAdminServices(t *testing.T) {
	be := backends()[0]
	app := copyProject(t, filepath.Join("testdata", "projects", "startup"))
	if err := os.WriteFile(filepath.Join(app, "src", "index.js"), []byte(adminSeedIndex), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := start(t, be, app)
	status, body, _ := srv.send(t, "", "GET", "/api/categories", "", nil)
	if status != 200 {
		t.Fatalf("categories: %d %s, want them served", status, body)
	}
	if log := srv.log.String(); !strings.Contains(log, "strapi.admin.services.user.exists() is the admin panel's") {
		t.Fatalf("the failed bootstrap() is not logged with what it called:\n%s", log)
	}
}
