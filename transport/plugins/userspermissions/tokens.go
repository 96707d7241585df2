// Package userspermissions owns authentication and authorization: API tokens (minted and stored as
// Strapi stores them: HMAC-SHA512 of the key with API_TOKEN_SALT), the users-permissions
// plugin's users, roles and permissions, its JWTs, and the rate limiting of its auth routes.
package userspermissions

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha512"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
)

// Hash is the stored form of an access key.
func Hash(salt, key string) string {
	m := hmac.New(sha512.New, []byte(salt))
	m.Write([]byte(key))
	return hex.EncodeToString(m.Sum(nil))
}

// Token is a stored API token (never with its key).
type Token struct {
	ID          int64
	Name        string
	Description string
	Type        string
	Lifespan    *time.Duration
	ExpiresAt   *time.Time
	LastUsedAt  *time.Time
	CreatedAt   time.Time
	// Actions are a custom token's permissions.
	Actions []string
}

// ErrUnknown and ErrExpired are the two ways a presented key fails.
var (
	ErrUnknown = errors.New("unknown token")
	ErrExpired = errors.New("token expired")
)

// Lifespans Strapi allows, in days; 0 is unlimited.
var Lifespans = map[int]bool{0: true, 7: true, 30: true, 90: true}

// TokenSpec describes a token to create.
type TokenSpec struct {
	Name        string
	Description string
	Type        string // read-only (default), full-access or custom
	// LifespanDays is 7, 30, 90 or 0 (unlimited).
	LifespanDays int
	// Actions are a custom token's permissions (checked with ExpandActions beforehand).
	Actions []string
}

// ErrTokenNameTaken is CreateToken's answer for a name another token has.
var ErrTokenNameTaken = errors.New("already exists")

// CreateToken mints a 256-hex-character key, stores its hash and returns the key, which is
// never stored or shown again.
func CreateToken(ctx context.Context, db *database.DB, salt string, spec TokenSpec, now time.Time) (string, error) {
	if salt == "" {
		return "", errors.New("API_TOKEN_SALT is not set")
	}
	name := strings.TrimSpace(spec.Name)
	if name == "" {
		return "", errors.New("a token needs a name")
	}
	typ := spec.Type
	if typ == "" {
		typ = ir.TokenReadOnly
	}
	switch typ {
	case ir.TokenReadOnly, ir.TokenFullAccess:
		if len(spec.Actions) > 0 {
			return "", fmt.Errorf("only custom tokens take actions (this one is %s)", typ)
		}
	case ir.TokenCustom:
		if len(spec.Actions) == 0 {
			return "", errors.New("a custom token needs at least one action")
		}
	default:
		return "", fmt.Errorf("token type must be %s, %s or %s", ir.TokenReadOnly, ir.TokenFullAccess, ir.TokenCustom)
	}
	if !Lifespans[spec.LifespanDays] {
		return "", fmt.Errorf("lifespan must be 7, 30, 90 days or 0 (unlimited), got %d", spec.LifespanDays)
	}
	raw := make([]byte, 128)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("generate token: %w", err)
	}
	key := hex.EncodeToString(raw)
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	d := db.Dialect
	var taken int
	if err := get(ctx, tx, &taken, sqlgen.TokenCountByName(d, name)); err != nil {
		return "", fmt.Errorf("check token name: %w", err)
	}
	if taken > 0 {
		return "", fmt.Errorf("a token named %q %w", name, ErrTokenNameTaken)
	}
	tr := sqlgen.TokenRow{Name: name, Description: spec.Description, Type: typ, AccessKey: Hash(salt, key), CreatedAt: now}
	if spec.LifespanDays > 0 {
		tr.Lifespan = time.Duration(spec.LifespanDays) * 24 * time.Hour
		tr.ExpiresAt = now.Add(tr.Lifespan)
	}
	id, err := database.InsertID(ctx, tx, sqlgen.TokenInsert(d, tr))
	if err != nil {
		return "", fmt.Errorf("store token: %w", err)
	}
	for i, a := range spec.Actions {
		pid, err := database.InsertID(ctx, tx, sqlgen.TokenPermissionInsert(d, a, now))
		if err != nil {
			return "", fmt.Errorf("store token permission: %w", err)
		}
		if err := run(ctx, tx, sqlgen.TokenPermissionLink(d, pid, id, float64(i+1))); err != nil {
			return "", fmt.Errorf("store token permission: %w", err)
		}
	}
	if err := db.Commit(ctx, tx); err != nil {
		return "", err
	}
	return key, nil
}

// scanToken reads a token's columns (sqlgen's token statements).
func scanToken(row interface{ Scan(...any) error }) (*Token, error) {
	var t Token
	var desc, typ sql.NullString
	var lifespan sql.NullInt64
	var exp, used, created any
	if err := row.Scan(&t.ID, &t.Name, &desc, &typ, &lifespan, &exp, &used, &created); err != nil {
		return nil, err
	}
	t.Description, t.Type = desc.String, typ.String
	if t.Type == "" {
		t.Type = ir.TokenReadOnly
	}
	if lifespan.Valid {
		d := time.Duration(lifespan.Int64) * time.Millisecond
		t.Lifespan = &d
	}
	if e := datetime(exp); !e.IsZero() {
		t.ExpiresAt = &e
	}
	if u := datetime(used); !u.IsZero() {
		t.LastUsedAt = &u
	}
	t.CreatedAt = datetime(created)
	return &t, nil
}

func tokenActions(ctx context.Context, db *database.DB, id int64) ([]string, error) {
	var out []string
	if err := getAll(ctx, db, &out, sqlgen.TokenActions(db.Dialect, id)); err != nil {
		return nil, fmt.Errorf("read token permissions: %w", err)
	}
	sort.Strings(out)
	return out, nil
}

// Lookup finds the token for a presented key, with a custom token's actions. An expired token
// is returned with ErrExpired.
func Lookup(ctx context.Context, db *database.DB, salt, key string, now time.Time) (*Token, error) {
	if salt == "" || key == "" || len(key) > 1024 {
		return nil, ErrUnknown
	}
	t, err := scanToken(row(ctx, db, sqlgen.TokenByAccessKey(db.Dialect, Hash(salt, key))))
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrUnknown
		}
		return nil, fmt.Errorf("look up token: %w", err)
	}
	if t.Type == ir.TokenCustom {
		if t.Actions, err = tokenActions(ctx, db, t.ID); err != nil {
			return nil, err
		}
	}
	if t.ExpiresAt != nil && !now.Before(*t.ExpiresAt) {
		return t, ErrExpired
	}
	return t, nil
}

// TouchToken records that a token was used now.
func TouchToken(ctx context.Context, db *database.DB, id int64, now time.Time) error {
	return run(ctx, db, sqlgen.TokenTouch(db.Dialect, id, now))
}

// List returns all tokens, oldest first, with custom tokens' actions.
func List(ctx context.Context, db *database.DB) ([]Token, error) {
	st := sqlgen.Tokens(db.Dialect)
	rows, err := db.QueryxContext(ctx, st.SQL, st.Args...)
	if err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	var out []Token
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, *t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Type == ir.TokenCustom {
			if out[i].Actions, err = tokenActions(ctx, db, out[i].ID); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// RevokeToken deletes a token (by id or name) and its permissions; the key stops working at
// once (a running server forgets cached look-ups within seconds).
func RevokeToken(ctx context.Context, db *database.DB, idOrName string) (*Token, error) {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	d := db.Dialect
	var t *Token
	if id, err := strconv.ParseInt(idOrName, 10, 64); err == nil {
		t, err = scanToken(row(ctx, tx, sqlgen.TokenByID(d, id)))
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
	}
	if t == nil {
		t, err = scanToken(row(ctx, tx, sqlgen.TokenByName(d, idOrName)))
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("no token with id or name %q", idOrName)
		}
		if err != nil {
			return nil, err
		}
	}
	var perms []int64
	if err := getAll(ctx, tx, &perms, sqlgen.TokenPermissionIDs(d, t.ID)); err != nil {
		return nil, err
	}
	if err := run(ctx, tx, sqlgen.TokenUnlinkPermissions(d, t.ID)); err != nil {
		return nil, err
	}
	for _, p := range perms {
		if err := run(ctx, tx, sqlgen.TokenPermissionDelete(d, p)); err != nil {
			return nil, err
		}
	}
	if err := run(ctx, tx, sqlgen.TokenDelete(d, t.ID)); err != nil {
		return nil, err
	}
	return t, db.Commit(ctx, tx)
}
