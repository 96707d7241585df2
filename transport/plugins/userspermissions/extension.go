package userspermissions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/schemas"
)

// EntryWriter validates and writes attributes of an entry, as the content API's write path
// does (planner/write.Writer).
type EntryWriter interface {
	// UpdateAt writes attributes of an entry in a transaction.
	UpdateAt(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64, data map[string]any, now time.Time) error
	// Values validates scalar values as a create does and returns them by column.
	Values(m *schemas.Model, attrs []*schemas.Attribute, data map[string]any) (map[string]any, error)
}

// pluginUserAttrs are the user attributes the users-permissions plugin writes itself.
var pluginUserAttrs = map[string]bool{"username": true, "email": true, "provider": true, "password": true,
	"resetPasswordToken": true, "confirmationToken": true, "confirmed": true, "blocked": true, "role": true}

// extensionData picks from body the attributes an app's extension adds to the user type
// (scalars, relations, media, components; private ones too, as Strapi writes them), only
// those allowed when allowed is not nil. On create, absent ones get their default.
func (s *Service) extensionData(body map[string]any, create bool, allowed func(*schemas.Attribute) bool) map[string]any {
	u := s.Schema.Users()
	out := map[string]any{}
	for _, a := range u.Attributes {
		if a.System || pluginUserAttrs[a.Name] || a.Type == schemas.Password || (allowed != nil && !allowed(a)) {
			continue
		}
		if v, ok := body[a.Name]; ok {
			out[a.Name] = jsonNumbers(v)
			continue
		}
		if create && a.Default != nil {
			dec := json.NewDecoder(bytes.NewReader(a.Default))
			dec.UseNumber()
			var v any
			if dec.Decode(&v) == nil {
				out[a.Name] = v
			}
		}
	}
	return out
}

// writeExtension writes an extended user's own attributes in tx; created tells whether the
// row was just inserted (with updatedAt now), and asApplication answers validation errors as
// ApplicationError, as POST /api/users does.
func (s *Service) writeExtension(ctx context.Context, tx *sqlx.Tx, id int64, data map[string]any, now time.Time, asApplication bool) error {
	if s.Entries == nil || len(data) == 0 {
		return nil
	}
	err := s.Entries.UpdateAt(ctx, tx, s.Schema.Users(), id, data, now)
	var ae *apierror.Error
	if asApplication && errors.As(err, &ae) && ae.Status == 400 {
		return apierror.Application(ae.Message)
	}
	return err
}

// jsonNumbers gives a body decoded without UseNumber the json.Number values the write path
// reads.
func jsonNumbers(v any) any {
	switch x := v.(type) {
	case float64:
		return json.Number(strconv.FormatFloat(x, 'f', -1, 64))
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonNumbers(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonNumbers(e)
		}
		return out
	}
	return v
}
