package planner

import (
	"slices"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/schemas"
)

// DeepConfig is strapi-plugin-populate-deep as the app uses it.
type DeepConfig struct {
	// Enabled when the app installs the plugin; without it `deep` is an unknown attribute name
	// and is ignored, as Strapi ignores it.
	Enabled bool
	// DefaultDepth is the plugin's defaultDepth (5) for `populate=deep` without a number.
	DefaultDepth int
	// MaxDepth caps what a request may ask for (`populate=deep,50` is served as deep,MaxDepth):
	// the plugin has no cap, and every level multiplies the statements of a read.
	MaxDepth int
}

// maxDeepFields bounds the populate tree one deep request expands to: a schema whose
// components and zones fan out widely could otherwise turn one request into thousands of
// statements even within the depth cap.
const maxDeepFields = 2000

// expandDeep replaces populate=deep,N by the populate tree the plugin builds for m: every
// relation, component, dynamic zone and media attribute down to N levels (a level of 1 or less
// populates nothing), media and `localizations` without anything inside them, creator fields
// left out (the plugin's skipCreatorFields default; Quarry has no admin users). Cycles stop as
// the plugin stops them: a relation's name that equals the table of a model already expanded
// through relations is skipped. What the caller may not see is then left out by the planner,
// as for any populate.
func (p *Planner) expandDeep(m *schemas.Model, pop *ir.Populate) (*ir.Populate, error) {
	n := pop.Deep
	if n == ir.DeepDefault {
		n = p.Config.Deep.DefaultDepth
		if n <= 0 {
			n = 5
		}
	}
	if limit := p.Config.Deep.MaxDepth; limit > 0 && n > limit {
		n = limit
	}
	// Nested populate is bounded too: deep,N nests N-1 levels.
	if limit := p.Config.MaxPopulateDepth; limit > 0 && n > limit+1 {
		n = limit + 1
	}
	if pop.Deep == ir.DeepUnbounded {
		// The plugin recurses without a bound: its answer exists only when its cycle rule
		// stops every path (Strapi crashes otherwise); Quarry then answers within its cap.
		probe := deepExpander{levels: len(p.Schema.Models) + 2, nan: true}
		probe.expand(m, ir.DeepUnbounded, &[]string{})
		if probe.endless {
			return nil, apierror.InvalidParam("populate")
		}
	}
	e := deepExpander{}
	ignore := []string{}
	out := e.expand(m, n, &ignore)
	if e.fields > maxDeepFields {
		return nil, apierror.Validation("Invalid populate: populate=deep,%d reaches more than %d attributes; ask for fewer levels", n, maxDeepFields)
	}
	if out == nil {
		return nil, nil
	}
	return out, nil
}

type deepExpander struct {
	fields int
	// levels, when set, is a nesting no finite expansion reaches; endless records reaching it.
	levels, level int
	endless       bool
	// nan follows the plugin given a depth that is not a number: NaN compares false with
	// everything, so no level stops and `localizations` is not shortened.
	nan bool
}

// expand is the plugin's getFullPopulateObject: nil stands for `true` (the attribute is
// populated with nothing inside it). ignore is shared along relations only, as in the plugin.
func (e *deepExpander) expand(m *schemas.Model, depth int, ignore *[]string) *ir.Populate {
	if depth <= 1 || e.fields > maxDeepFields || e.endless {
		return nil
	}
	if e.levels > 0 {
		if e.level++; e.level > e.levels {
			e.endless = true
			return nil
		}
		defer func() { e.level-- }()
	}
	if ignore != nil && !slices.Contains(*ignore, m.Table) {
		*ignore = append(*ignore, m.Table)
	}
	pop := &ir.Populate{}
	for _, a := range m.Attributes {
		if ignore != nil && slices.Contains(*ignore, a.Name) {
			continue
		}
		var sub *ir.Populate
		switch a.Type {
		case schemas.ComponentT:
			sub = e.expand(a.Components[0], depth-1, nil)
		case schemas.DynamicZone:
			for _, comp := range a.Components {
				if cp := e.expand(comp, depth-1, nil); cp != nil {
					sub = mergeDeep(sub, cp)
				}
			}
		case schemas.Relation:
			if a.Name == "createdBy" || a.Name == "updatedBy" {
				continue
			}
			d := depth - 1
			if a.Name == "localizations" && depth > 2 && !e.nan {
				d = 1
			}
			sub = e.expand(a.Target, d, ignore)
		case schemas.Media:
		default:
			continue
		}
		e.fields++
		pop.Children = append(pop.Children, &ir.PopulateField{Field: a.Name, Populate: sub})
	}
	if len(pop.Children) == 0 {
		return nil
	}
	return pop
}

// mergeDeep merges src into dst as lodash's merge merges the plugin's populate objects for a
// dynamic zone: keys keep their first position, a later `true` replaces an object and a later
// object replaces `true`.
func mergeDeep(dst, src *ir.Populate) *ir.Populate {
	if dst == nil {
		return src
	}
	for _, c := range src.Children {
		ex := dst.Find(c.Field)
		switch {
		case ex == nil:
			dst.Children = append(dst.Children, c)
		case c.Populate == nil:
			ex.Populate = nil
		default:
			ex.Populate = mergeDeep(ex.Populate, c.Populate)
		}
	}
	return dst
}
