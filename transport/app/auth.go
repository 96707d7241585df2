package app

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/quarrycms/quarry/transport/plugins/email"
	"github.com/quarrycms/quarry/transport/plugins/userspermissions"
)

// Env is the running environment: QUARRY_ENV, else NODE_ENV (Strapi's), else development.
func Env(getenv func(string) string) string {
	for _, k := range []string{"QUARRY_ENV", "NODE_ENV"} {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			return strings.ToLower(v)
		}
	}
	return "development"
}

// setupAuth reads the users-permissions configuration (config/plugins.*) and creates the
// plugin's roles, default permissions and settings when missing.
func (a *App) setupAuth(ctx context.Context) error {
	var err error
	if a.Auth, err = userspermissions.ParsePluginsConfig(a.Config.JSON("plugins")); err != nil {
		return a.configError("plugins", err)
	}
	entry, err := a.pluginEntry("email")
	if err != nil {
		return err
	}
	if a.Email, err = email.ParseConfig(entry); err != nil {
		return err
	}
	return userspermissions.Setup(ctx, a.DB, a.Auth, time.Now())
}

// pluginEntry is one plugin's entry of the plugins configuration (config/plugins.*, merged
// with its env override), nil when absent.
func (a *App) pluginEntry(name string) (json.RawMessage, error) {
	data := a.Config.JSON("plugins")
	if data == nil {
		return nil, nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, a.configError("plugins", err)
	}
	return all[name], nil
}

// configURL is server.url or admin.url of the project's configuration ("" when unset).
func (a *App) configURL(name string) (string, error) {
	if name == "server" {
		return a.Settings.Server.URL, nil
	}
	var c struct {
		URL *string `json:"url"`
	}
	if err := a.Config.Decode(name, &c); err != nil {
		return "", err
	}
	if c.URL == nil {
		return "", nil
	}
	return *c.URL, nil
}

// LinkURLs are the users-permissions e-mails' links as Strapi's getAbsoluteServerUrl and
// getAbsoluteAdminUrl build them from server.url, admin.url and the listen address (in
// development 127.0.0.1 and 0.0.0.0 read as localhost).
func (a *App) LinkURLs(host string, port int, env string) (userspermissions.URLs, error) {
	serverURL, err := a.configURL("server")
	if err != nil {
		return userspermissions.URLs{}, err
	}
	adminURL, err := a.configURL("admin")
	if err != nil {
		return userspermissions.URLs{}, err
	}
	server := strings.Trim(serverURL, "/ ")
	if strings.HasPrefix(server, "http") {
		u, err := url.Parse(serverURL)
		if err != nil || u.Host == "" {
			return userspermissions.URLs{}, fmt.Errorf("%s: url: %q is not a valid URL", a.Config.SourceOf("server", []string{"url"}), serverURL)
		}
		server = strings.TrimRight(u.String(), "/")
	} else if server != "" {
		server = "/" + server
	}
	admin := "/admin"
	if adminURL != "" {
		admin = adminURL
	}
	admin = strings.Trim(admin, "/ ")
	if strings.HasPrefix(admin, "http") {
		u, err := url.Parse(admin)
		if err != nil || u.Host == "" {
			return userspermissions.URLs{}, fmt.Errorf("%s: url: %q is not a valid URL", a.Config.SourceOf("admin", []string{"url"}), adminURL)
		}
		admin = strings.TrimRight(u.String(), "/")
	} else {
		admin = server + "/" + admin
	}
	hostname := host
	if env == "development" && (host == "127.0.0.1" || host == "0.0.0.0") {
		hostname = "localhost"
	}
	abs := func(u string) string {
		if strings.HasPrefix(u, "http") {
			return u
		}
		return "http://" + net.JoinHostPort(hostname, strconv.Itoa(port)) + u
	}
	return userspermissions.URLs{Server: abs(server), Admin: abs(admin), APIPrefix: a.RESTPrefix}, nil
}

// ApplyPermissions grants what config/permissions.json lists (role → actions); `quarry serve`
// runs it at start. It returns the actions added per role.
func (a *App) ApplyPermissions(ctx context.Context) (map[string][]string, error) {
	data, err := readOptional(filepath.Join(a.Dir, "config", "permissions.json"))
	if err != nil || data == nil {
		return nil, err
	}
	perms, err := userspermissions.ParsePermissions(data)
	if err != nil {
		return nil, err
	}
	return userspermissions.ApplyPermissions(ctx, a.DB, a.Schema, perms, time.Now())
}

// Middlewares returns the project's middlewares configuration as JSON, nil when absent.
func (a *App) Middlewares() ([]byte, error) {
	return a.Config.JSON("middlewares"), nil
}

// JWTSecret is the secret that signs the users' JWTs: users-permissions' jwtSecret in
// config/plugins.*, else JWT_SECRET. In production (QUARRY_ENV or NODE_ENV = production) one
// of them is required; in development a secret is generated once into .tmp/jwt-secret (Strapi writes one into .env
// in development for the same reason).
func (a *App) JWTSecret(getenv func(string) string) (string, error) {
	// The plugin's config wins, as Strapi's defaults (jwtSecret: env('JWT_SECRET')) only
	// fill what the project's plugins.js leaves out.
	if a.Auth.JWTSecret != "" {
		return a.Auth.JWTSecret, nil
	}
	if v := getenv("JWT_SECRET"); v != "" {
		return v, nil
	}
	if Env(getenv) == "production" {
		return "", errors.New("JWT_SECRET is required in production: set it (in the environment or .env, or users-permissions.config.jwtSecret in config/plugins.js) to a long random string, e.g. JWT_SECRET=$(openssl rand -base64 32); in a container: docker run -e JWT_SECRET=…")
	}
	return localSecret(a.Dir, "jwt-secret")
}

// localSecret keeps a generated secret in the app's .tmp folder.
func localSecret(dir, name string) (string, error) {
	path := filepath.Join(dir, ".tmp", name)
	if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
		return string(b), nil
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	secret := base64.StdEncoding.EncodeToString(raw)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", fmt.Errorf("create .tmp: %w", err)
	}
	// O_EXCL: if another quarry process wrote one first, use theirs.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			b, err := os.ReadFile(path)
			return string(b), err
		}
		return "", fmt.Errorf("write %s: %w", name, err)
	}
	defer f.Close()
	if _, err := f.WriteString(secret); err != nil {
		return "", err
	}
	return secret, nil
}

func readOptional(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data, nil
}
