package ir

import "testing"

func TestOperatorTable(t *testing.T) {
	seen := map[string]bool{}
	for _, op := range Operators() {
		if op.Name == "" || op.Name[0] != '$' || seen[op.Name] {
			t.Errorf("operator %q: names start with $ and are unique", op.Name)
		}
		seen[op.Name] = true
		if LookupOperator(op.Name) == nil || LookupOperator(op.Name).Name != op.Name {
			t.Errorf("LookupOperator(%q) does not find its row", op.Name)
		}
		if op.Compare == "" {
			t.Errorf("%s compiles to no comparison", op.Name)
		}
		if op.Operand == Flag && op.Compare.Negated() == "" {
			t.Errorf("%s is a flag, so its comparison needs a negation", op.Name)
		}
		if (op.Prefix != "" || op.Suffix != "") && op.Cast {
			t.Errorf("%s builds a LIKE pattern, so its operand is text, not cast", op.Name)
		}
		if op.Operand != OneValue && op.OnNull != "" {
			t.Errorf("%s: only one-value operators give null a meaning", op.Name)
		}
	}
	for _, logical := range []string{OpAnd, OpOr, OpNot} {
		if LookupOperator(logical) != nil {
			t.Errorf("%s combines filters and is not in the comparison table", logical)
		}
	}
	if LookupOperator(OpEq) == nil || LookupOperator("$nope") != nil {
		t.Error("LookupOperator: $eq is an operator, $nope is not")
	}
}

func TestComparisonNegated(t *testing.T) {
	for _, c := range []Comparison{CmpEq, CmpNe, CmpIn, CmpNotIn, CmpNull, CmpNotNull, CmpLike, CmpNotLike, CmpILike, CmpNotILike} {
		if c.Negated().Negated() != c || c.Negated() == c {
			t.Errorf("%s: negating twice is the comparison itself", c)
		}
	}
	if CmpLt.Negated() != "" {
		t.Error("lt has no negation among the comparisons")
	}
}

func TestOperatorsIsACopy(t *testing.T) {
	ops := Operators()
	ops[0].Name = "$changed"
	if LookupOperator("$eq") == nil || Operators()[0].Name != "$eq" {
		t.Error("Operators hands out the table itself")
	}
}
