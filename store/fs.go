package store

import "io/fs"

// mustSub returns the subtree dir of fsys; the embedded tree is fixed at
// compile time, so failure is a programming error.
func mustSub(fsys fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err)
	}
	return sub
}

// Migrations returns the embedded SQL migrations (tests hash them to key
// their template databases).
func Migrations() fs.FS { return mustSub(migrations, "migrations") }
