// Package watch tells, once per burst of changes, that a file of a set of
// watched files and folders changed on disk: the lorebook (a file, or a
// folder and every folder below it), a transcript, a variables file, a
// configuration. lore serve reloads its page on it; `lore render --watch` and
// `lore lint --watch` run again.
//
// It watches folders, not files (fsnotify's advice): an editor that saves by
// writing a new file and renaming it over the old one replaces the file a
// watch on the file itself would follow, and the watch would go quiet.
package watch

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Debounce is how long a burst of events must be quiet before it is
// reported: an editor's save is several events (write, chmod, rename), a
// `git checkout` hundreds.
const Debounce = 80 * time.Millisecond

// Watcher reports changes to its paths on Changes.
type Watcher struct {
	fs    *fsnotify.Watcher
	files map[string]bool // watched files, by absolute path
	dirs  []string        // watched folders (with their subfolders), absolute
	exts  map[string]bool // the file name extensions that count inside dirs
	delay time.Duration

	changes chan struct{}
	errs    chan error
	done    chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
}

// New watches paths: a file for changes to it, a folder for changes to any
// file below it whose extension is one of exts (".yaml"; all files when exts
// is empty) and for folders made or removed below it. Empty paths are
// skipped. A path that does not exist yet is watched through its folder, so
// making it counts as a change.
func New(paths []string, exts []string) (*Watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &Watcher{fs: fw, files: map[string]bool{}, exts: map[string]bool{}, delay: Debounce,
		changes: make(chan struct{}, 1), errs: make(chan error, 1), done: make(chan struct{})}
	for _, e := range exts {
		w.exts[strings.ToLower(e)] = true
	}
	for _, p := range paths {
		if p == "" {
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			fw.Close()
			return nil, err
		}
		if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
			w.dirs = append(w.dirs, abs)
			if err := w.addTree(abs); err != nil {
				fw.Close()
				return nil, err
			}
			continue
		}
		w.files[abs] = true
		if err := fw.Add(filepath.Dir(abs)); err != nil {
			fw.Close()
			return nil, err
		}
	}
	w.wg.Add(1)
	go w.loop()
	return w, nil
}

// Changes receives one value after each burst of changes. A change that
// comes while the last one is still unread is folded into it.
func (w *Watcher) Changes() <-chan struct{} { return w.changes }

// Errors receives the watcher's errors (an overflowing event queue: then
// the files may have changed unseen, and it is reported as a change too).
func (w *Watcher) Errors() <-chan error { return w.errs }

// Close stops watching; Changes then receives nothing more.
func (w *Watcher) Close() error {
	var err error
	w.once.Do(func() {
		close(w.done)
		err = w.fs.Close()
		w.wg.Wait()
	})
	return err
}

// addTree watches dir and every folder below it. Folders that vanish while
// it walks are skipped: their removal is an event of its own.
func (w *Watcher) addTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir // .git and the like are not the book's
		}
		return w.fs.Add(p)
	})
}

// relevant says whether an event on name is a change to a watched path.
func (w *Watcher) relevant(ev fsnotify.Event) bool {
	name := filepath.Clean(ev.Name)
	if w.files[name] {
		return true
	}
	for _, d := range w.dirs {
		if name != d && !strings.HasPrefix(name, d+string(filepath.Separator)) {
			continue
		}
		if ev.Has(fsnotify.Create) {
			if fi, err := os.Stat(name); err == nil && fi.IsDir() {
				w.addTree(name) // a new folder of entries; its files are events of their own
				return true
			}
		}
		base := filepath.Base(name)
		if strings.HasPrefix(base, ".") || strings.HasSuffix(base, "~") {
			return false // editors' swap and backup files
		}
		if len(w.exts) == 0 || w.exts[strings.ToLower(filepath.Ext(base))] {
			return true
		}
		// A removed or renamed folder has no extension and is no longer
		// there to ask: count it, a spurious reload is harmless.
		return filepath.Ext(base) == "" && ev.Has(fsnotify.Remove|fsnotify.Rename) && !w.isWatchedFileDir(name)
	}
	return false
}

// isWatchedFileDir says whether name is the folder of a watched file (an
// event on it is not a change of the file).
func (w *Watcher) isWatchedFileDir(name string) bool {
	for f := range w.files {
		if filepath.Dir(f) == name {
			return true
		}
	}
	return false
}

func (w *Watcher) loop() {
	defer w.wg.Done()
	var timer *time.Timer
	var fire <-chan time.Time
	for {
		select {
		case <-w.done:
			if timer != nil {
				timer.Stop()
			}
			return
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			if !w.relevant(ev) {
				continue
			}
			if timer == nil {
				timer = time.NewTimer(w.delay)
			} else {
				timer.Reset(w.delay)
			}
			fire = timer.C
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			select {
			case w.errs <- err:
			default:
			}
			w.notify()
		case <-fire:
			fire = nil
			w.notify()
		}
	}
}

func (w *Watcher) notify() {
	select {
	case w.changes <- struct{}{}:
	default: // one is pending already
	}
}
