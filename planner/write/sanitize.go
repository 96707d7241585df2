package write

import (
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/schemas"
)

// stripRestricted removes from a write payload the relations whose target type the caller
// may not find, at any depth of components and dynamic zones, as Strapi's input sanitizer
// (removeRestrictedRelations) does: a caller cannot link entries it could not read.
func stripRestricted(m *schemas.Model, data map[string]any, who planner.Principal) {
	if who == nil {
		return
	}
	for k, v := range data {
		a, ok := m.Attr(k)
		if !ok {
			continue
		}
		switch a.Type {
		case schemas.Relation:
			if !who.CanFind(a.Target.UID) {
				delete(data, k)
			}
		case schemas.ComponentT:
			c := a.Components[0]
			switch x := v.(type) {
			case map[string]any:
				stripRestricted(c, x, who)
			case []any:
				for _, e := range x {
					if o, ok := e.(map[string]any); ok {
						stripRestricted(c, o, who)
					}
				}
			}
		case schemas.DynamicZone:
			items, _ := v.([]any)
			for _, e := range items {
				o, ok := e.(map[string]any)
				if !ok {
					continue
				}
				uid, _ := o["__component"].(string)
				for _, c := range a.Components {
					if c.UID == uid {
						stripRestricted(c, o, who)
					}
				}
			}
		}
	}
}
