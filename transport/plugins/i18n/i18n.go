// Package i18n owns locales: Strapi v4's i18n_locale table, the default locale kept in the
// core store, the locales declared in config/plugins.json, and the checks and lists the
// content API needs (locale codes on create, the `locale` parameter, GET /api/i18n/locales).
package i18n

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/quarrycms/quarry/schemas/iso"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
)

// storeKey is where Strapi keeps the default locale code (a JSON string).
const storeKey = "plugin_i18n_default_locale"

// Locale is one row of i18n_locale.
type Locale struct {
	ID        int64
	Name      string
	Code      string
	CreatedAt time.Time
	UpdatedAt time.Time
	IsDefault bool
}

// Config is config/plugins.json's "i18n" entry.
type Config struct {
	Locales []struct {
		Code string `json:"code"`
		Name string `json:"name"`
	} `json:"locales"`
	DefaultLocale string `json:"defaultLocale"`
}

// ParseConfig reads the i18n entry of the plugins configuration (JSON, nil when none); its
// locales may sit under "config" too, where Strapi keeps plugin settings.
func ParseConfig(plugins []byte) (Config, error) {
	var c Config
	if len(plugins) == 0 {
		return c, nil
	}
	var all struct {
		I18n json.RawMessage `json:"i18n"`
	}
	if err := json.Unmarshal(plugins, &all); err != nil {
		return c, err
	}
	if len(all.I18n) == 0 || all.I18n[0] != '{' {
		return c, nil
	}
	var wrapped struct {
		Config *Config `json:"config"`
	}
	if err := json.Unmarshal(all.I18n, &wrapped); err == nil && wrapped.Config != nil {
		c = *wrapped.Config
	}
	if err := json.Unmarshal(all.I18n, &c); err != nil {
		return c, fmt.Errorf("i18n: %w", err)
	}
	return c, nil
}

// Service reads and manages locales. Reads are cached briefly so a running server sees
// changes made by another process (`quarry locales`, Strapi's admin panel) within the TTL;
// Forget drops the cache at once.
type Service struct {
	DB  *database.DB
	Now func() time.Time

	mu      sync.Mutex
	cached  []Locale
	def     string
	fetched time.Time
}

const ttl = time.Second

// DefaultName is how Strapi names a locale it creates from a code alone.
func DefaultName(code string) string {
	return fmt.Sprintf("%s (%s)", displayNames[code], code)
}

// displayNames covers the locales people add most; others are named by their code.
var displayNames = map[string]string{
	"en": "English", "fr": "French", "de": "German", "es": "Spanish", "it": "Italian",
	"pt": "Portuguese", "nl": "Dutch", "pl": "Polish", "ru": "Russian", "ja": "Japanese",
	"zh": "Chinese", "ko": "Korean", "ar": "Arabic", "sv": "Swedish", "da": "Danish",
	"fi": "Finnish", "nb": "Norwegian Bokmål", "cs": "Czech", "tr": "Turkish", "uk": "Ukrainian",
}

func nameFor(code, name string) string {
	if name != "" {
		return name
	}
	if _, ok := displayNames[code]; ok {
		return DefaultName(code)
	}
	return code
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Setup creates the default locale on first start (en, "English (en)", as Strapi does, or
// the configured default) and applies config/plugins.json.
func (s *Service) Setup(ctx context.Context, c Config) error {
	list, err := s.load(ctx)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		code := c.DefaultLocale
		if code == "" {
			code = "en"
		}
		if err := s.Add(ctx, code, ""); err != nil {
			return err
		}
		if err := s.SetDefault(ctx, code); err != nil {
			return err
		}
	}
	for _, l := range c.Locales {
		if err := s.Add(ctx, l.Code, l.Name); err != nil && !errors.Is(err, ErrExists) {
			return err
		}
	}
	if c.DefaultLocale != "" {
		if err := s.SetDefault(ctx, c.DefaultLocale); err != nil {
			return err
		}
	}
	if _, _, err := s.defaultCode(ctx); err != nil {
		return err
	}
	s.invalidate()
	return nil
}

// ErrExists and ErrUnknown report a locale code already present or missing.
var (
	ErrExists  = errors.New("locale already exists")
	ErrUnknown = errors.New("locale does not exist")
)

var codeOK = func(code string) bool {
	if code == "" || len(code) > 35 {
		return false
	}
	for _, r := range code {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// CheckCode refuses a code Strapi's i18n plugin does not know, as its admin API does (and as
// GraphQL's I18NLocaleCode would, so REST and GraphQL agree about every stored locale).
func CheckCode(code string) error {
	if !iso.Known(code) {
		hint := ""
		for _, l := range iso.Locales {
			if strings.EqualFold(l.Code, code) {
				hint = fmt.Sprintf(" (did you mean %s?)", l.Code)
				break
			}
		}
		return fmt.Errorf("locale code %q is not one Strapi knows%s; use an ISO code such as en, fr, de-CH or pt-BR", code, hint)
	}
	return nil
}

// Add creates a locale.
func (s *Service) Add(ctx context.Context, code, name string) error {
	code = strings.TrimSpace(code)
	if !codeOK(code) {
		return fmt.Errorf("invalid locale code %q", code)
	}
	list, err := s.load(ctx)
	if err != nil {
		return err
	}
	for _, l := range list {
		if l.Code == code {
			return fmt.Errorf("%s: %w", code, ErrExists)
		}
	}
	st := sqlgen.LocaleInsert(s.DB.Dialect, nameFor(code, name), code, s.now())
	_, err = s.DB.ExecContext(ctx, st.SQL, st.Args...)
	if err != nil {
		return fmt.Errorf("add locale %s: %w", code, err)
	}
	s.changed(ctx)
	return nil
}

// Remove deletes a locale; the default locale cannot be removed.
func (s *Service) Remove(ctx context.Context, code string) error {
	def, _, err := s.defaultCode(ctx)
	if err != nil {
		return err
	}
	if code == def {
		return fmt.Errorf("cannot remove the default locale %s", code)
	}
	st := sqlgen.LocaleDelete(s.DB.Dialect, code)
	res, err := s.DB.ExecContext(ctx, st.SQL, st.Args...)
	if err != nil {
		return fmt.Errorf("remove locale %s: %w", code, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%s: %w", code, ErrUnknown)
	}
	s.changed(ctx)
	return nil
}

// SetDefault makes an existing locale the default.
func (s *Service) SetDefault(ctx context.Context, code string) error {
	list, err := s.load(ctx)
	if err != nil {
		return err
	}
	found := false
	for _, l := range list {
		found = found || l.Code == code
	}
	if !found {
		return fmt.Errorf("%s: %w", code, ErrUnknown)
	}
	val, _ := json.Marshal(code)
	// Strapi's core store finds its rows with environment and tag IS NULL: a row written with
	// empty strings (as older Quarry versions did) would be invisible to a Strapi beside it,
	// which would then add a second one (sqlgen.StoreUpdate writes them NULL).
	st := sqlgen.StoreUpdate(s.DB.Dialect, storeKey, string(val), "string")
	res, err := s.DB.ExecContext(ctx, st.SQL, st.Args...)
	if err != nil {
		return fmt.Errorf("set default locale: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		st := sqlgen.StoreInsert(s.DB.Dialect, storeKey, string(val), "string")
		_, err = s.DB.ExecContext(ctx, st.SQL, st.Args...)
		if err != nil {
			return fmt.Errorf("set default locale: %w", err)
		}
	}
	s.changed(ctx)
	return nil
}

func (s *Service) defaultCode(ctx context.Context) (string, bool, error) {
	var raw string
	st := sqlgen.StoreGet(s.DB.Dialect, storeKey)
	err := s.DB.QueryRowxContext(ctx, st.SQL, st.Args...).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return "en", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read default locale: %w", err)
	}
	var code string
	if json.Unmarshal([]byte(raw), &code) != nil {
		code = raw
	}
	return code, true, nil
}

// changed drops the cached locales after this process changed them, and tells the other
// instances on the database to drop theirs.
func (s *Service) changed(ctx context.Context) {
	s.invalidate()
	s.DB.SettingsChanged(ctx)
}

func (s *Service) invalidate() {
	s.mu.Lock()
	s.fetched = time.Time{}
	s.mu.Unlock()
}

func (s *Service) load(ctx context.Context) ([]Locale, error) {
	st := sqlgen.Locales(s.DB.Dialect)
	rows, err := s.DB.QueryxContext(ctx, st.SQL, st.Args...)
	if err != nil {
		return nil, fmt.Errorf("list locales: %w", err)
	}
	defer rows.Close()
	var out []Locale
	for rows.Next() {
		var l Locale
		var name sql.NullString
		var c, u any
		if err := rows.Scan(&l.ID, &name, &l.Code, &c, &u); err != nil {
			return nil, err
		}
		l.Name = name.String
		l.CreatedAt, l.UpdatedAt = asTime(c), asTime(u)
		out = append(out, l)
	}
	return out, rows.Err()
}

func asTime(v any) time.Time {
	switch x := v.(type) {
	case time.Time:
		return x.UTC()
	case int64:
		return time.UnixMilli(x).UTC()
	}
	return time.Time{}
}

// Forget drops the cached locales: the next request reads them again.
func (s *Service) Forget() {
	s.mu.Lock()
	s.cached, s.def, s.fetched = nil, "", time.Time{}
	s.mu.Unlock()
}

// Locales lists the locales with the default marked, cached for a short TTL.
func (s *Service) Locales(ctx context.Context) ([]Locale, string, error) {
	s.mu.Lock()
	if time.Since(s.fetched) < ttl && s.cached != nil {
		list, def := s.cached, s.def
		s.mu.Unlock()
		return list, def, nil
	}
	s.mu.Unlock()
	list, err := s.load(ctx)
	if err != nil {
		return nil, "", err
	}
	def, _, err := s.defaultCode(ctx)
	if err != nil {
		return nil, "", err
	}
	for i := range list {
		list[i].IsDefault = list[i].Code == def
	}
	s.mu.Lock()
	s.cached, s.def, s.fetched = list, def, time.Now()
	s.mu.Unlock()
	return list, def, nil
}

// Exists reports whether a locale code is configured.
func (s *Service) Exists(ctx context.Context, code string) (bool, error) {
	list, _, err := s.Locales(ctx)
	if err != nil {
		return false, err
	}
	for _, l := range list {
		if l.Code == code {
			return true, nil
		}
	}
	return false, nil
}

// Default returns the default locale code.
func (s *Service) Default(ctx context.Context) (string, error) {
	_, def, err := s.Locales(ctx)
	return def, err
}
