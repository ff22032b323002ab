// Command goimports prints, for every Go file `go list -e -json ./...` lists (on stdin), the
// import paths of the file as Go's own parser reads them, one "file<TAB>import" line each: the
// per-file half of golist.py's reference (go list gives a package's imports, not a file's).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

type pkg struct {
	Dir                                          string
	GoFiles, CgoFiles, TestGoFiles, XTestGoFiles []string
}

func main() {
	decoder := json.NewDecoder(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	fset := token.NewFileSet()
	for {
		var p pkg
		if err := decoder.Decode(&p); err == io.EOF {
			return
		} else if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for _, list := range [][]string{p.GoFiles, p.CgoFiles, p.TestGoFiles, p.XTestGoFiles} {
			for _, name := range list {
				path := filepath.Join(p.Dir, name)
				file, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					continue
				}
				for _, spec := range file.Imports {
					imported, _ := strconv.Unquote(spec.Path.Value)
					fmt.Fprintf(out, "%s\t%s\n", path, imported)
				}
			}
		}
	}
}
