package write

import (
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen/sqlerr"
)

const mustBeUnique = "This attribute must be unique"

// ConstraintError turns a unique-constraint violation met while writing into the answer
// Strapi's validator gives for a taken value: 400 ValidationError "This attribute must be
// unique" on the attribute. Such a violation happens when a writer outside Quarry's locks
// (Strapi beside it, a second Quarry on an older version) stores the same `uid` between
// the check and the write. Other errors are returned unchanged.
func ConstraintError(s *schemas.Schema, err error) error {
	v, ok := sqlerr.Unique(err)
	if !ok {
		return err
	}
	path := []string{}
	if name := attributeFor(s, v); name != "" {
		path = []string{name}
	}
	return apierror.Fields([]apierror.FieldError{{Path: path, Message: mustBeUnique, Name: "ValidationError"}})
}

// attributeFor names the attribute stored in the violated column, "" when the schema has
// none (a composite index, a table Quarry does not model).
func attributeFor(s *schemas.Schema, v sqlerr.Violation) string {
	if s == nil || (v.Column == "" && v.Index == "") {
		return ""
	}
	for _, m := range s.Models {
		if v.Table != "" && m.Table != v.Table {
			continue
		}
		for _, a := range m.Attributes {
			// MySQL names only the index, which Strapi names <table>_<column>_unique.
			if (v.Column != "" && a.Column == v.Column) || (v.Column == "" && v.Index == m.Table+"_"+a.Column+"_unique") {
				return a.Name
			}
		}
	}
	return ""
}
