// Package auth owns API tokens (and, later, users and roles): how they are minted, stored as
// Strapi stores them (HMAC-SHA512 of the key with API_TOKEN_SALT), looked up and checked.
package auth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha512"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"quarry/database"
)

// Token types, as Strapi names them.
const (
	ReadOnly   = "read-only"
	FullAccess = "full-access"
	Custom     = "custom"
)

// Hash is the stored form of an access key.
func Hash(salt, key string) string {
	m := hmac.New(sha512.New, []byte(salt))
	m.Write([]byte(key))
	return hex.EncodeToString(m.Sum(nil))
}

// Token is a stored API token (never with its key).
type Token struct {
	ID        int64
	Name      string
	Type      string
	ExpiresAt *time.Time
	CreatedAt time.Time
}

// ErrUnknown and ErrExpired are the two ways a presented key fails.
var (
	ErrUnknown = errors.New("unknown token")
	ErrExpired = errors.New("token expired")
)

// Lifespans Strapi allows, in days; 0 is unlimited.
var Lifespans = map[int]bool{0: true, 7: true, 30: true, 90: true}

// CreateToken mints a 256-hex-character key, stores its hash and returns the key, which is
// never stored or shown again.
func CreateToken(ctx context.Context, db *database.DB, salt, name, typ string, lifespanDays int, now time.Time) (string, error) {
	if salt == "" {
		return "", errors.New("API_TOKEN_SALT is not set")
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return "", errors.New("a token needs a name")
	}
	if typ != ReadOnly && typ != FullAccess {
		return "", fmt.Errorf("token type must be %s or %s", ReadOnly, FullAccess)
	}
	if !Lifespans[lifespanDays] {
		return "", fmt.Errorf("lifespan must be 7, 30, 90 days or 0 (unlimited), got %d", lifespanDays)
	}
	raw := make([]byte, 128)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("generate token: %w", err)
	}
	key := hex.EncodeToString(raw)
	var taken int
	if err := db.GetContext(ctx, &taken, db.Rebind(`SELECT COUNT(*) FROM strapi_api_tokens WHERE name = ?`), name); err != nil {
		return "", fmt.Errorf("check token name: %w", err)
	}
	if taken > 0 {
		return "", fmt.Errorf("a token named %q already exists", name)
	}
	var lifespan, expires any
	if lifespanDays > 0 {
		d := time.Duration(lifespanDays) * 24 * time.Hour
		lifespan = d.Milliseconds()
		expires = db.Dialect.Bind(now.Add(d))
	}
	ts := db.Dialect.Bind(now)
	_, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO strapi_api_tokens (name, description, type, access_key, lifespan, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
		name, "", typ, Hash(salt, key), lifespan, expires, ts, ts)
	if err != nil {
		return "", fmt.Errorf("store token: %w", err)
	}
	return key, nil
}

// Lookup finds the token for a presented key.
func Lookup(ctx context.Context, db *database.DB, salt, key string, now time.Time) (*Token, error) {
	if salt == "" || key == "" {
		return nil, ErrUnknown
	}
	row := db.QueryRowxContext(ctx, db.Rebind(`SELECT id, name, type, expires_at FROM strapi_api_tokens WHERE access_key = ?`), Hash(salt, key))
	var t Token
	var exp any
	if err := row.Scan(&t.ID, &t.Name, &t.Type, &exp); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrUnknown
		}
		return nil, fmt.Errorf("look up token: %w", err)
	}
	if exp != nil {
		var e time.Time
		switch x := exp.(type) {
		case time.Time:
			e = x
		case int64:
			e = time.UnixMilli(x)
		}
		if !e.IsZero() {
			t.ExpiresAt = &e
			if !now.Before(e) {
				return &t, ErrExpired
			}
		}
	}
	return &t, nil
}

// List returns all tokens, oldest first.
func List(ctx context.Context, db *database.DB) ([]Token, error) {
	rows, err := db.QueryxContext(ctx, `SELECT id, name, type FROM strapi_api_tokens ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	defer rows.Close()
	var out []Token
	for rows.Next() {
		var t Token
		if err := rows.Scan(&t.ID, &t.Name, &t.Type); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
