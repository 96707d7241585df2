package execute

import (
	"context"

	"github.com/quarrycms/quarry/ir/plan"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
)

// The `related` entries of files (UploadFile.related, a morph relation plans do not
// populate), read through the upload plugin's Related.

// loadRelated reads, for a root field that selects UploadFile.related, the related entries
// of every file in a result (one statement for the links, one per related type).
func (x *execution) loadRelated(ctx context.Context, db exec.Queryer, root *plan.Select, entries []*exec.Entry) error {
	rf := x.cur
	if rf == nil || rf.Related == nil || x.h.related == nil || x.emptyPopulate {
		return nil
	}
	var ids []int64
	var walk func(s *plan.Select, e *exec.Entry)
	walk = func(s *plan.Select, e *exec.Entry) {
		if s.Model == x.h.gs.Content.Files {
			ids = append(ids, e.ID)
		}
		for _, k := range e.Kids {
			for i, ke := range k.Entries {
				if i < len(k.Steps) {
					walk(k.Steps[i], ke)
				}
			}
		}
	}
	for _, e := range entries {
		walk(root, e)
	}
	if len(ids) == 0 {
		return nil
	}
	rel, err := x.h.related(ctx, db, ids, x.caller.CanFind, rf.Related)
	if err != nil {
		return err
	}
	x.stmts += 1 + len(relatedTypes(rel))
	if x.related == nil {
		x.related = map[int64][]*exec.Related{}
	}
	for id, list := range rel {
		x.related[id] = list
	}
	return nil
}

func relatedTypes(rel map[int64][]*exec.Related) map[*schemas.Model]bool {
	out := map[*schemas.Model]bool{}
	for _, list := range rel {
		for _, r := range list {
			out[r.Model] = true
		}
	}
	return out
}

// morphs writes UploadFile.related of file id: each entry as its GenericMorph member, with
// the scalar attributes read (others answer null).
func (x *execution) morphs(f *pg.Field, id int64, p *path) done {
	x.w.WriteByte('[')
	if !x.emptyPopulate {
		var ip path // outside the loop, to stay on the stack (see path)
		for i, r := range x.related[id] {
			if i > 0 {
				x.w.WriteByte(',')
			}
			o := f.Union[x.h.gs.TypeName(r.Model)]
			if o == nil {
				x.w.WriteString("{}")
				continue
			}
			ip = p.at(i)
			mark := x.w.Len()
			if x.morph(o, r, &ip) == failed {
				x.nullAt(mark) // [GenericMorph] items are nullable
			}
		}
	}
	x.w.WriteByte(']')
	return wrote
}

// morph writes one related entry of a file as its GenericMorph member o.
func (x *execution) morph(o *pg.Object, r *exec.Related, p *path) done {
	x.w.WriteByte('{')
	var fp path // outside the loop, to stay on the stack (see path)
	for i, f := range o.Fields {
		fp = p.field(f.Key)
		start, mark := x.now(), x.member(i, f.Key)
		var d done
		if f.Name == "__typename" {
			d = x.str(o.Type.Name)
		} else {
			d = x.relatedValue(f, r)
		}
		if x.settled(o.Type.Name, f, &fp, start, mark, d) == failed {
			return failed
		}
	}
	x.w.WriteByte('}')
	return wrote
}

// relatedValue writes the value of field f of a related entry: its scalar attribute's, or
// null.
func (x *execution) relatedValue(f *pg.Field, r *exec.Related) done {
	for j, a := range r.Columns {
		if a == f.Attr {
			return x.scalar(a, r.Values[j])
		}
	}
	return x.null()
}
