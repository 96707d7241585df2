package write

import (
	"context"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

// mediaCheck is one media attribute of the payload whose files must be of the attribute's
// allowedTypes.
type mediaCheck struct {
	attr *schemas.Attribute
	ids  []int64
	at   objPath
}

// noteMedia remembers the files a media value links, when the attribute restricts types.
func (p *walker) noteMedia(a *schemas.Attribute, rf *relField, at objPath) {
	if a.Type != schemas.Media || len(a.Allowed) == 0 {
		return
	}
	ids := append([]int64(nil), rf.ids...)
	for _, c := range rf.connect {
		ids = append(ids, c.id)
	}
	if len(ids) > 0 {
		p.media = append(p.media, mediaCheck{attr: a, ids: ids, at: at})
	}
}

// checkMediaTypes refuses files a media attribute's allowedTypes exclude (images, videos,
// audios, files), the rule Strapi's admin panel applies; one SELECT for all of them.
// Strapi's REST API does not check allowedTypes; Quarry does.
func (p *walker) checkMediaTypes() ([]verr, error) {
	if len(p.media) == 0 {
		return nil, nil
	}
	var all []int64
	for _, mc := range p.media {
		all = append(all, mc.ids...)
	}
	all = dedupe(all)
	rows, err := p.x.db.query(sqlgen.FileMimes(p.x.db.d, all))
	if err != nil {
		return nil, err
	}
	mimes := map[int64]string{}
	for rows.Next() {
		var id int64
		var mime *string
		if err := rows.Scan(&id, &mime); err != nil {
			rows.Close()
			return nil, err
		}
		if mime != nil {
			mimes[id] = *mime
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []verr
	for _, mc := range p.media {
		for _, id := range mc.ids {
			mime, ok := mimes[id]
			if !ok || mc.attr.AcceptsMIME(mime) {
				continue // missing files are reported by the relation check
			}
			out = append(out, verr{path: mc.at.str, segs: mc.at.segs,
				msg: fmt.Sprintf("%s only accepts %s, file %d is %s", mc.at.str, strings.Join(mc.attr.Allowed, ", "), id, mime)})
			break
		}
	}
	return out, nil
}

// InlineMedia records the files sent along with an entry (multipart `files.<attribute>`
// parts) once the entry's row and components are written, inside the same transaction.
// The transport implements it; data is the payload the files came with.
type InlineMedia interface {
	RecordInline(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64, data map[string]any) error
}

func (w *Writer) recordInline(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64, data map[string]any) error {
	if w.Inline == nil {
		return nil
	}
	return w.Inline.RecordInline(ctx, tx, m, id, data)
}
