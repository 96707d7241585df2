package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/quarrycms/quarry/schemas/projectconfig"
)

// TestConfigFilesAbsolute: config/server's files reach the sandbox by absolute path when the
// app folder is given relative (quarry serve --app .), where its cron tasks were required as
// an npm module and none was scheduled.
func TestConfigFilesAbsolute(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "config"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config", "server.js"), []byte(`module.exports = { cron: { enabled: true, tasks: {} } };`), 0o644); err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, dir)
	if err != nil {
		t.Skip(err)
	}
	proj, err := projectconfig.Load(context.Background(), projectconfig.Options{Dir: rel})
	if err != nil {
		t.Fatal(err)
	}
	a := &App{Dir: rel, Config: proj}
	files := a.configFiles("server")
	if len(files) != 1 || files[0] != filepath.Join(dir, "config", "server.js") {
		t.Errorf("config/server's files: %q", files)
	}
}
