//go:build unix

package canon

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// WriteFile never replaces what is not a regular file: a named pipe, a
// device (/dev/null, written as root, became a regular file), or a symbolic
// link to either; each is left as it was.
func TestWriteFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no mkfifo:", err)
	}
	targets := map[string]string{fifo: "a named pipe (FIFO)"}
	dev := filepath.Join(dir, "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err == nil { // a copy of /dev/null's device
		targets[dev] = "a device"
		link := filepath.Join(dir, "link.yaml")
		if err := os.Symlink(dev, link); err != nil {
			t.Fatal(err)
		}
		targets[link] = "a device"
	}
	for p, kind := range targets {
		err := WriteFile(p, []byte("x: 1\n"))
		if err == nil || !strings.Contains(err.Error(), "it is "+kind+", not a regular file") {
			t.Errorf("%s: %v", p, err)
		}
		st, _ := os.Stat(p)
		if st == nil || st.Mode().IsRegular() {
			t.Errorf("%s was replaced", p)
		}
	}
	if err := WriteFolder(fifo, nil, "", true); err == nil {
		t.Error("WriteFolder replaced a pipe")
	}
}
