// Package logtest is for tests that read what a running program logs: the bot's
// goroutines, a child process's output copier or an HTTP server write into a Buffer
// while the test reads it.
package logtest

import (
	"bytes"
	"strings"
	"sync"
)

// Buffer is a log sink safe for concurrent writers and readers. Its zero value is
// ready to use.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Lines is everything written so far, one line per element, without empty lines.
func (b *Buffer) Lines() []string {
	return strings.FieldsFunc(b.String(), func(r rune) bool { return r == '\n' })
}
