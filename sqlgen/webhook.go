package sqlgen

import sq "github.com/Masterminds/squirrel"

// WebhooksTable holds the webhooks configured in Strapi's admin (strapi_webhooks).
const WebhooksTable = "strapi_webhooks"

// Webhooks lists the webhooks by id: id, name, url, headers, events, enabled.
func Webhooks(d Dialect) Stmt {
	return build(d, sq.Select(quoteAll(d, "id", "name", "url", "headers", "events", "enabled")...).
		From(d.Quote(WebhooksTable)).OrderBy(d.Quote("id")))
}
