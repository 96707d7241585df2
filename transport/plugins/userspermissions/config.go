package userspermissions

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Config is the users-permissions plugin's configuration: config/plugins.json
// "users-permissions".config, with the keys Strapi's plugins.js takes.
type Config struct {
	// JWTSecret signs the users' JWTs (HS256); JWT_SECRET in the environment wins.
	JWTSecret string
	// JWTExpiresIn is the lifetime of issued JWTs (jwt.expiresIn, default 30 days).
	JWTExpiresIn time.Duration
	RateLimit    RateLimitConfig
	// RegisterAllowedFields is register.allowedFields: extra user attributes a registration
	// may set. Nil means unset: non-private attributes of an extended user type are allowed.
	RegisterAllowedFields []string
	// Advanced, when set, is written over the advanced settings kept in the core store at
	// start (Strapi edits them in the admin panel, which Quarry has not).
	Advanced map[string]json.RawMessage
}

// RateLimitConfig is ratelimit: requests allowed per interval on the auth routes, per client
// IP, path and e-mail (Strapi: 10 per minute).
type RateLimitConfig struct {
	Enabled  bool
	Interval time.Duration
	Max      int
}

// DefaultConfig is Strapi's default.
func DefaultConfig() Config {
	return Config{JWTExpiresIn: 30 * 24 * time.Hour, RateLimit: RateLimitConfig{Enabled: true, Interval: time.Minute, Max: 10}}
}

type rawConfig struct {
	JWTSecret *string `json:"jwtSecret"`
	JWT       *struct {
		ExpiresIn json.RawMessage `json:"expiresIn"`
	} `json:"jwt"`
	RateLimit *struct {
		Enabled  *bool           `json:"enabled"`
		Interval json.RawMessage `json:"interval"`
		Max      *int            `json:"max"`
	} `json:"ratelimit"`
	Register *struct {
		AllowedFields []string `json:"allowedFields"`
	} `json:"register"`
	Advanced map[string]json.RawMessage `json:"advanced"`
}

// ParsePluginsConfig reads the "users-permissions" entry of config/plugins.json (its "config"
// object, as in Strapi's plugins.js; a bare object is accepted too). data may be nil.
func ParsePluginsConfig(data []byte) (Config, error) {
	c := DefaultConfig()
	if len(data) == 0 {
		return c, nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return c, fmt.Errorf("config/plugins.json: %w", err)
	}
	entry := all["users-permissions"]
	if len(entry) == 0 {
		return c, nil
	}
	var wrapped struct {
		Config json.RawMessage `json:"config"`
	}
	if err := json.Unmarshal(entry, &wrapped); err != nil {
		return c, fmt.Errorf("config/plugins.json users-permissions: %w", err)
	}
	if len(wrapped.Config) > 0 {
		entry = wrapped.Config
	}
	var rc rawConfig
	if err := json.Unmarshal(entry, &rc); err != nil {
		return c, fmt.Errorf("config/plugins.json users-permissions: %w", err)
	}
	if rc.JWTSecret != nil {
		c.JWTSecret = *rc.JWTSecret
	}
	if rc.JWT != nil && len(rc.JWT.ExpiresIn) > 0 {
		d, err := parseExpiresIn(rc.JWT.ExpiresIn)
		if err != nil {
			return c, fmt.Errorf("config/plugins.json users-permissions jwt.expiresIn: %w", err)
		}
		c.JWTExpiresIn = d
	}
	if rl := rc.RateLimit; rl != nil {
		if rl.Enabled != nil {
			c.RateLimit.Enabled = *rl.Enabled
		}
		if rl.Max != nil {
			c.RateLimit.Max = *rl.Max
		}
		if len(rl.Interval) > 0 {
			d, err := parseInterval(rl.Interval)
			if err != nil {
				return c, fmt.Errorf("config/plugins.json users-permissions ratelimit.interval: %w", err)
			}
			c.RateLimit.Interval = d
		}
		if c.RateLimit.Interval <= 0 || c.RateLimit.Max < 0 {
			return c, fmt.Errorf("config/plugins.json users-permissions ratelimit: interval must be positive and max not negative")
		}
	}
	if rc.Register != nil && rc.Register.AllowedFields != nil {
		c.RegisterAllowedFields = rc.Register.AllowedFields
	}
	c.Advanced = rc.Advanced
	return c, nil
}

// parseExpiresIn reads jsonwebtoken's expiresIn: a number of seconds or a vercel/ms string
// ("30d", "12h", "7 days").
func parseExpiresIn(raw json.RawMessage) (time.Duration, error) {
	var n float64
	if json.Unmarshal(raw, &n) == nil {
		if n <= 0 || n > math.MaxInt32 {
			return 0, fmt.Errorf("%v seconds is out of range", n)
		}
		return time.Duration(n * float64(time.Second)), nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, fmt.Errorf("must be a number of seconds or a string like \"30d\"")
	}
	d, err := ParseMS(s)
	if err != nil {
		return 0, err
	}
	if d < time.Second {
		return 0, fmt.Errorf("%q is shorter than a second", s)
	}
	return d, nil
}

// parseInterval reads koa2-ratelimit's interval: milliseconds, or an object of units
// ({"min": 1}).
func parseInterval(raw json.RawMessage) (time.Duration, error) {
	var n float64
	if json.Unmarshal(raw, &n) == nil {
		return time.Duration(n * float64(time.Millisecond)), nil
	}
	var units map[string]float64
	if err := json.Unmarshal(raw, &units); err != nil {
		return 0, fmt.Errorf("must be milliseconds or an object like {\"min\": 1}")
	}
	unit := map[string]time.Duration{"ms": time.Millisecond, "sec": time.Second, "min": time.Minute, "hour": time.Hour,
		"day": 24 * time.Hour, "week": 7 * 24 * time.Hour, "month": 2628000 * time.Second, "year": 12 * 2628000 * time.Second}
	var d time.Duration
	for k, v := range units {
		u, ok := unit[k]
		if !ok {
			return 0, fmt.Errorf("unknown unit %q (ms, sec, min, hour, day, week, month, year)", k)
		}
		if v > 0 {
			d += time.Duration(v * float64(u))
		}
	}
	return d, nil
}

// ParseMS parses a duration the way the ms package does ("30d", "2 hours", "1.5h", "500");
// a bare number is milliseconds.
func ParseMS(s string) (time.Duration, error) {
	t := strings.TrimSpace(strings.ToLower(s))
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.' || (i == 0 && t[i] == '-')) {
		i++
	}
	n, err := strconv.ParseFloat(t[:i], 64)
	if err != nil || i == 0 {
		return 0, fmt.Errorf("cannot read duration %q", s)
	}
	unit := strings.TrimSpace(t[i:])
	var u time.Duration
	switch unit {
	case "", "ms", "msec", "msecs", "millisecond", "milliseconds":
		u = time.Millisecond
	case "s", "sec", "secs", "second", "seconds":
		u = time.Second
	case "m", "min", "mins", "minute", "minutes":
		u = time.Minute
	case "h", "hr", "hrs", "hour", "hours":
		u = time.Hour
	case "d", "day", "days":
		u = 24 * time.Hour
	case "w", "week", "weeks":
		u = 7 * 24 * time.Hour
	case "y", "yr", "yrs", "year", "years":
		u = time.Duration(365.25 * 24 * float64(time.Hour))
	default:
		return 0, fmt.Errorf("cannot read duration %q", s)
	}
	return time.Duration(n * float64(u)), nil
}
