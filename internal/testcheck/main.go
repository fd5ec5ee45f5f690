// Command testcheck reads the output of `go test -json` (files named on
// the command line, or standard input) and reports it as the test command
// shows it: each package's result and time, the output of every test that
// failed, and a closing count. It also checks that no test was lost: every
// Test function declared in a package's _test.go files ran exactly once,
// and no package ended without a result (a build failure, a crash, a
// timeout). It exits 1 when a test failed or was lost.
//
//	go test -json ./... > out.json; go run ./internal/testcheck out.json
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// event is one line of test2json's output.
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// pkgRun is what the output says of one package.
type pkgRun struct {
	result  string // pass, fail, skip; "" when the package never ended
	elapsed float64
	ran     map[string]int    // top-level test -> times it started
	failed  []string          // tests that failed, in order
	output  map[string]string // test ("" for the package) -> its output
}

func main() {
	pkgs := map[string]*pkgRun{}
	read := func(r io.Reader) error {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var e event
			if json.Unmarshal(sc.Bytes(), &e) != nil || e.Package == "" {
				continue // a line go test printed outside the JSON (a build error)
			}
			p := pkgs[e.Package]
			if p == nil {
				p = &pkgRun{ran: map[string]int{}, output: map[string]string{}}
				pkgs[e.Package] = p
			}
			top, _, _ := strings.Cut(e.Test, "/")
			switch e.Action {
			case "run":
				if e.Test != "" && !strings.Contains(e.Test, "/") {
					p.ran[e.Test]++
				}
			case "output":
				if len(p.output[top]) < 256<<10 {
					p.output[top] += e.Output
				}
			case "fail":
				if e.Test == "" {
					p.result, p.elapsed = "fail", e.Elapsed
				} else if !strings.Contains(e.Test, "/") {
					p.failed = append(p.failed, e.Test)
				}
			case "pass", "skip":
				if e.Test == "" {
					p.result, p.elapsed = e.Action, e.Elapsed
				}
			}
		}
		return sc.Err()
	}
	if len(os.Args) < 2 {
		if err := read(os.Stdin); err != nil {
			fmt.Fprintln(os.Stderr, "testcheck:", err)
			os.Exit(2)
		}
	}
	for _, name := range os.Args[1:] {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testcheck:", err)
			os.Exit(2)
		}
		err = read(f)
		f.Close()
		if err != nil {
			fmt.Fprintln(os.Stderr, "testcheck:", err)
			os.Exit(2)
		}
	}

	names := make([]string, 0, len(pkgs))
	for n := range pkgs {
		names = append(names, n)
	}
	sort.Strings(names)
	dirs := packageDirs(names)
	passed, failed, lost := 0, 0, 0
	for _, n := range names {
		p := pkgs[n]
		for _, t := range p.failed {
			fmt.Printf("--- FAIL: %s (%s)\n%s", t, n, p.output[t])
		}
		switch p.result {
		case "":
			fmt.Printf("FAIL\t%s\tended without a result\n%s", n, p.output[""])
			failed++
		case "fail":
			fmt.Printf("FAIL\t%s\t%.1fs\n", n, p.elapsed)
			if len(p.failed) == 0 {
				fmt.Print(p.output[""])
			}
		default:
			fmt.Printf("ok  \t%s\t%.1fs\n", n, p.elapsed)
		}
		failed += len(p.failed)
		for t, k := range p.ran {
			if k > 1 {
				fmt.Printf("LOST\t%s\t%s ran %d times\n", n, t, k)
				lost++
			}
		}
		passed += len(p.ran) - len(p.failed)
		if p.result == "" {
			continue
		}
		for _, t := range declaredTests(dirs[n]) {
			if p.ran[t] == 0 {
				fmt.Printf("LOST\t%s\t%s is declared and did not run\n", n, t)
				lost++
			}
		}
	}
	fmt.Printf("%d passed, %d failed\n", passed, failed+lost)
	if failed+lost > 0 || len(names) == 0 {
		os.Exit(1)
	}
}

// packageDirs maps import paths to their directories.
func packageDirs(pkgs []string) map[string]string {
	out := map[string]string{}
	if len(pkgs) == 0 {
		return out
	}
	args := append([]string{"list", "-f", "{{.ImportPath}} {{.Dir}}"}, pkgs...)
	b, err := exec.Command("go", args...).Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testcheck: go list:", err)
		os.Exit(2)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if path, dir, ok := strings.Cut(line, " "); ok {
			out[path] = dir
		}
	}
	return out
}

var testFunc = regexp.MustCompile(`(?m)^func (Test[A-Za-z0-9_]*)\(\w+ \*testing\.T\)`)

// declaredTests lists the Test functions of dir's _test.go files, which
// go test runs (TestMain is not a test).
func declaredTests(dir string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, m := range testFunc.FindAllSubmatch(b, -1) {
			out = append(out, string(m[1]))
		}
	}
	return out
}
