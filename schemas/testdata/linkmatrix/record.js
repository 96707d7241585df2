'use strict';

// Prints the link tables Strapi 4.26.2's database metadata gives this folder's relations, as
// strapi_links.json holds them: node record.js <a Strapi app's node_modules> > strapi_links.json
// The models are listed as Strapi's loaders list them (the api folders and their content types
// as Node's readdir gives them, components after), and built by @strapi/database itself.
const fs = require('fs');
const path = require('path');

const { Database } = require(path.join(path.resolve(process.argv[2]), '@strapi/database'));

const src = path.join(__dirname, 'src');
const contentTypes = [];
for (const api of fs.readdirSync(path.join(src, 'api'))) {
  for (const ct of fs.readdirSync(path.join(src, 'api', api, 'content-types'))) {
    const schema = JSON.parse(fs.readFileSync(path.join(src, 'api', api, 'content-types', ct, 'schema.json'), 'utf8'));
    contentTypes.push({ ...schema, uid: `api::${api}.${ct}`, modelName: schema.info.singularName });
  }
}
for (const category of fs.existsSync(path.join(src, 'components')) ? fs.readdirSync(path.join(src, 'components')) : []) {
  for (const file of fs.readdirSync(path.join(src, 'components', category))) {
    const schema = JSON.parse(fs.readFileSync(path.join(src, 'components', category, file), 'utf8'));
    const name = path.basename(file, '.json');
    contentTypes.push({ ...schema, uid: `${category}.${name}`, modelName: name });
  }
}

global.strapi = { dirs: { app: { root: __dirname } } }; // the migrations provider reads it
const db = new Database({ connection: { client: 'postgres', connection: {} }, models: Database.transformContentTypes(contentTypes) });
const attributes = {};
const tables = {};
for (const meta of db.metadata.values()) {
  if (meta.uid.endsWith('_links')) {
    tables[meta.tableName] = Object.keys(meta.attributes);
    continue;
  }
  for (const [name, a] of Object.entries(meta.attributes)) {
    if (a.type !== 'relation') continue;
    const j = a.joinTable;
    attributes[`${meta.uid}.${name}`] = j
      ? { table: j.name, source: j.joinColumn.name, target: j.inverseJoinColumn.name, order: j.orderColumnName || '', invOrder: j.inverseOrderColumnName || '' }
      : null;
  }
}
process.stdout.write(JSON.stringify({ attributes, tables }, null, 1) + '\n');
db.connection.destroy();
