// Package graphql parses and validates a GraphQL request against the generated schema
// (gqlparser) and lowers every Shadow CRUD root field into the same ir.Query the REST
// parser produces: the selection of data.attributes decides the fields, nested relation,
// media, component and dynamic-zone selections become populate levels with their own
// filters, sort, pagination and publication state. Next to each query it keeps the merged
// selection tree (aliases, fragments, __typename) the transport needs to shape the result.
// It does not touch the database.
package graphql

import (
	"errors"
	"fmt"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/quarrycms/quarry/parser/gqlschema"
)

// Error codes of request-level failures, as Apollo Server reports them.
const (
	CodeParseFailed      = "GRAPHQL_PARSE_FAILED"
	CodeValidationFailed = "GRAPHQL_VALIDATION_FAILED"
	CodeBadUserInput     = "BAD_USER_INPUT"
	CodeInternal         = "INTERNAL_SERVER_ERROR"
)

// DefaultTokenLimit bounds the tokens of a document; an introspection query has about 300.
const DefaultTokenLimit = 15000

// Request is one GraphQL request as sent over HTTP. Variables are decoded JSON, numbers as
// json.Number.
type Request struct {
	Query         string
	OperationName string
	Variables     map[string]any
	// KeyOrder, when set, gives the key order of the variables' objects (OrderOf); it is
	// called only when an error message quotes a variable's value.
	KeyOrder func() KeyOrder
}

// Location is a position in the document.
type Location struct{ Line, Column int }

// RequestError is a failure of the request as a whole: nothing runs and the answer is 400.
type RequestError struct {
	Message   string
	Locations []Location
	Code      string
}

// RequestErrors are the failures of a request; Parse returns them as its error.
type RequestErrors []*RequestError

func (e RequestErrors) Error() string {
	msgs := make([]string, len(e))
	for i, x := range e {
		msgs[i] = x.Message
	}
	return strings.Join(msgs, "; ")
}

// Options bound and configure parsing and lowering.
type Options struct {
	TokenLimit int // 0: DefaultTokenLimit
	DepthLimit int // 0: none
	// DefaultLimit, MaxLimit (-1: none) and AmountLimit (0: none) are the pagination
	// settings of the plugin.
	DefaultLimit int
	MaxLimit     int
	AmountLimit  int
	// Cost bounds the work a document may ask for; it is checked before validation.
	Cost CostLimits
	// Docs, when set, keeps the documents that passed parsing and validation, so a client
	// sending the same few documents skips both. One cache serves one schema.
	Docs *Documents
}

// DefaultDocuments is the number of documents a server keeps parsed and validated.
const DefaultDocuments = 256

// maxCachedQuery bounds the text of a cached document: a few fixed documents are what
// clients send, and a huge one would pin its text and tree in memory.
const maxCachedQuery = 64 << 10

// Documents is a bounded LRU of parsed documents that passed validation, the literal checks
// and the depth limit, keyed by their text and the limits that decide validation, each with
// the lowered templates of its operations (template.go). A cached tree is only read
// afterwards (coercion and lowering never change it), so concurrent requests share it.
// Documents that fail are not kept: their errors are recomputed, so they stay exactly those
// of a fresh parse.
type Documents struct {
	c *lru.Cache[docKey, *cachedDoc]
}

type docKey struct {
	query         string
	tokens, depth int
	cost          CostLimits
	pages         [3]int
}

// NewDocuments returns a cache holding at most size documents (DefaultDocuments when size
// is not positive).
func NewDocuments(size int) *Documents {
	if size <= 0 {
		size = DefaultDocuments
	}
	c, err := lru.New[docKey, *cachedDoc](size)
	if err != nil {
		panic(fmt.Sprintf("graphql: document cache: %v", err)) // only for size <= 0, excluded above
	}
	return &Documents{c: c}
}

// Len is the number of documents held.
func (d *Documents) Len() int { return d.c.Len() }

// OptionsFrom takes the limits of a plugin configuration.
func OptionsFrom(c gqlschema.Config) Options {
	return Options{DepthLimit: c.DepthLimit, DefaultLimit: c.DefaultLimit, MaxLimit: c.MaxLimit, AmountLimit: c.AmountLimit,
		Cost: CostLimits{MaxAliases: c.MaxAliases, MaxRepeatedFields: c.MaxRepeatedFields, MaxFields: c.MaxFields, MaxEstimatedRows: c.MaxEstimatedRows}}
}

// Operation is a parsed, validated and lowered request. Its RootFields and their Query
// structs are its own, to complete (the executor sets the default locale); everything they
// point to (the Field and Object tree, populate lists, filters, sort, argument values) may
// be shared with other requests of the same document and must only be read.
type Operation struct {
	Kind   ast.Operation
	Name   string
	Doc    *ast.QueryDocument
	Def    *ast.OperationDefinition
	Vars   map[string]any // coerced variables
	Fields []*RootField   // root fields in response order
}

// Parse parses, validates and lowers a request. A *RequestErrors error means the request
// must be answered with 400 and those errors; errors of single root fields are on the fields.
func Parse(s *gqlschema.Schema, req Request, opt Options) (op *Operation, err error) {
	defer func() {
		// gqlparser's validator panics on some malformed input; never let that reach a client.
		if v := recover(); v != nil {
			op, err = nil, RequestErrors{{Message: "Internal Server Error", Code: CodeInternal}}
		}
	}()
	if strings.TrimSpace(req.Query) == "" {
		return nil, RequestErrors{{Message: "GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.", Code: CodeInternal}}
	}
	limit := opt.TokenLimit
	if limit <= 0 {
		limit = DefaultTokenLimit
	}
	entry, rerrs := document(s, req, opt, limit)
	if rerrs != nil {
		return nil, rerrs
	}
	doc := entry.doc
	def, rerr := selectOperation(doc, req.OperationName)
	if rerr != nil {
		return nil, RequestErrors{rerr}
	}
	if def.Operation == ast.Subscription {
		return nil, RequestErrors{{Message: "Schema is not configured for subscriptions.", Locations: locations(def.Position), Code: CodeInternal}}
	}
	c := &coercer{schema: s.AST, gs: s, orderOf: req.KeyOrder}
	if verrs := c.coerceVariables(def, req.Variables); len(verrs) > 0 {
		return nil, RequestErrors(verrs)
	}
	op = &Operation{Kind: def.Operation, Name: def.Name, Doc: doc, Def: def, Vars: c.vars}
	l := &lowerer{s: s, c: c, doc: doc, opt: opt}
	root := s.AST.Query
	if def.Operation == ast.Mutation {
		root = s.AST.Mutation
	}
	if root == nil {
		return nil, RequestErrors{{Message: fmt.Sprintf("Schema is not configured for %ss.", def.Operation), Locations: locations(def.Position), Code: CodeValidationFailed}}
	}
	op.Fields = l.bind(entry.template(l, def, root), def, root)
	return op, nil
}

// document parses and validates the request's document, or takes it from opt.Docs.
func document(s *gqlschema.Schema, req Request, opt Options, limit int) (*cachedDoc, RequestErrors) {
	key := docKey{query: req.Query, tokens: limit, depth: opt.DepthLimit, cost: opt.Cost,
		pages: [3]int{opt.DefaultLimit, opt.MaxLimit, opt.AmountLimit}}
	if opt.Docs != nil {
		if entry, ok := opt.Docs.c.Get(key); ok {
			// Validation passed, so of the checks below only this one, which depends on the
			// operation name, can still fail, and it comes first as on a fresh parse.
			if rerr := subscriptionError(s, entry.doc, req.OperationName); rerr != nil {
				return nil, RequestErrors{rerr}
			}
			return entry, nil
		}
	}
	doc, perr := parser.ParseQueryWithTokenLimit(&ast.Source{Name: "request", Input: req.Query}, limit)
	if perr != nil {
		return nil, RequestErrors{syntaxError(perr)}
	}
	// Before validation: its overlap rule is quadratic in the fields of one response name
	// and expands every fragment spread.
	if cerrs := checkCost(s.AST, doc, opt); len(cerrs) > 0 {
		return nil, cerrs
	}
	// graphql-js validates a subscription against a schema without one and fails when it
	// executes; answer as Strapi does.
	if rerr := subscriptionError(s, doc, req.OperationName); rerr != nil {
		return nil, RequestErrors{rerr}
	}
	if verrs := validator.Validate(s.AST, doc); len(verrs) > 0 {
		if out := asGraphQLJS(s, doc, req.Query, verrs); len(out) > 0 {
			return nil, out
		}
	}
	if lerrs := checkLiterals(s, doc); len(lerrs) > 0 {
		return nil, lerrs
	}
	keep := opt.Docs != nil && len(req.Query) <= maxCachedQuery
	entry := newCachedDoc(doc, keep)
	if keep {
		opt.Docs.c.Add(key, entry)
	}
	return entry, nil
}

// subscriptionError answers a subscription as Strapi does: graphql-js validates it against a
// schema without one and fails when it executes.
func subscriptionError(s *gqlschema.Schema, doc *ast.QueryDocument, name string) *RequestError {
	if def, rerr := selectOperation(doc, name); rerr == nil && def.Operation == ast.Subscription && s.AST.Subscription == nil {
		return &RequestError{Message: "Schema is not configured for subscriptions.", Locations: locations(def.Position), Code: CodeInternal}
	}
	return nil
}

// syntaxError words a parse failure as graphql-js does ("Syntax Error: ….").
func syntaxError(err error) *RequestError {
	var ge *gqlerror.Error
	msg := err.Error()
	var loc []Location
	if errors.As(err, &ge) {
		msg = ge.Message
		loc = locs(ge.Locations)
	}
	if !strings.HasPrefix(msg, "Syntax Error") {
		msg = "Syntax Error: " + msg
	}
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return &RequestError{Message: msg, Locations: loc, Code: CodeParseFailed}
}

func selectOperation(doc *ast.QueryDocument, name string) (*ast.OperationDefinition, *RequestError) {
	if name != "" {
		if op := doc.Operations.ForName(name); op != nil {
			return op, nil
		}
		return nil, &RequestError{Message: fmt.Sprintf("Unknown operation named \"%s\".", name), Code: CodeInternal}
	}
	switch len(doc.Operations) {
	case 0:
		return nil, &RequestError{Message: "Must provide an operation.", Code: CodeInternal}
	case 1:
		return doc.Operations[0], nil
	}
	return nil, &RequestError{Message: "Must provide operation name if query contains multiple operations.", Code: CodeInternal}
}

// checkDepth is graphql-depth-limit as Strapi configures it: the root fields are at depth 0,
// fields named __* are not counted, and every node deeper than the limit is reported.
func checkDepth(doc *ast.QueryDocument, max int) RequestErrors {
	var errs RequestErrors
	for _, op := range doc.Operations {
		seen := map[string]bool{}
		var depth func(sel ast.Selection, so int)
		var set func(ss ast.SelectionSet, so int)
		set = func(ss ast.SelectionSet, so int) {
			for _, s := range ss {
				depth(s, so)
			}
		}
		depth = func(sel ast.Selection, so int) {
			if so > max {
				errs = append(errs, &RequestError{Message: fmt.Sprintf("'%s' exceeds maximum operation depth of %d", op.Name, max),
					Locations: locations(sel.GetPosition()), Code: CodeValidationFailed})
				return
			}
			switch x := sel.(type) {
			case *ast.Field:
				if strings.HasPrefix(x.Name, "__") || len(x.SelectionSet) == 0 {
					return
				}
				set(x.SelectionSet, so+1)
			case *ast.InlineFragment:
				set(x.SelectionSet, so)
			case *ast.FragmentSpread:
				fd := doc.Fragments.ForName(x.Name)
				if fd == nil || seen[x.Name] {
					return
				}
				seen[x.Name] = true
				set(fd.SelectionSet, so)
				delete(seen, x.Name)
			}
		}
		set(op.SelectionSet, 0)
	}
	return errs
}

func locs(in []gqlerror.Location) []Location {
	out := make([]Location, 0, len(in))
	for _, l := range in {
		out = append(out, Location{Line: l.Line, Column: l.Column})
	}
	return out
}

func locations(p *ast.Position) []Location {
	if p == nil {
		return nil
	}
	return []Location{{Line: p.Line, Column: p.Column}}
}
