package planner

import (
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/schemas"
)

var (
	dateRe = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})`)
	timeRe = regexp.MustCompile(`^([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,3})?$`)
)

// errBadValue marks a value that does not fit its attribute's type.
var errBadValue = errors.New("bad value")

// CastValue converts a client value to the Go value bound for an attribute's column. It is
// shared by filters and writes so both accept exactly the same spellings.
func CastValue(t schemas.AttrType, v ir.Value) (any, error) {
	if v.Kind == ir.VNull {
		return nil, nil
	}
	s := v.S
	switch t {
	case schemas.Integer:
		// integer columns (ids included) hold 32 bits on PostgreSQL, which refuses a
		// larger operand with an error rather than comparing: refused on every database.
		f, err := parseNumber(s)
		if err != nil || f != math.Trunc(f) || f > math.MaxInt32 || f < math.MinInt32 {
			return nil, errBadValue
		}
		return int64(f), nil
	case schemas.BigInteger:
		if f, err := parseNumber(s); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<63 {
			if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
				return n, nil
			}
			return int64(f), nil
		}
		return nil, errBadValue
	case schemas.Float, schemas.Decimal:
		f, err := parseNumber(s)
		if err != nil {
			return nil, errBadValue
		}
		return f, nil
	case schemas.Boolean:
		switch strings.ToLower(s) {
		case "true", "t", "1":
			return true, nil
		case "false", "f", "0", "":
			return false, nil
		}
		// Strapi falls back to JavaScript truthiness for other strings.
		return true, nil
	case schemas.Date:
		m := dateRe.FindStringSubmatch(s)
		if m == nil {
			return nil, apierror.Validation("Invalid format, expected yyyy-MM-dd")
		}
		if _, err := time.Parse("2006-01-02", m[0]); err != nil {
			return nil, apierror.Validation("Invalid format, expected yyyy-MM-dd")
		}
		return plan.Date(m[0]), nil
	case schemas.Time:
		if !timeRe.MatchString(s) {
			return nil, apierror.Validation("Invalid time format, expected HH:mm:ss.SSS")
		}
		return plan.TimeOfDay(s), nil
	case schemas.DateTime, schemas.Timestamp:
		t, ok := ParseDateTime(s)
		if !ok {
			return nil, apierror.Validation("Invalid format, expected a timestamp or an ISO date")
		}
		return t, nil
	}
	return s, nil
}

// parseNumber accepts what JavaScript's Number() accepts for decimal input.
func parseNumber(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, errBadValue
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, errBadValue
	}
	return f, nil
}

var isoLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02",
}

// ParseDateTime parses an ISO 8601 date-time (a missing offset means UTC) or epoch ms.
func ParseDateTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && len(s) > 4 {
		return time.UnixMilli(n).UTC(), true
	}
	for _, l := range isoLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
