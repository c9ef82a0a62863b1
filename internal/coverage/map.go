package coverage

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// Status of a cell in a run's map.
type Status string

// The statuses of a cell.
const (
	// Filled: a rule's assertion exercised it on real data in this run.
	Filled Status = "filled"
	// Empty: testable, and nothing in this run exercised it.
	Empty Status = "empty"
	// Untestable: the spec makes it untestable (Reason says why).
	Untestable Status = "untestable"
	// None: the way does not apply to the field (no cell).
	None Status = "none"
)

// Map is the coverage map of one run, as the reports carry it.
type Map struct {
	Sections []SectionMap `json:"sections"`
	Counts   Counts       `json:"counts"`
	// Unknown lists marks of cells the table does not have (a suite bug).
	Unknown []string `json:"unknown,omitempty"`
}

// Counts are the map's cells by status.
type Counts struct {
	Cells      int `json:"cells"`
	Testable   int `json:"testable"`
	Filled     int `json:"filled"`
	Empty      int `json:"empty"`
	Untestable int `json:"untestable"`
}

// SectionMap is one section's rows, with its columns.
type SectionMap struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// RowHeading names what a row is: a field, or (the write section) a
	// kind of write; "" for a field.
	RowHeading string   `json:"rowHeading,omitempty"`
	Ways       []Way    `json:"ways"`
	Rows       []RowMap `json:"rows"`
}

// Heading is what the section's rows are, for a column heading.
func (s SectionMap) Heading() string {
	if s.RowHeading == "" {
		return "field"
	}
	return s.RowHeading
}

// RowMap is one field and its cells, one per way of the section.
type RowMap struct {
	Field string    `json:"field"`
	Cells []CellMap `json:"cells"`
}

// CellMap is one cell of a run.
type CellMap struct {
	ID     ID     `json:"id"`
	Way    Way    `json:"way"`
	Status Status `json:"status"`
	// Rules are the rules whose assertions filled it, the one that did most
	// first.
	Rules []string `json:"rules,omitempty"`
	// Checks counts those assertions (a response checked for kind is one).
	Checks int `json:"checks,omitempty"`
	// Reason says why an untestable cell is, or why an empty one stayed
	// empty (what became of the rules that could fill it).
	Reason string `json:"reason,omitempty"`
}

// RuleNote says what became of a rule in the run ("not checked: read-only
// run"), for the reason of an empty cell; "" when there is nothing to say.
type RuleNote func(rule string) string

// Build makes the map of a run from its marks. note, when not nil, explains
// empty cells by what became of their rules.
func Build(marks map[ID]map[string]int, note RuleNote) *Map {
	m := &Map{}
	known := map[ID]bool{}
	for _, s := range table() {
		sm := SectionMap{ID: s.ID, Title: s.Title, RowHeading: s.RowHeading, Ways: s.Ways}
		for _, r := range s.Rows {
			rm := RowMap{Field: r.Field}
			for _, w := range s.Ways {
				id := CellID(s.ID, r.Field, w)
				c, ok := r.Cells[w]
				if !ok {
					rm.Cells = append(rm.Cells, CellMap{ID: id, Way: w, Status: None})
					continue
				}
				known[id] = true
				rm.Cells = append(rm.Cells, m.cell(id, w, c, marks[id], note))
			}
			sm.Rows = append(sm.Rows, rm)
		}
		m.Sections = append(m.Sections, sm)
	}
	for _, id := range slices.Sorted(maps.Keys(marks)) {
		if !known[id] {
			m.Unknown = append(m.Unknown, string(id))
		}
	}
	return m
}

// cell is the map's cell id, and counts it.
func (m *Map) cell(id ID, w Way, c Cell, marked map[string]int, note RuleNote) CellMap {
	out := CellMap{ID: id, Way: w}
	m.Counts.Cells++
	if !c.Testable() {
		out.Status, out.Reason = Untestable, c.Untestable
		m.Counts.Untestable++
		return out
	}
	m.Counts.Testable++
	for rule, n := range marked {
		out.Rules = append(out.Rules, rule)
		out.Checks += n
	}
	// The rule that exercised it most first, then by name.
	sort.Slice(out.Rules, func(i, j int) bool {
		a, b := out.Rules[i], out.Rules[j]
		if marked[a] != marked[b] {
			return marked[a] > marked[b]
		}
		return a < b
	})
	if len(out.Rules) > 0 {
		out.Status = Filled
		m.Counts.Filled++
		return out
	}
	out.Status = Empty
	m.Counts.Empty++
	var notes []string
	for _, rule := range c.Rules {
		n := ""
		if note != nil {
			n = note(rule)
		}
		if n == "" {
			n = "asserted nothing on it"
		}
		notes = append(notes, rule+": "+n)
	}
	out.Reason = "no rule that could fill it did: " + strings.Join(notes, "; ")
	return out
}

// Cells returns every cell of the map with the given status.
func (m *Map) Cells(st Status) []CellMap {
	var out []CellMap
	if m == nil {
		return nil
	}
	for _, s := range m.Sections {
		for _, r := range s.Rows {
			for _, c := range r.Cells {
				if c.Status == st {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// Cell returns the cell id of the map, false when it has none.
func (m *Map) Cell(id ID) (CellMap, bool) {
	if m == nil {
		return CellMap{}, false
	}
	for _, s := range m.Sections {
		for _, r := range s.Rows {
			for _, c := range r.Cells {
				if c.ID == id {
					return c, true
				}
			}
		}
	}
	return CellMap{}, false
}

// Summary is the map in one line: "207 testable cells, 207 filled, 0 empty; 34 untestable".
func (m *Map) Summary() string {
	c := m.Counts
	return fmt.Sprintf("%d testable cells: %d filled, %d empty; %d untestable (the spec does not let a client check them)",
		c.Testable, c.Filled, c.Empty, c.Untestable)
}
