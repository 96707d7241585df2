package ir

// The filter operators of Strapi's query language, in one table. The REST parser and the GraphQL
// lowering spell filters with these names, the GraphQL schema builder lists them as the fields of
// every <Scalar>FilterInput, the planner compiles each to the Comparison it names, and sqlgen
// renders the comparisons per dialect. Adding an operator is adding a row here and, if it needs
// a new comparison, a case in sqlgen.

// Logical operators combine filters rather than compare an attribute; they are not in the table.
const (
	OpAnd = "$and"
	OpOr  = "$or"
	OpNot = "$not"
	// OpEq is the operator a plain value under an attribute means (filters[title]=x).
	OpEq = "$eq"
)

// Operand is what an operator takes.
type Operand uint8

const (
	// OneValue: a single value; a list given to it means any of them (Strapi ORs them).
	OneValue Operand = iota
	// ValueList: a list of values, possibly empty ($in, $notIn).
	ValueList
	// ValuePair: exactly two values, the bounds ($between).
	ValuePair
	// Flag: a boolean saying whether the comparison holds or its negation does ($null).
	Flag
)

// Comparison is what a filter compiles to in a plan (plan.Cmp.Op): one SQL comparison, which
// sqlgen spells per dialect. The values are the names explain prints.
type Comparison string

const (
	CmpEq       Comparison = "eq"
	CmpNe       Comparison = "ne"
	CmpLt       Comparison = "lt"
	CmpLte      Comparison = "lte"
	CmpGt       Comparison = "gt"
	CmpGte      Comparison = "gte"
	CmpIn       Comparison = "in"
	CmpNotIn    Comparison = "notIn"
	CmpBetween  Comparison = "between"
	CmpNull     Comparison = "null"
	CmpNotNull  Comparison = "notNull"
	CmpLike     Comparison = "like"     // case-sensitive LIKE pattern
	CmpNotLike  Comparison = "notLike"  // its negation
	CmpILike    Comparison = "ilike"    // case-insensitive LIKE pattern
	CmpNotILike Comparison = "notIlike" // its negation
	// CmpSearch is one column's test of Strapi's _q search: the column as text against a
	// LIKE pattern, spelled per dialect as Strapi's query engine spells it (case-insensitive
	// ILIKE on PostgreSQL, the collation's LIKE on MySQL, LIKE with a backslash escape on
	// SQLite).
	CmpSearch Comparison = "search"
)

// Negated is the comparison holding exactly where c does not, for the comparisons that have one
// ("" otherwise).
func (c Comparison) Negated() Comparison {
	switch c {
	case CmpEq:
		return CmpNe
	case CmpNe:
		return CmpEq
	case CmpIn:
		return CmpNotIn
	case CmpNotIn:
		return CmpIn
	case CmpNull:
		return CmpNotNull
	case CmpNotNull:
		return CmpNull
	case CmpLike:
		return CmpNotLike
	case CmpNotLike:
		return CmpLike
	case CmpILike:
		return CmpNotILike
	case CmpNotILike:
		return CmpILike
	}
	return ""
}

// Operator is one row of the table.
type Operator struct {
	// Name is the operator as REST queries and the IR spell it, with its $.
	Name string
	// Operand is what it takes.
	Operand Operand
	// Cast: the operands are cast to the attribute's type. Otherwise they are text, matched
	// against the column read as text.
	Cast bool
	// Compare is the comparison it compiles to (for a Flag, the one a true flag asks for).
	Compare Comparison
	// Prefix and Suffix wrap a text operand into a LIKE pattern ("%" for contains).
	Prefix, Suffix string
	// OnNull is the comparison a null operand asks for ($eq null is IS NULL). Empty: a cast
	// operator refuses null, a text operator matches the text "null", as Strapi's JavaScript
	// template string of null does.
	OnNull Comparison
	// GraphQL: the operator is a field of the GraphQL <Scalar>FilterInput types (Strapi v4's
	// GraphQL plugin lists all but the case-insensitive prefix and suffix matches).
	GraphQL bool
}

// Field is the operator's name without its $, as a GraphQL filter input field.
func (o *Operator) Field() string { return o.Name[1:] }

// operators is the table, in the order the GraphQL schema lists the operators.
var operators = [...]Operator{
	{Name: "$eq", Cast: true, Compare: CmpEq, OnNull: CmpNull, GraphQL: true},
	{Name: "$eqi", Compare: CmpILike, OnNull: CmpNull, GraphQL: true},
	{Name: "$ne", Cast: true, Compare: CmpNe, OnNull: CmpNotNull, GraphQL: true},
	{Name: "$nei", Compare: CmpNotILike, OnNull: CmpNotNull, GraphQL: true},
	{Name: "$startsWith", Compare: CmpLike, Suffix: "%", GraphQL: true},
	{Name: "$endsWith", Compare: CmpLike, Prefix: "%", GraphQL: true},
	{Name: "$contains", Compare: CmpLike, Prefix: "%", Suffix: "%", GraphQL: true},
	{Name: "$notContains", Compare: CmpNotLike, Prefix: "%", Suffix: "%", GraphQL: true},
	{Name: "$containsi", Compare: CmpILike, Prefix: "%", Suffix: "%", GraphQL: true},
	{Name: "$notContainsi", Compare: CmpNotILike, Prefix: "%", Suffix: "%", GraphQL: true},
	{Name: "$gt", Cast: true, Compare: CmpGt, GraphQL: true},
	{Name: "$gte", Cast: true, Compare: CmpGte, GraphQL: true},
	{Name: "$lt", Cast: true, Compare: CmpLt, GraphQL: true},
	{Name: "$lte", Cast: true, Compare: CmpLte, GraphQL: true},
	{Name: "$null", Operand: Flag, Compare: CmpNull, GraphQL: true},
	{Name: "$notNull", Operand: Flag, Compare: CmpNotNull, GraphQL: true},
	{Name: "$in", Operand: ValueList, Cast: true, Compare: CmpIn, GraphQL: true},
	{Name: "$notIn", Operand: ValueList, Cast: true, Compare: CmpNotIn, GraphQL: true},
	{Name: "$between", Operand: ValuePair, Cast: true, Compare: CmpBetween, GraphQL: true},
	{Name: "$startsWithi", Compare: CmpILike, Suffix: "%"},
	{Name: "$endsWithi", Compare: CmpILike, Prefix: "%"},
}

var operatorsByName = func() map[string]*Operator {
	m := make(map[string]*Operator, len(operators))
	for i := range operators {
		m[operators[i].Name] = &operators[i]
	}
	return m
}()

// Operators is the table, in the order the GraphQL schema lists the operators (a copy: the table
// itself is read-only).
func Operators() []Operator { return append([]Operator(nil), operators[:]...) }

// LookupOperator finds an operator by its name with the $ ("$containsi"); nil if there is none.
// The row is shared: read it, never write it.
func LookupOperator(name string) *Operator { return operatorsByName[name] }
