// Fetches the introspection result of a running Quarry GraphQL endpoint, builds a client
// schema from it with graphql-js (as GraphiQL and Apollo tooling do), validates a few
// client documents against it and prints the schema as SDL on stdout.
//
//   node introspect.js URL [TOKEN]
//
// Exit status 1 with a message on stderr when anything fails.
'use strict';
const {
  getIntrospectionQuery, buildClientSchema, printSchema, parse, validate, assertValidSchema,
} = require('graphql');

const [url, token] = process.argv.slice(2);
if (!url) {
  console.error('usage: node introspect.js URL [TOKEN]');
  process.exit(2);
}

async function post(query, variables) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = 'Bearer ' + token;
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new Error(`HTTP ${res.status}: not JSON: ${text.slice(0, 200)}`);
  }
  return { status: res.status, body };
}

(async () => {
  // Everything graphql-js 16 can ask for, as GraphiQL does.
  const q = getIntrospectionQuery({
    descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true,
    schemaDescription: true, inputValueDeprecation: true,
  });
  const { status, body } = await post(q);
  if (status !== 200 || body.errors) {
    throw new Error(`introspection failed: HTTP ${status} ${JSON.stringify(body.errors)}`);
  }
  const schema = buildClientSchema(body.data);
  assertValidSchema(schema);
  // Documents a Strapi client sends must validate against the client schema.
  const docs = [
    '{ articles(filters: {title: {containsi: "a"}}, sort: ["title:desc"], pagination: {page: 1, pageSize: 5}) { data { id attributes { title author { data { id } } } } meta { pagination { total } } } }',
    'mutation($d: ArticleInput!) { createArticle(data: $d) { data { id } } }',
    '{ article(id: 1) { data { attributes { blocks { __typename ... on ComponentSharedQuote { text } } } } } }',
  ];
  for (const d of docs) {
    const errs = validate(schema, parse(d));
    if (errs.length) throw new Error(`client document does not validate: ${d}: ${errs.map(String).join('; ')}`);
  }
  process.stdout.write(printSchema(schema) + '\n');
})().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
