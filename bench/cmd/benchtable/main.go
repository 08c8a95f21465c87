// Command benchtable turns `go test -bench` output into the Markdown tables
// of bench/README.md, so that every figure there comes from a results file.
//
// Benchmark names are read as key=value path elements
// (BenchmarkStream/file=F/chunk=N/impl=C). When a benchmark appears several
// times (-count), each metric is the median of its values.
//
//	benchtable [-bench NAME] [-where k=v,...] -rows KEY -cols KEY -metric UNIT [-paren UNIT] < results.txt
//	benchtable [-bench NAME] [-where k=v,...] -long KEY,KEY -metrics UNIT,UNIT < results.txt
//
// The first form is a matrix: one row per value of -rows, one column per
// value of -cols, each cell the -metric (and the -paren metric in
// parentheses). The second lists one row per benchmark, identified by the
// -long keys, with a column per metric. Values of -where may be regular
// expressions, anchored: file=createFile-.*. The key "name" is the
// top-level benchmark's name without "Benchmark"; -bench NAME is short for
// -where name=NAME.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// result is one benchmark: its keys and the values of each metric.
type result struct {
	name    string
	keys    map[string]string
	metrics map[string][]float64
}

func main() {
	bench := flag.String("bench", "", "keep the benchmarks whose top-level `name` (without Benchmark) matches this anchored regexp")
	where := flag.String("where", "", "keep benchmarks whose `k=v,...` match (v is an anchored regexp)")
	rows := flag.String("rows", "", "matrix: the `key` whose values are the rows")
	cols := flag.String("cols", "", "matrix: the `key` whose values are the columns")
	metric := flag.String("metric", "MB/s", "matrix: the `unit` in each cell")
	paren := flag.String("paren", "", "matrix: a second `unit`, in parentheses")
	long := flag.String("long", "", "list: the `keys` that name each row")
	metrics := flag.String("metrics", "MB/s,ns/chunk,allocs/op,B/op,ratio", "list: the `units`, one column each")
	flag.Parse()

	rs, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
	if *bench != "" {
		*where = strings.TrimPrefix(*where+",", ",") + "name=" + *bench
	}
	if rs, err = filter(rs, *where); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(2)
	}
	switch {
	case *long != "":
		list(os.Stdout, rs, strings.Split(*long, ","), strings.Split(*metrics, ","))
	case *rows != "" && *cols != "":
		matrix(os.Stdout, rs, *rows, *cols, *metric, *paren)
	default:
		flag.Usage()
		os.Exit(2)
	}
}

// parse reads benchmark lines; it keeps the order of first appearance.
func parse(r io.Reader) ([]*result, error) {
	byName := map[string]*result{}
	var rs []*result
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || len(f)%2 != 0 {
			continue
		}
		name := f[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i] // the GOMAXPROCS suffix
			}
		}
		res := byName[name]
		if res == nil {
			els := strings.Split(name, "/")
			res = &result{name: name, keys: map[string]string{"name": strings.TrimPrefix(els[0], "Benchmark")}, metrics: map[string][]float64{}}
			for _, el := range els[1:] {
				if k, v, ok := strings.Cut(el, "="); ok {
					res.keys[k] = v
				}
			}
			byName[name] = res
			rs = append(rs, res)
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", sc.Text(), err)
			}
			res.metrics[f[i+1]] = append(res.metrics[f[i+1]], v)
		}
	}
	return rs, sc.Err()
}

func filter(rs []*result, where string) ([]*result, error) {
	if where == "" {
		return rs, nil
	}
	type cond struct {
		key string
		re  *regexp.Regexp
	}
	var conds []cond
	for _, kv := range strings.Split(where, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("-where %s: want k=v", kv)
		}
		re, err := regexp.Compile("^(?:" + v + ")$")
		if err != nil {
			return nil, err
		}
		conds = append(conds, cond{k, re})
	}
	return slices.DeleteFunc(slices.Clone(rs), func(r *result) bool {
		for _, c := range conds {
			v, ok := r.keys[c.key]
			if !ok || !c.re.MatchString(v) {
				return true
			}
		}
		return false
	}), nil
}

// value returns the median of r's values of unit.
func (r *result) value(unit string) (float64, bool) {
	vs := slices.Clone(r.metrics[unit])
	if len(vs) == 0 {
		return 0, false
	}
	slices.Sort(vs)
	if len(vs)%2 == 1 {
		return vs[len(vs)/2], true
	}
	return (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2, true
}

// format prints a figure with three significant digits, without exponent.
func format(v float64) string {
	switch a := max(v, -v); {
	case a == 0:
		return "0"
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	case a >= 0.01:
		return strconv.FormatFloat(v, 'f', 3, 64)
	}
	return strconv.FormatFloat(v, 'g', 2, 64)
}

func cell(r *result, metric, paren string) string {
	if r == nil {
		return "skipped"
	}
	v, ok := r.value(metric)
	if !ok {
		return "–"
	}
	s := format(v)
	if p, ok := r.value(paren); paren != "" && ok {
		s += " (" + format(p) + ")"
	}
	return s
}

// values returns the values of key in order of first appearance.
func values(rs []*result, key string) []string {
	var vs []string
	for _, r := range rs {
		if v, ok := r.keys[key]; ok && !slices.Contains(vs, v) {
			vs = append(vs, v)
		}
	}
	return vs
}

func matrix(w io.Writer, rs []*result, rowKey, colKey, metric, paren string) {
	rowVals, colVals := values(rs, rowKey), values(rs, colKey)
	head := metric
	if paren != "" {
		head += " (" + paren + ")"
	}
	fmt.Fprintf(w, "| %s \\ %s: %s | %s |\n", rowKey, colKey, head, strings.Join(colVals, " | "))
	fmt.Fprintf(w, "|---%s|\n", strings.Repeat("|--:", len(colVals)))
	for _, rv := range rowVals {
		cells := make([]string, len(colVals))
		for i, cv := range colVals {
			var found *result
			for _, r := range rs {
				if r.keys[rowKey] == rv && r.keys[colKey] == cv {
					found = r
					break
				}
			}
			cells[i] = cell(found, metric, paren)
		}
		fmt.Fprintf(w, "| %s | %s |\n", rv, strings.Join(cells, " | "))
	}
}

func list(w io.Writer, rs []*result, keys, metrics []string) {
	fmt.Fprintf(w, "| %s | %s |\n", strings.Join(keys, " | "), strings.Join(metrics, " | "))
	fmt.Fprintf(w, "|%s%s|\n", strings.Repeat("---|", len(keys)), strings.Repeat("--:|", len(metrics))[:4*len(metrics)-1])
	for _, r := range rs {
		cells := make([]string, 0, len(keys)+len(metrics))
		for _, k := range keys {
			cells = append(cells, r.keys[k])
		}
		for _, m := range metrics {
			cells = append(cells, cell(r, m, ""))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
}
