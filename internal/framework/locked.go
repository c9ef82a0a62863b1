package framework

import "sync"

// lockedList is a list that goroutines add to and take from at once: the
// cleanups a prepare function collects, the exchanges a spec judges, the
// settings guards and held requests the end of the run goes back to.
type lockedList[T any] struct {
	mu    sync.Mutex
	items []T
}

// add appends vs to the list.
func (l *lockedList[T]) add(vs ...T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items = append(l.items, vs...)
}

// take returns the items added so far and empties the list.
func (l *lockedList[T]) take() []T {
	l.mu.Lock()
	defer l.mu.Unlock()
	items := l.items
	l.items = nil
	return items
}

// peek returns a copy of the items added so far, leaving them in the list.
func (l *lockedList[T]) peek() []T {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]T(nil), l.items...)
}
