package bench

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// A Workload is one document to stream.
type Workload struct {
	Name string // the file name without .gz, such as "createFile-1m.json"
	Data []byte
}

// Load reads a workload from a .json or .json.gz file.
func Load(path string) (Workload, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Workload{}, err
	}
	name := filepath.Base(path)
	if base, ok := strings.CutSuffix(name, ".gz"); ok {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return Workload{}, fmt.Errorf("%s: %v", path, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			return Workload{}, fmt.Errorf("%s: %v", path, err)
		}
		name = base
	}
	return Workload{Name: name, Data: data}, nil
}

// LoadDir reads the workloads named in dir, each from NAME.gz or NAME.
func LoadDir(dir string, names ...string) ([]Workload, error) {
	ws := make([]Workload, 0, len(names))
	for _, name := range names {
		path := filepath.Join(dir, name+".gz")
		if _, err := os.Stat(path); err != nil {
			path = filepath.Join(dir, name)
		}
		w, err := Load(path)
		if err != nil {
			return nil, err
		}
		ws = append(ws, w)
	}
	return ws, nil
}

// Chunks returns how many chunks of size n data is cut into; n < 1 means
// one chunk, the whole document.
func Chunks(data []byte, n int) int {
	if n < 1 || n >= len(data) {
		return 1
	}
	return (len(data) + n - 1) / n
}

// Stream feeds data to s in chunks of size n (the whole document if n < 1)
// and closes it.
func Stream(s Streamer, data []byte, n int) error {
	if n < 1 {
		n = len(data)
	}
	for i := 0; i < len(data); i += n {
		if err := s.Feed(data[i:min(i+n, len(data))]); err != nil {
			return err
		}
	}
	return s.Close()
}
