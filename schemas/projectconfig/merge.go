package projectconfig

// Merge deep-merges src into dst as lodash's _.merge does (Strapi merges config/env/<env>
// over config/ with it): plain objects merge key by key, arrays merge index by index (a
// shorter array overrides only the first items), any other value replaces. dst is not
// modified; the result shares no maps or slices with dst.
func Merge(dst, src any) any {
	switch s := src.(type) {
	case map[string]any:
		out := map[string]any{}
		if d, ok := dst.(map[string]any); ok {
			for k, v := range d {
				out[k] = clone(v)
			}
		}
		for k, v := range s {
			out[k] = Merge(out[k], v)
		}
		return out
	case []any:
		var out []any
		if d, ok := dst.([]any); ok {
			out = make([]any, max(len(d), len(s)))
			for i, v := range d {
				out[i] = clone(v)
			}
		} else {
			out = make([]any, len(s))
		}
		for i, v := range s {
			out[i] = Merge(out[i], v)
		}
		return out
	}
	return src
}

func clone(v any) any {
	switch t := v.(type) {
	case map[string]any, []any:
		return Merge(nil, t)
	}
	return v
}
