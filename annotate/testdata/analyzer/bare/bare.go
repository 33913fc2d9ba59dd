// Package bare imports nothing: the stub's fix adds the import after the
// package clause.
package bare

// Ping names a blockHandler that does not exist yet.
// want +2 "blockHandler pingBlocked not found in package bare"
//
//sentinel:resource blockHandler=pingBlocked
func Ping() error {
	return nil
}
