//go:build !unix

package schema

import "errors"

func mkfifo(string) error { return errors.New("no named pipes") }
