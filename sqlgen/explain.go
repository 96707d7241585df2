package sqlgen

// Explain renders the statement that asks the engine for its plan of st (analyze: by
// running it too, where the engine can). column is the column of its rows that holds the
// plan text, "" when every column does (the row is shown whole).
func Explain(d Dialect, st Stmt, analyze bool) (explain Stmt, column string) {
	prefix, column := d.explain(analyze)
	return Stmt{SQL: prefix + st.SQL, Args: st.Args}, column
}
