// Package astutil holds small syntax-tree helpers shared by the generator's
// packages and its tools.
package astutil

import "go/ast"

// RecvTypeName returns T for a receiver list written (T), (*T), (T[P]),
// (*T[P, Q]) or with parentheses around the type, and "" for a nil or empty
// list (a function) or a receiver of any other form.
func RecvTypeName(fl *ast.FieldList) string {
	if fl == nil || len(fl.List) == 0 {
		return ""
	}
	e := fl.List[0].Type
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}
