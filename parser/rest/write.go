package rest

import (
	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
)

// Write is a content-API write as the transport received it, its body already decoded.
type Write struct {
	// Model is the content type's uid; Op what the route does (ir.Create, ir.Update,
	// ir.Delete, ir.CreateLocalization); ID the route's :id ("" for a single type).
	Model string
	Op    ir.Op
	ID    string
	// Query is the raw query string: the read the write answers with (fields, populate),
	// and the locale of a single type.
	Query string
	// Body is the decoded JSON body (numbers as json.Number; nil when there is none);
	// Unwrapped says the route takes the entry itself rather than {"data": {...}} (i18n's
	// localizations route).
	Body      any
	Unwrapped bool
}

// ParseWrite lowers a content-API write into q's write fields: the payload (Strapi's core
// controllers refuse a body without a "data" object, before anything else), and the read
// options of the query string.
func ParseWrite(w Write) (*ir.Query, error) {
	q := &ir.Query{Model: w.Model, Op: w.Op, ID: w.ID, Via: ir.ViaREST}
	if err := Parse(w.Query, q); err != nil {
		return nil, err
	}
	if w.Op == ir.Delete {
		return q, nil
	}
	obj, _ := w.Body.(map[string]any)
	if w.Unwrapped {
		if obj == nil {
			obj = map[string]any{}
		}
		q.Data = obj
		return q, nil
	}
	data, ok := obj["data"].(map[string]any)
	if !ok {
		return nil, MissingData()
	}
	q.Data = data
	return q, nil
}

// MissingData is Strapi's answer to a create or update without a "data" object.
func MissingData() error {
	return apierror.Validation(`Missing "data" payload in the request body`)
}
