#!/usr/bin/env node
// Generates the golden files the Go tests compare package qs against, by
// running the real npm qs on a corpus of query strings.
//
// qs is deliberately not vendored. To regenerate:
//
//   dir=$(mktemp -d) && (cd "$dir" && npm init -y >/dev/null && npm install qs@6.17.1)
//   QS_DIR="$dir" node parser/qs/testdata/gen_reference.js
//
// This writes, next to this script:
//   qs_reference.json       [{"in": query, "out": JSON.stringify(qs.parse(query, strapi))}]
//   qs_reference_opts.json  [{"in": query, "opts": {...}, "out": ...}] for other option values
// where strapi = {strictNullHandling: true, arrayLimit: 100, depth: 20}, the
// options Strapi v4 passes to qs.parse.
//
// With --stdin it instead reads [{"in": query, "opts": {...}?}, ...] from
// stdin and prints the array of outputs; the Go differential test
// (QS_DIR=... go test -run TestDifferential ./parser/qs/) uses that.
//
// The files were generated with qs 6.17.1; other versions differ (qs 6.11,
// pinned by most Strapi 4 releases, has no strictMerge or overflow objects),
// so the script refuses other versions unless QS_ANY_VERSION=1.
'use strict';

var fs = require('fs');
var path = require('path');

var qsPath = process.env.QS_DIR ? path.join(process.env.QS_DIR, 'node_modules', 'qs') : 'qs';
var qs = require(qsPath);
var version = require(path.join(qsPath, 'package.json')).version;
if (version !== '6.17.1' && process.env.QS_ANY_VERSION !== '1') {
    console.error('expected qs 6.17.1, found ' + version + ' (set QS_ANY_VERSION=1 to override)');
    process.exit(1);
}

var STRAPI = { strictNullHandling: true, arrayLimit: 100, depth: 20 };

function parse(s, opts) {
    var o = Object.assign({}, STRAPI, opts || {});
    return JSON.stringify(qs.parse(s, o));
}

if (process.argv.indexOf('--stdin') >= 0) {
    var input = JSON.parse(fs.readFileSync(0, 'utf8'));
    // no process.exit here: it would cut off output still buffered for a pipe
    process.stdout.write(JSON.stringify(input.map(function (c) { return parse(c['in'], c.opts); })));
} else {
    generate();
}

function generate() {
    function repeat(n, f) {
        var out = [];
        for (var i = 0; i < n; i++) {
            out.push(f(i));
        }
        return out;
    }

    function nested(n, leaf) {
        return 'a' + repeat(n, function (i) { return '[k' + i + ']'; }).join('') + '=' + leaf;
    }

    var corpus = [
        // Strapi REST API shapes
        'filters[title][$eq]=hello',
        'filters[$or][0][title][$eq]=hello&filters[$or][1][title][$containsi]=world',
        'filters[$and][0][author][name][$eq]=Kai&filters[$and][1][publishedAt][$notNull]=true',
        'filters[author][books][title][$in][0]=a&filters[author][books][title][$in][1]=b',
        'filters[id][$in][]=1&filters[id][$in][]=2&filters[id][$in][]=3',
        'filters[$not][title][$null]=true',
        'filters[createdAt][$between][0]=2020-01-01&filters[createdAt][$between][1]=2021-01-01',
        'populate=*',
        'populate[0]=author&populate[1]=categories',
        'populate[author][populate][0]=avatar',
        'populate[author][populate][avatar][fields][0]=url&populate[categories][sort][0]=name:asc',
        'populate[author][fields][0]=name&populate[author][populate][books][populate][0]=cover',
        'populate[author]=true&populate[categories][fields][0]=name',
        'populate[0]=a&populate[a][fields][0]=x',
        'sort[0]=title:asc&sort[1]=createdAt:desc',
        'sort=title:asc',
        'sort=title:asc,createdAt:desc',
        'sort[0]=title&sort[0]=id',
        'pagination[page]=2&pagination[pageSize]=25',
        'pagination[start]=0&pagination[limit]=10&pagination[withCount]=false',
        'fields[0]=title&fields[1]=slug&fields[2]=publishedAt',
        'fields=title',
        'locale=fr&publicationState=preview',
        'filters[title][$eq]=a&sort[0]=id&pagination[page]=1&populate[0]=author&fields[0]=title&locale=en',
        'filters%5Btitle%5D%5B%24eq%5D=hello%20world',
        'filters%5B%24or%5D%5B0%5D%5Btitle%5D%5B%24eq%5D=x&filters%5B%24or%5D%5B1%5D%5Bslug%5D%5B%24eq%5D=y',
        'populate%5Bauthor%5D%5Bpopulate%5D%5B0%5D=avatar',
        'filters[title][$contains]=%25&filters[body][$contains]=100%',
        // basics
        '',
        'a',
        'a=',
        'a=b',
        'a=b&c=d',
        '=',
        '=b',
        '&',
        '&&',
        'a&&b',
        '&a=1&',
        'a=b=c',
        'a==b',
        'a&b=',
        'a=1&a=2',
        'a=1&a=2&a=3',
        'a&a',
        'a&a=1',
        'a=1&a',
        'a=&a=',
        'a=&a=x&a',
        'a.b=c',
        'a.b[c]=d',
        'a,b=c',
        'a=b,c',
        'a;b=c',
        'a=b;c=d',
        '#a=b',
        // brackets
        'a[b]=c',
        'a[b][c]=d',
        'a[b][c][d]=e',
        'a[]=b',
        'a[]=b&a[]=c',
        'a[]',
        'a[]&a[]',
        'a[]=',
        'a[][]=x',
        'a[][b]=x',
        'a[][b]=x&a[][c]=y',
        'a[][0]=x',
        'a[][1]=x',
        'a[0][]=x&a[0][]=y',
        'a[b][]=c&a[b][]=d',
        'a[0]=b',
        'a[0]=b&a[1]=c',
        'a[1]=b&a[0]=c',
        'a[1]=b',
        'a[1]=b&a[3]=c',
        'a[3]=c&a[1]=b',
        'a[2]=b&a[]=c',
        'a[0]=b&a[]=c',
        'a[]=b&a[0]=c',
        'a[]=b&a[5]=c',
        'a[0]=x&a[0]=y',
        'a[0]=x&a[0][b]=y',
        'a[0][b]=y&a[0]=x',
        'a[0][b]=1&a[0][c]=2&a[1][b]=3',
        'a[0][b]=1&a[1][b]=2&a[0][c]=3',
        'a[0]=b&a[x]=c',
        'a[x]=c&a[0]=b',
        'a[2]=b&a[x]=c',
        'a[x]=c&a[2]=b',
        'a[b]=c&a[]=d',
        'a[]=d&a[b]=c',
        'a[b]=c&a=d',
        'a=d&a[b]=c',
        'a[b]=c&a=d&a=e',
        'a[b]=c&a=d&a[e]=f',
        'a[b]=c&a=d&a[e]=f&a=g',
        'a[b]=1&a[b]x=2&a[b]y=3',
        'a[b][0]=1&a[b]x=2&a[b]2[d]=3&a[b]3=4',
        'a[b]=c&a',
        'a&a[b]=c',
        'a=&a[b]=c',
        'a[b]&a[b][c]=d',
        'a[b]=&a[b][c]=d',
        'a=x&a[]=y',
        'a[]=y&a=x',
        'a=x&a[1]=y',
        'a=x&a[1]=y&a[b]=z',
        'a[x]=1&a[200]=2&a=3',
        'a[200]=2&a[x]=1&a=3',
        'a[200]=2&a=3',
        'a=3&a[200]=2',
        '1[a]=x&1=y',
        '0=a&1=b',
        'b=1&2=x&1=y&a[c]=1',
        '10=a&9=b&b=c&01=d',
        '4294967294=a&4294967295=b&0=c',
        '[]=a',
        '[]=a&[]=b',
        '[0]=a',
        '[5]=a',
        '[200]=a',
        '[a]=b',
        '[a][b]=c',
        '[[a]]=b',
        ']=a',
        '][=a',
        'a]=b',
        'a]b=c',
        'a[b=c',
        'a[b',
        'a[b[c',
        'a[b]c',
        'a[b]c=d',
        'a[b]c[d]=e',
        'a[[b]]=c',
        'a[b[c]]=d',
        'a[b[c]d]=e',
        'a[[]]=b',
        'a[[]=b',
        'a[]]=b',
        'a[b]]=c',
        'a[]b=c',
        'a[b=c]=d',
        'a[b]=c]=d',
        'a[=b',
        'a[]=b=c',
        'a[b][=c',
        'a[ b ]=c',
        'a[-1]=b',
        'a[01]=b',
        'a[1.5]=b',
        'a[+1]=b',
        'a[1e2]=b',
        'a[ 1]=b',
        'a[0x1]=b',
        // array limit
        'a[99]=x',
        'a[100]=x',
        'a[101]=x',
        'a[0]=x&a[100]=y',
        'a[100]=y&a[0]=x',
        'a[99]=x&a[]=y',
        'a[100]=x&a[]=y',
        'a[100]=x&a=y&a=z',
        'a[4294967295]=x&a[5]=y&a[4294967294]=z',
        'a[9007199254740993]=x',
        'a[9007199254740994]=x&a=y',
        'a[100000000000000000000]=x&a=y',
        'a[1000000000000000000000]=x',
        // prototype keys
        '__proto__=x',
        '__proto__[a]=x',
        'a[__proto__]=x',
        'a[__proto__][b]=x',
        'constructor=x',
        'constructor[prototype][x]=1',
        'a[constructor]=x',
        'a[hasOwnProperty]=x&b=1',
        'toString=x&valueOf=y&b=1',
        'a[b][toString]=x',
        'a[prototype]=x',
        'prototype=x',
        'a[toString]x=1',
        'a[b]=toString',
        'a[b]=c&a=toString',
        'a=toString&a[b]=c',
        'a[__defineGetter__]=1&a[isPrototypeOf]=2&a[propertyIsEnumerable]=3&a[toLocaleString]=4',
        'a[__lookupGetter__]=1&a[__lookupSetter__]=2&a[__defineSetter__]=3',
        'a[Constructor]=x&a[tostring]=y',
        '%5F%5Fproto%5F%5F[a]=x',
        // decoding
        'a+b=c+d',
        'a%20b=c%20d',
        'a=%2B',
        'a%2Bb=1',
        'a=%',
        'a=%2',
        'a=%zz',
        'a%=b',
        'a=%41%42%43',
        'a=%e2%82%ac',
        'a=%E2%82%AC',
        'a=%E2%82',
        'a=%E2%82%AC%',
        'a=%C0%80',
        'a=%ED%A0%80',
        'a=%F4%90%80%80',
        'a=%F0%9F%98%80',
        'a=%FF',
        'a=%80',
        'a=%C3%A9+%',
        'a=caf%C3%A9&b=%',
        'a=%00',
        'a=%0A%09%0D',
        'a=%1F%7F',
        'a=%22%5C',
        'a=%5B%5D',
        'a=%5b%5d',
        'a=%5B%',
        'a%5B%5D=1&a%5B%5D=2',
        'a%5Bb%5D=c',
        'a%5bb%5d=c',
        'a%5Bb=c%5D=d',
        'a%255B=1',
        'a%5B0%5D=x&a%5B1%5D=y',
        'a[b%5D=c',
        'a%5B%=x',
        'a%5B%5D%=x',
        'a%3Db=c',
        'a%26b=c',
        'a=b%26c%3Dd',
        'café=crème',
        'ключ=значение',
        '%E4%BD%A0=%E5%A5%BD',
        'a[é]=ü',
        'emoji=😀&a[😀]=x',
        'a=\u2028',
        'a=<script>&b=&amp;',
        'a="q"&b=\\',
        'a=%3Cb%3E',
        // depth
        nested(19, 'x'),
        nested(20, 'x'),
        nested(21, 'x'),
        nested(25, 'x'),
        nested(21, 'x') + '&' + nested(21, 'y'),
        nested(20, 'x') + '[]',
        'a' + repeat(25, function () { return '[]'; }).join('') + '=x',
        'a' + repeat(25, function () { return '[0]'; }).join('') + '=x',
        'a' + repeat(21, function (i) { return '[' + i + ']'; }).join('') + '=x',
        'a' + repeat(20, function () { return '[b]'; }).join('') + '[toString]=x',
        'a' + repeat(19, function () { return '[b]'; }).join('') + '[toString]=x',
        'a' + repeat(20, function () { return '[b]'; }).join('') + '[c=x',
        'a' + repeat(20, function () { return '[b]'; }).join('') + 'junk[c]=x',
        // duplicates and the array limit on combined values
        repeat(100, function (i) { return 'a=' + i; }).join('&'),
        repeat(101, function (i) { return 'a=' + i; }).join('&'),
        repeat(102, function (i) { return 'a=' + i; }).join('&') + '&a[x]=y',
        repeat(101, function (i) { return 'a[]=' + i; }).join('&'),
        repeat(105, function (i) { return 'a[]=' + i; }).join('&') + '&a=z',
        repeat(100, function (i) { return 'a[' + i + ']=' + i; }).join('&'),
        repeat(100, function (i) { return 'a[' + i + ']=' + i; }).join('&') + '&a[]=x',
        repeat(100, function (i) { return 'a[' + i + ']=' + i; }).join('&') + '&a=x',
        repeat(99, function (i) { return 'a[' + i + ']=' + i; }).join('&') + '&a=x&a=y',
        repeat(101, function (i) { return 'a[b]=' + i; }).join('&'),
        'a=x&' + repeat(101, function (i) { return 'a[]=' + i; }).join('&'),
        repeat(101, function (i) { return 'a[]=' + i; }).join('&') + '&a[b]=c',
        repeat(101, function (i) { return 'a'; }).join('&'),
        repeat(50, function (i) { return 'a[' + (99 - i) + ']=' + i; }).join('&'),
        repeat(101, function (i) { return 'a[x' + i + ']=1'; }).join('&') + '&a=b',
        // parameter limit
        repeat(1001, function (i) { return 'k' + i + '=' + i; }).join('&'),
        repeat(999, function () { return ''; }).join('&') + '&a=1&b=2',
        repeat(1200, function (i) { return 'a[]=' + i; }).join('&'),
    ];

    var optCases = [
        [{ arrayLimit: 0 }, ['a[]=b', 'a[0]=b', 'a=1&a=2', 'a[b]=c&a=d', 'a=d&a[b]=c', 'a[]=b&a[]=c', 'a=x&a[0]=y', '[]=a']],
        [{ arrayLimit: 1 }, ['a[]=b', 'a[0]=b', 'a[1]=b', 'a=1&a=2', 'a[b]=c&a=d', 'a[]=b&a[]=c', 'a[0]=x&a=y', 'a=x&a[0]=y', 'a[0]=x&a[0]=y']],
        [{ arrayLimit: 2 }, ['a=1&a=2&a=3', 'a[]=1&a[]=2&a[]=3', 'a[0]=1&a[1]=2&a[2]=3', 'a[1]=x&a=y', 'a[b]=c&a=d&a=e', 'a=x&a[1]=y']],
        [{ arrayLimit: -1 }, ['a[]=b', 'a[0]=b', 'a=1&a=2', 'a[b]=c&a=d']],
        [{ depth: 0 }, ['a[b]=c', '[a]=b', '[0]=b', '[]=b', '[toString]=x', 'a[toString]=x', '[]=a&[]=b']],
        [{ depth: 1 }, ['a[b][c]=d', 'a[b][c][d]=e', 'a[][]=x', 'a[b][toString]=x', 'a[0][1]=x']],
        [{ depth: 2 }, ['a[b][c][d]=e', 'a[b]x[c]y[d]=e', 'a[b][c][[d]=e']],
        [{ depth: -1 }, ['a[b]=c']],
        [{ parameterLimit: 1 }, ['a=1&b=2', '&a=1', 'a=1']],
        [{ parameterLimit: 2 }, ['a=1&a=2&a=3', 'a&b&c', '&&a']],
        [{ strictNullHandling: false }, ['a', 'a&a', 'a[]', 'a&a[b]=c', 'a[b]=c&a', 'a=x&a', 'a[]&a[]=x']],
        [{ strictNullHandling: false, arrayLimit: 20, depth: 5 }, ['a[b][c][d][e][f][g]=h', 'a[20]=x', 'a[19]=x']],
    ];

    function writeJSON(file, rows) {
        var lines = rows.map(function (r) { return '  ' + JSON.stringify(r); });
        fs.writeFileSync(path.join(__dirname, file), '[\n' + lines.join(',\n') + '\n]\n');
    }

    var seen = {};
    writeJSON('qs_reference.json', corpus.filter(function (s) {
        if (seen[s]) {
            return false;
        }
        seen[s] = true;
        return true;
    }).map(function (s) {
        return { 'in': s, out: parse(s) };
    }));

    var optRows = [];
    optCases.forEach(function (c) {
        var opts = Object.assign({}, STRAPI, { parameterLimit: 1000 }, c[0]);
        c[1].forEach(function (s) {
            optRows.push({ 'in': s, opts: opts, out: parse(s, opts) });
        });
    });
    writeJSON('qs_reference_opts.json', optRows);
    console.error('qs ' + version + ': ' + Object.keys(seen).length + ' strapi cases, ' + optRows.length + ' option cases');
}
