package jsonw

import "github.com/quarrycms/quarry/ir/apierror"

// Envelope writes Strapi's REST error envelope:
// {"data":null,"error":{"status":…,"name":…,"message":…,"details":…}}.
func (b *Buffer) Envelope(ae *apierror.Error) {
	b.WriteString(`{"data":null,"error":{"status":`)
	b.Int(int64(ae.Status))
	b.WriteString(`,"name":`)
	b.Str(ae.Name)
	b.WriteString(`,"message":`)
	b.Str(ae.Message)
	if !ae.NoDetails {
		b.WriteString(`,"details":`)
		b.Details(ae.Details)
	}
	b.WriteString("}}")
}

// Details writes an error's details as Strapi does: {} when there are none, a validation
// error's {"errors":[{path, message, name}]}, any other value as JSON.
func (b *Buffer) Details(d any) {
	switch x := d.(type) {
	case nil:
		b.WriteString("{}")
	case apierror.RawDetails:
		b.Write(x)
	case apierror.ValidationDetails:
		b.WriteString(`{"errors":[`)
		for i, fe := range x.Errors {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"path":[`)
			for j, p := range fe.Path {
				if j > 0 {
					b.WriteByte(',')
				}
				b.Str(p)
			}
			b.WriteString(`],"message":`)
			b.Str(fe.Message)
			b.WriteString(`,"name":`)
			b.Str(fe.Name)
			b.WriteByte('}')
		}
		b.WriteString("]}")
	default:
		b.Any(x)
	}
}
