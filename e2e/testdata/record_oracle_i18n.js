#!/usr/bin/env node
// Records the real Strapi v4 (the "oracle") answering a scripted sequence of REST requests about
// i18n (locales, localized entries, createLocalization, single types per locale) on examples/blog,
// and writes the golden file i18n_rest.json next to this script. Same format and masking rule as
// blog_rest.json (see README.md); this is a SEPARATE sequence, run on its own fresh database.
//
// Usage (from the repo root):
//   ../shared/strapi-oracle/start.sh --app ./examples/blog --fresh
//   node e2e/testdata/record_oracle_i18n.js        # writes e2e/testdata/i18n_rest.json
//
// Env: ORACLE_URL (default http://127.0.0.1:1338), ORACLE_TOKEN (default: the kit's full-access
// token), OUT (default: i18n_rest.json next to this script).
// Optional: PGURL (e.g. postgres://postgres@127.0.0.1:55433/strapi_oracle): when set, `psql` is
// run at the SNAP points below and the link-table / row snapshots are written to DB_OUT (default
// i18n_db_snapshots.json next to this script). They are NOT part of the replay; they document the
// storage layout for implementers.
// No npm dependencies (node >= 18: global fetch).
//
// The steps MUST run in order on a FRESH database (ids start at 1).
'use strict';

const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const BASE = (process.env.ORACLE_URL || 'http://127.0.0.1:1338').replace(/\/$/, '');
const TOKEN = process.env.ORACLE_TOKEN || 'oracle0full0access0token0000000000000000000000000000000000000001';
const OUT = process.env.OUT || path.join(__dirname, 'i18n_rest.json');
const PGURL = process.env.PGURL || '';
const DB_OUT = process.env.DB_OUT || path.join(__dirname, 'i18n_db_snapshots.json');

// Masking: see oracle_mask.js (the rule is documented in README.md).
const { TIME, maskParsed, maskRaw } = require('./oracle_mask');

// ---------------------------------------------------------------------------------------------
// Steps
// ---------------------------------------------------------------------------------------------
const steps = [];
const S = (name, method, p, body, extra) => {
  const s = { name, method, path: p };
  if (body !== undefined) s.body = body;
  Object.assign(s, extra || {});
  steps.push(s);
};
const GET = (name, p, extra) => S(name, 'GET', p, undefined, extra);
const SNAP = (label) => steps.push({ snap: label });
const D = (day) => `2024-01-${String(day).padStart(2, '0')}T00:00:00.000Z`;
// Compact read of a page group: id, locale, the non-localized fields and the links.
const G = '?fields[0]=title&fields[1]=slug&fields[2]=views&fields[3]=locale&fields[4]=publishedAt&populate[localizations][fields][0]=title&populate[localizations][fields][1]=views&populate[localizations][fields][2]=locale&publicationState=preview';
const LIST = 'sort=id&fields[0]=title&fields[1]=views&fields[2]=locale';

// ===== 0. Locales =============================================================================
GET('locales list', '/api/i18n/locales');

// ===== 1. Seeding: writers and pages created through the normal create route ==================
S('create writer 1 Ann', 'POST', '/api/writers', { data: { name: 'Ann' } });
S('create writer 2 Bob', 'POST', '/api/writers', { data: { name: 'Bob' } });
S('create page 1 en (no locale -> default) populate=*', 'POST', '/api/pages?populate=*', { data: {
  title: 'Home', body: 'Welcome home', slug: 'home', views: 10, seo: { metaTitle: 'Home SEO' }, author: 1, publishedAt: D(1),
} });
S('create page 2 directly in fr', 'POST', '/api/pages', { data: { title: 'Accueil direct', views: 3, locale: 'fr', publishedAt: D(2) } });
S('create page 3 en About', 'POST', '/api/pages', { data: { title: 'About', body: 'About us', views: 5, author: 2, publishedAt: D(3) } });
S('create page 4 en draft', 'POST', '/api/pages', { data: { title: 'Draft page', views: 1, publishedAt: null } });
S('create page 5 explicit locale en', 'POST', '/api/pages', { data: { title: 'Contact', views: 20, locale: 'en', publishedAt: D(5) } });
S('create page 6 locale null -> default', 'POST', '/api/pages', { data: { title: 'Blog', views: 30, locale: null, publishedAt: D(6) } });
S('create unknown locale de -> 400', 'POST', '/api/pages', { data: { title: 'Hallo', locale: 'de', publishedAt: D(9) } });
S('create empty-string locale -> 400', 'POST', '/api/pages', { data: { title: 'Empty', locale: '', publishedAt: D(9) } });
S('create upper-case locale FR -> 400', 'POST', '/api/pages', { data: { title: 'Upper', locale: 'FR', publishedAt: D(9) } });
S('create page 7 with ?locale=fr in the query (ignored -> en)', 'POST', '/api/pages?locale=fr', { data: { title: 'Query locale', views: 0, publishedAt: D(7) } });
S('create page 8 with fields/populate query returns locale', 'POST', '/api/pages?fields[0]=title&fields[1]=locale&populate[localizations]=true', { data: { title: 'Shaped', views: 8, publishedAt: D(8) } });
GET('list pages default (no sort, inserts only: default locale, live)', '/api/pages');
GET('list pages locale=fr (no sort, inserts only)', '/api/pages?locale=fr');
SNAP('after seeding');

// ===== 2. POST /api/pages/:id/localizations ===================================================
S('localization fr of page 3 (unwrapped body) -> page 9 draft', 'POST', '/api/pages/3/localizations', { locale: 'fr', title: 'À propos', body: 'Qui sommes-nous' });
SNAP('after localization 9 of 3');
GET('page 3 populate=localizations (fr draft hidden: live)', '/api/pages/3?populate=localizations');
GET('page 3 populate=localizations publicationState=preview', '/api/pages/3?populate=localizations&publicationState=preview');
GET('page 9 populate=localizations (links both ways)', '/api/pages/9?populate=localizations');
GET('page 9 findOne without locale (fr returned)', '/api/pages/9');
GET('page 9 findOne with locale=en (ignored)', '/api/pages/9?locale=en');
S('localization of page 1 whose slug is unique -> 400 unique (slug copied)', 'POST', '/api/pages/1/localizations', { locale: 'fr', title: 'Accueil' });
S('localization missing locale -> 400', 'POST', '/api/pages/3/localizations', { title: 'Sans locale' });
S('localization wrapped in data -> locale is missing', 'POST', '/api/pages/5/localizations', { data: { locale: 'fr', title: 'Wrapped' } });
S('localization no body -> locale is missing', 'POST', '/api/pages/5/localizations');
S('localization locale null -> locale is missing', 'POST', '/api/pages/5/localizations', { locale: null, title: 'Null' });
S('localization unknown locale -> locale is invalid', 'POST', '/api/pages/5/localizations', { locale: 'de', title: 'Hallo' });
S('localization empty locale -> locale is invalid', 'POST', '/api/pages/5/localizations', { locale: '', title: 'Vide' });
S('localization fr again on 3 -> already used', 'POST', '/api/pages/3/localizations', { locale: 'fr', title: 'Encore' });
S('localization en on fr page 9 -> already used', 'POST', '/api/pages/9/localizations', { locale: 'en', title: 'Again' });
S('localization own locale en on 5 -> already used', 'POST', '/api/pages/5/localizations', { locale: 'en', title: 'Same' });
S('localization base 999 missing -> 404', 'POST', '/api/pages/999/localizations', { locale: 'fr', title: 'Perdu' });
S('localization base 999 missing and no locale -> 404 first', 'POST', '/api/pages/999/localizations', { title: 'Perdu' });
S('localization base id not numeric -> 500', 'POST', '/api/pages/abc/localizations', { locale: 'fr', title: 'abc' }, { strapi_500: true, note: 'the non-numeric id reaches PostgreSQL (same as GET /api/articles/abc in blog_rest.json); Quarry may answer 400 or 404 instead' });
S('localization of draft 4 published explicitly, author, seo, query ignored -> page 10', 'POST', '/api/pages/4/localizations?populate=*&fields[0]=title', {
  locale: 'fr', title: 'Brouillon publié', seo: { metaTitle: 'SEO fr' }, author: 1, publishedAt: '2024-02-01T00:00:00+01:00',
});
GET('page 10 populate=* (author set, seo set)', '/api/pages/10?populate=*');
GET('page 4 populate=* (draft base)', '/api/pages/4?populate=*');
S('localization of 5 with views override and junk keys -> page 11', 'POST', '/api/pages/5/localizations', {
  locale: 'fr', title: 'Contactez-nous', views: 99, id: 500, localizations: [1], unknownKey: 'x', createdAt: '2000-01-01T00:00:00.000Z',
});
GET('page 5 after localization with views 99 (base synced to 99)', '/api/pages/5' + G);
GET('page 1 after junk localizations:[1] (not linked)', '/api/pages/1' + G);
S('localization of 6 without title and without publishedAt -> 400 required', 'POST', '/api/pages/6/localizations', { locale: 'fr' }, { note: 'the body has no publishedAt key, so the validator treats it as published (required enforced) although the entry would be stored as a draft' });
S('localization of 6 without title, publishedAt null (draft skips required) -> page 12', 'POST', '/api/pages/6/localizations', { locale: 'fr', publishedAt: null });
GET('page 12 (title null draft)', '/api/pages/12' + G);
S('localization of 7 without title but published -> 400 required', 'POST', '/api/pages/7/localizations', { locale: 'fr', publishedAt: '2024-02-02T00:00:00.000Z' });
S('localization of 7 with views null in the body -> page 13', 'POST', '/api/pages/7/localizations', { locale: 'fr', title: 'Requête', body: null, views: null });
GET('page 7 after localization with views null', '/api/pages/7' + G);
SNAP('after createLocalization steps');

// ===== 3. REST create with data.localizations ================================================
S('create fr page 14 with localizations [8], no populate', 'POST', '/api/pages', { data: { title: 'Façonné', views: 80, locale: 'fr', localizations: [8], publishedAt: D(10) } });
GET('page 8 after create-with-localizations without populate (one-way link, no sync)', '/api/pages/8' + G);
GET('page 14 after create-with-localizations', '/api/pages/14' + G);
S('create fr page 15 with localizations [8] and populate=localizations', 'POST', '/api/pages?populate=localizations', { data: { title: 'Façonné 2', views: 81, locale: 'fr', localizations: [8], publishedAt: D(11) } });
GET('page 8 after second create-with-localizations (sync)', '/api/pages/8' + G);
GET('page 14 after second create-with-localizations', '/api/pages/14' + G);
GET('page 15 after second create-with-localizations', '/api/pages/15' + G);
SNAP('after REST create with localizations');

// ===== 4. PUT and the non-localized fields ====================================================
S('PUT page 3 views 50 without populate', 'PUT', '/api/pages/3', { data: { views: 50 } });
GET('page 9 after PUT 3 without populate (not synced)', '/api/pages/9' + G);
S('PUT page 3 views 51 with populate=localizations', 'PUT', '/api/pages/3?populate=localizations', { data: { views: 51 } });
GET('page 9 after PUT 3 with populate (synced)', '/api/pages/9' + G);
S('PUT page 9 views 52 with populate[localizations][fields][0]=title', 'PUT', '/api/pages/9?populate[localizations][fields][0]=title', { data: { views: 52, title: 'À propos de nous' } });
GET('page 3 after PUT 9 (synced, title not)', '/api/pages/3' + G);
S('PUT page 3 views 53 with fields[0]=title and populate (views not selected)', 'PUT', '/api/pages/3?fields[0]=title&populate=localizations', { data: { views: 53 } });
GET('page 9 after PUT 3 fields without views', '/api/pages/9' + G);
S('PUT page 3 with locale fr and localizations [] in body (ignored)', 'PUT', '/api/pages/3?populate=localizations&publicationState=preview', { data: { title: 'About us', locale: 'fr', localizations: [] } });
S('PUT page 3 with unknown locale in body (ignored, no error)', 'PUT', '/api/pages/3', { data: { locale: 'de' } });
S('PUT page 3 with only locale and localizations', 'PUT', '/api/pages/3?fields[0]=locale', { data: { locale: 'fr', localizations: [1, 2] } });
S('PUT page 3 with ?locale=fr in the query', 'PUT', '/api/pages/3?locale=fr&fields[0]=title&fields[1]=locale', { data: { body: 'About us, again' } });
GET('page 3 after the ignored keys', '/api/pages/3' + G);
S('PUT page 10 publish/unpublish keeps base', 'PUT', '/api/pages/10?populate=localizations&fields[0]=title&fields[1]=publishedAt', { data: { publishedAt: null } });
GET('page 4 after unpublishing its fr localization', '/api/pages/4' + G);
S('PUT page 10 republish with views 12 (populate -> synced to draft 4)', 'PUT', '/api/pages/10?populate=localizations&fields[0]=views&fields[1]=publishedAt', { data: { publishedAt: D(12), views: 12 } });
GET('page 4 after PUT 10', '/api/pages/4' + G);
SNAP('after PUT steps');

// ===== 5. Lists ===============================================================================
GET('list default locale sorted', '/api/pages?' + LIST);
GET('list locale=en', '/api/pages?locale=en&' + LIST);
GET('list locale=fr', '/api/pages?locale=fr&' + LIST);
GET('list locale=all', '/api/pages?locale=all&' + LIST);
GET('list locale[0]=en&locale[1]=fr', '/api/pages?locale[0]=en&locale[1]=fr&' + LIST);
GET('list locale=de (unknown: empty)', '/api/pages?locale=de&' + LIST);
GET('list locale= (empty string)', '/api/pages?locale=&' + LIST);
GET('list locale=FR (case)', '/api/pages?locale=FR&' + LIST);
GET('list locale=fr preview', '/api/pages?locale=fr&publicationState=preview&' + LIST);
GET('list locale=all preview', '/api/pages?locale=all&publicationState=preview&' + LIST);
GET('list locale=fr with filter views gt', '/api/pages?locale=fr&filters[views][$gt]=10&' + LIST);
GET('list locale=all with $or filter', '/api/pages?locale=all&filters[$or][0][title][$startsWith]=A&filters[$or][1][views][$eq]=30&' + LIST);
GET('list locale=all sort locale:desc,title', '/api/pages?locale=all&publicationState=preview&sort[0]=locale:desc&sort[1]=title&fields[0]=title&fields[1]=locale');
GET('list locale=fr sort views:desc', '/api/pages?locale=fr&sort=views:desc,id&fields[0]=title&fields[1]=views');
GET('list locale=all pagination page 2 size 3', '/api/pages?locale=all&pagination[page]=2&pagination[pageSize]=3&' + LIST);
GET('list locale=fr pagination start/limit', '/api/pages?locale=fr&pagination[start]=1&pagination[limit]=2&' + LIST);
GET('list filters[locale][$eq]=fr without locale (empty)', '/api/pages?filters[locale][$eq]=fr&' + LIST);
GET('list filters[locale][$eq]=fr with locale=fr', '/api/pages?filters[locale][$eq]=fr&locale=fr&' + LIST);
GET('list filters[locale][$eq]=fr with locale=all', '/api/pages?filters[locale][$eq]=fr&locale=all&' + LIST);
GET('list filters[locale]=en with locale=fr (empty)', '/api/pages?filters[locale]=en&locale=fr&' + LIST);
GET('list filters[id][$eq]=9 without locale (default-locale filter still applies)', '/api/pages?filters[id][$eq]=9&' + LIST);
GET('list filter through localizations locale', '/api/pages?filters[localizations][locale][$eq]=fr&' + LIST);
GET('list filter localizations id', '/api/pages?locale=all&filters[localizations][id][$eq]=8&' + LIST);
GET('list fields locale only', '/api/pages?locale=fr&sort=id&fields[0]=locale');
GET('list populate=localizations', '/api/pages?sort=id&populate=localizations');
GET('list populate=localizations preview', '/api/pages?sort=id&populate=localizations&publicationState=preview&fields[0]=title');
GET('list populate[localizations][fields][0]=title', '/api/pages?locale=fr&sort=id&fields[0]=title&populate[localizations][fields][0]=title');
GET('list populate localizations nested localizations', '/api/pages?sort=id&fields[0]=title&populate[localizations][fields][0]=title&populate[localizations][populate][localizations][fields][0]=locale&filters[id][$eq]=8');
GET('list populate localizations count', '/api/pages?sort=id&fields[0]=title&populate[localizations][count]=true');
GET('list populate localizations filtered by locale', '/api/pages?locale=all&sort=id&fields[0]=title&populate[localizations][filters][locale][$eq]=en&populate[localizations][fields][0]=locale');
GET('findOne page 1 populate=*', '/api/pages/1?populate=*');
GET('findOne page 10 populate=* (fr)', '/api/pages/10?populate=*');
GET('findOne page 2 fr without locale', '/api/pages/2');
GET('findOne page 2 with locale=de (ignored)', '/api/pages/2?locale=de');
GET('findOne page 999 -> 404', '/api/pages/999?locale=fr');

// ===== 6. Single type footer ==================================================================
GET('footer GET empty -> 404', '/api/footer');
GET('footer GET locale=fr empty -> 404', '/api/footer?locale=fr');
S('footer PUT ?locale=fr on empty table creates an en entry', 'PUT', '/api/footer?locale=fr', { data: { text: 'Pied (via locale=fr)', year: 2024 } });
GET('footer GET after PUT locale=fr', '/api/footer');
GET('footer GET locale=fr after PUT locale=fr', '/api/footer?locale=fr');
S('footer PUT en update', 'PUT', '/api/footer', { data: { text: 'Footer EN', year: 2024 } });
S('footer PUT ?locale=fr with an en row -> 400 alreadyExists', 'PUT', '/api/footer?locale=fr', { data: { text: 'Pied' } });
S('footer PUT with data.locale fr updates en (locale ignored)', 'PUT', '/api/footer', { data: { text: 'Footer EN 2', locale: 'fr' } });
S('footer localization missing locale', 'POST', '/api/footer/localizations', { text: 'x' });
S('footer localization invalid locale', 'POST', '/api/footer/localizations', { locale: 'de', text: 'x' });
S('footer localization en already used', 'POST', '/api/footer/localizations', { locale: 'en', text: 'x' });
S('footer localization fr -> footer 2', 'POST', '/api/footer/localizations', { locale: 'fr', text: 'Pied de page' });
S('footer localization fr again -> already used', 'POST', '/api/footer/localizations', { locale: 'fr', text: 'x' });
GET('footer GET en', '/api/footer');
GET('footer GET locale=fr', '/api/footer?locale=fr');
GET('footer GET locale=all', '/api/footer?locale=all', { note: 'No ORDER BY: Strapi returns PostgreSQL heap order, and row 1 (en) was updated several times, so fr (id 2) comes first. An implementation ordering by id returns en first; compare as a set if you do not mirror heap order.' });
GET('footer GET locale[0]=en&locale[1]=fr', '/api/footer?locale[0]=en&locale[1]=fr', { note: 'Single type with several locales: one entry, the first row matching locale IN (en, fr) in heap order (here fr, see the locale=all step). Order-dependent.' });
GET('footer GET locale=de -> 404', '/api/footer?locale=de');
GET('footer GET populate=localizations', '/api/footer?populate=localizations');
GET('footer GET locale=fr populate=*', '/api/footer?locale=fr&populate=*');
S('footer PUT ?locale=fr updates fr, no populate (year not synced)', 'PUT', '/api/footer?locale=fr', { data: { text: 'Pied 2', year: 2025 } });
GET('footer GET en after fr update without populate', '/api/footer');
S('footer PUT ?locale=fr with populate=localizations (year synced)', 'PUT', '/api/footer?locale=fr&populate=localizations', { data: { year: 2026 } });
GET('footer GET en after fr update with populate', '/api/footer?populate=localizations');
SNAP('footer with two locales');
S('footer DELETE ?locale=de -> 404', 'DELETE', '/api/footer?locale=de');
S('footer DELETE ?locale=fr', 'DELETE', '/api/footer?locale=fr');
GET('footer GET locale=fr after delete -> 404', '/api/footer?locale=fr');
GET('footer GET en after fr delete (links)', '/api/footer?populate=localizations');
S('footer PUT ?locale=fr after delete -> 400 alreadyExists', 'PUT', '/api/footer?locale=fr', { data: { text: 'Pied 3' } });
S('footer localization fr again -> footer 3', 'POST', '/api/footer/localizations', { locale: 'fr', text: 'Pied 3', year: 2030 });
GET('footer GET en after localization with year 2030', '/api/footer');
S('footer DELETE default (en)', 'DELETE', '/api/footer');
GET('footer GET after en delete -> 404', '/api/footer');
GET('footer GET locale=fr after en delete', '/api/footer?locale=fr&populate=localizations');
S('footer PUT en with only fr row -> 400 alreadyExists', 'PUT', '/api/footer', { data: { text: 'Footer EN again' } });
S('footer localization en from the fr row -> footer 4', 'POST', '/api/footer/localizations', { locale: 'en', text: 'Footer EN again' });
GET('footer GET en recreated', '/api/footer?populate=localizations');
SNAP('footer final');

// ===== 7. DELETE of localized entries =========================================================
S('DELETE page 9 (fr of 3)', 'DELETE', '/api/pages/9');
GET('page 3 after deleting its fr localization', '/api/pages/3' + G);
S('DELETE page 8 (en with fr 14 one-way and fr 15 two-way) populate=localizations', 'DELETE', '/api/pages/8?populate=localizations');
GET('page 14 after deleting 8', '/api/pages/14' + G);
GET('page 15 after deleting 8', '/api/pages/15' + G);
S('DELETE page 8 again -> 404', 'DELETE', '/api/pages/8');
S('localization of deleted page 9 -> 404', 'POST', '/api/pages/9/localizations', { locale: 'fr', title: 'x' });
S('localization fr of 3 again after delete -> page 16', 'POST', '/api/pages/3/localizations', { locale: 'fr', title: 'À propos (bis)' });
SNAP('after deletes');

// ===== 8. Drafts ==============================================================================
GET('list fr live (drafts from createLocalization hidden)', '/api/pages?locale=fr&sort=id&fields[0]=title&fields[1]=publishedAt');
GET('list fr preview (drafts shown)', '/api/pages?locale=fr&publicationState=preview&sort=id&fields[0]=title&fields[1]=publishedAt');
GET('list all preview filter publishedAt null', '/api/pages?locale=all&publicationState=preview&filters[publishedAt][$null]=true&sort=id&fields[0]=title&fields[1]=locale');
S('publish fr draft 16', 'PUT', '/api/pages/16?fields[0]=title&fields[1]=publishedAt', { data: { publishedAt: D(16) } });
GET('list fr live after publish', '/api/pages?locale=fr&sort=id&fields[0]=title&fields[1]=publishedAt');
GET('final list all preview populate localizations', '/api/pages?locale=all&publicationState=preview&sort=id&fields[0]=title&fields[1]=slug&fields[2]=views&fields[3]=locale&populate[localizations][fields][0]=locale');

// ===== 9. Oddities (kept last: later ids do not depend on them) ================================
S('create page 17 en with a slug for the unique test', 'POST', '/api/pages', { data: { title: 'Uniq', slug: 'uniq', views: 1, publishedAt: D(17) } });
S('localization of a slug page with a new slug in the body', 'POST', '/api/pages/17/localizations', { locale: 'fr', title: 'Uniq fr', slug: 'uniq-fr' }, {
  note: 'Answers 400 although the new entry (id 18, slug uniq-fr) IS created and linked both ways: after the insert and the link sync, the create decorator syncs its non-localized fields (slug, views) onto the base via entityService.update, whose unique check finds the new entry. No transaction.',
});
GET('pages with slug uniq* after that', '/api/pages?locale=all&publicationState=preview&filters[slug][$startsWith]=uniq&' + LIST + '&fields[3]=slug&populate[localizations][fields][0]=locale');
S('PUT slug on 4 with populate=localizations: 400 from the sync', 'PUT', '/api/pages/4?populate=localizations', { data: { slug: 'draft-slug' } }, {
  note: 'Page 4 is updated (slug draft-slug) and then the sync of slug onto its localization 10 fails the unique check (4 already has it), so the request answers 400 although page 4 was changed; 10 keeps slug null. No transaction.',
});
GET('pages 4 and 10 after the slug PUT', '/api/pages?locale=all&publicationState=preview&filters[id][$in][0]=4&filters[id][$in][1]=10&' + LIST + '&fields[3]=slug');
S('create page linking a page of the same locale via localizations', 'POST', '/api/pages?populate[localizations][fields][0]=locale', { data: { title: 'Same locale link', views: 4, localizations: [5], publishedAt: D(18) } }, {
  note: 'No locale check on data.localizations in the REST create: en page 19 is linked to en page 5; with populate the sync REPLACES page 5\'s links by [19] (5 loses 11, while 11 still points to 5) and copies views 4 onto page 5.',
});
GET('page 5 after same-locale link', '/api/pages/5' + G);
S('create en page linked to fr pages 2 and 14 with populate (group of three)', 'POST', '/api/pages?populate[localizations][fields][0]=locale', { data: { title: 'Trio', views: 3, localizations: [2, 14], publishedAt: D(19) } });
GET('page 2 after group of three', '/api/pages/2' + G);
GET('page 14 after group of three', '/api/pages/14' + G);
SNAP('final');

// ---------------------------------------------------------------------------------------------
function snapshot(label) {
  const q = (sql) => {
    const out = execFileSync('psql', [PGURL, '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c',
      `select coalesce(json_agg(t), '[]'::json) from (${sql}) t`], { encoding: 'utf8' });
    return JSON.parse(out);
  };
  const maskRow = (r) => {
    if (typeof r.published_at === 'string' && !r.published_at.startsWith('2024-')) r.published_at = TIME;
    return r;
  };
  return {
    snap: label,
    pages_localizations_links: q('select id, page_id, inv_page_id, page_order from pages_localizations_links order by id'),
    pages: q("select id, locale, title, slug, views, to_char(published_at, 'YYYY-MM-DD\"T\"HH24:MI:SS.MS') as published_at from pages order by id").map(maskRow),
    footers_localizations_links: q('select id, footer_id, inv_footer_id, footer_order from footers_localizations_links order by id'),
    footers: q('select id, locale, text, year from footers order by id'),
  };
}

async function run() {
  const names = new Set();
  for (const s of steps) {
    if (s.snap) continue;
    if (names.has(s.name)) throw new Error('duplicate step name: ' + s.name);
    names.add(s.name);
  }
  const out = [];
  const snaps = [];
  for (const s of steps) {
    if (s.snap) {
      if (PGURL) snaps.push(snapshot(s.snap));
      continue;
    }
    const headers = { Authorization: `Bearer ${TOKEN}` };
    let body;
    if (s.body_raw !== undefined) body = s.body_raw;
    else if (s.body !== undefined) body = JSON.stringify(s.body);
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(BASE + s.path, { method: s.method, headers, body });
    const raw = await res.text();
    let parsed = null;
    if (raw !== '') {
      try { parsed = JSON.parse(raw); } catch (e) { parsed = undefined; }
    }
    const rec = { name: s.name, method: s.method, path: s.path };
    if (s.body !== undefined) rec.body = s.body;
    if (s.body_raw !== undefined) rec.body_raw = s.body_raw;
    rec.status = res.status;
    if (s.strapi_500) rec.strapi_500 = true;
    if (s.quarry_deviates) rec.quarry_deviates = true;
    if (s.note) rec.note = s.note;
    rec.response = parsed === undefined ? null : maskParsed(parsed);
    rec.response_raw = maskRaw(raw);
    if (s.strapi_500 && res.status !== 500) console.error(`WARN step "${s.name}": expected 500, got ${res.status}`);
    if (res.status >= 500 && !s.strapi_500) console.error(`WARN step "${s.name}": unexpected ${res.status}`);
    out.push(rec);
  }
  fs.writeFileSync(OUT, JSON.stringify(out, null, 2) + '\n');
  console.error(`wrote ${out.length} steps to ${OUT}`);
  if (PGURL) {
    fs.writeFileSync(DB_OUT, JSON.stringify(snaps, null, 2) + '\n');
    console.error(`wrote ${snaps.length} DB snapshots to ${DB_OUT}`);
  }
}

run().catch((e) => { console.error(e); process.exit(1); });
