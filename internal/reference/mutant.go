package reference

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Mutant names a switch of the reference server. A mutant makes the server
// break named rules of the catalogue (internal/spec) in a way a client can
// observe, so that the suite can be shown to catch the break; a benign
// variant (named benign-*) changes only what the spec leaves open, and a
// correct suite must still pass against it. The constants of this type are
// the one spelling of every name in Go code; the string is the name users
// give on the command line.
type Mutant string

// MutantInfo describes one mutant, benign variant or hazard. Rules holds
// the IDs of the catalogue rules the mutant breaks (empty for a benign
// variant and a hazard).
type MutantInfo struct {
	Name        Mutant
	Description string
	Rules       []string
	Benign      bool
	// ExploreOnly: only generated input reveals the mutant (`conformance
	// explore`); no spec of the normal run sends what it breaks on.
	ExploreOnly bool
	// Hazard marks a switch that is neither a rule break nor a benign
	// variant: something that befalls a real site during a run (another
	// writer, lost data), which the suite must notice and survive. A
	// suite that proves itself with mutants and benign variants skips
	// hazards; each has tests of its own.
	Hazard bool
}

// breaks is a table row of a mutant; rules are rule IDs separated by
// spaces. Rule IDs are literals on purpose: this package does not import
// internal/spec, and the self-test cross-checks them with the catalogue.
func breaks(name Mutant, rules, description string) MutantInfo {
	return MutantInfo{Name: name, Description: description, Rules: strings.Fields(rules)}
}

// befalls is a table row of a hazard.
func befalls(name Mutant, description string) MutantInfo {
	return MutantInfo{Name: name, Description: description, Hazard: true}
}

// allows is a table row of a benign variant.
func allows(name Mutant, description string) MutantInfo {
	return MutantInfo{Name: name, Description: description, Benign: true}
}

// Legacy321 is every mutant of legacyParts at once: the server behaves like
// the previous release (3.21.1) where that differs from the spec.
const Legacy321 Mutant = "legacy-3.21"

// legacyParts are the mutants that together make the server behave like
// the previous release (3.21.1) where it differs from the spec.
var legacyParts = []Mutant{
	HandlerErrors200, CreateReturnsKeyOnly, EditReturnsKeyOnly, ListNoMeta, NumberOfItemsAsString,
	ZeroSizeEmpty, PageNumberZeroEmpty, BadPaging500, TagsAsString, DateDisplayFormat, CategoryFalseWhenNone,
	InvalidTypeAccepted, EditInvalidTypeAccepted, DoubleEncodeForm, FormPutRejected, NoCacheOnlyWithAuth,
	TagListWithoutDescription, TagSingleWithoutList, CategorySingleWithoutList, UserListFullProfile,
	UserEmptyFalse, SettingsPutResetsHomepage, ChildWritesHitParent, BenignMissingParentAccepted,
}

// A mutant is declared beside its behaviour: a package-level variable of
// the handler file that switches it, whose initialiser registers its row
// (any of breaks, allows, befalls, onGenerated), so that adding a mutant
// touches that one file:
//
//	// TagListDuplicateKey: GET /api/tags lists its first tag twice.
//	var TagListDuplicateKey = declare(breaks("tag-list-duplicate-key", "TAG-LIST-KEYS-UNIQUE",
//		"GET /api/tags lists its first tag twice."))
//
// The mutants older than declare keep their constant in mutant_names.go
// and their row in table (mutant_table.go); the registry lists both alike.

// declared holds the rows of declare, in the order the declarations ran.
var declared []MutantInfo

// declare registers row, the row of a mutant, benign variant or hazard
// declared as a package-level variable, and returns its name for
// s.mutated. The registry, built by init once every declaration has run,
// refuses a name that another row has already (see buildRegistry); declare
// refuses to run later than that.
func declare(row MutantInfo) Mutant {
	if registry != nil {
		panic(fmt.Sprintf("reference: mutant %q declared after the registry was built: "+
			"declare only in the initialiser of a package-level variable", row.Name))
	}
	declared = append(declared, row)
	return row.Name
}

// registry lists every mutant, benign variant and hazard, sorted by name.
// init builds it, once every package-level declaration has run; it is never
// changed after.
var registry []MutantInfo

func init() { registry = buildRegistry(declared) }

// buildRegistry lists the rows of the table, of the mutants only generated
// input reveals, of the cell mutants and decl, with Legacy321's, sorted by
// name. It panics on a name that two rows have: a declared mutant cannot
// take an existing mutant's name, nor the name another declaration took,
// and the program stops during its initialisation.
func buildRegistry(decl []MutantInfo) []MutantInfo {
	all := slices.Concat(table, exploreTable, cellTable(), decl)
	all = append(all, legacyInfo(all))
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	for i := 1; i < len(all); i++ {
		if all[i].Name == all[i-1].Name {
			panic(fmt.Sprintf("reference: two mutants named %q: a declared mutant needs a name of its own", all[i].Name))
		}
	}
	return all
}

// legacyInfo describes Legacy321: the rules it breaks are the union of its
// parts' rules.
func legacyInfo(parts []MutantInfo) MutantInfo {
	seen := map[string]bool{}
	var rules, names []string
	for _, p := range legacyParts {
		names = append(names, string(p))
		for _, m := range parts {
			if m.Name != p {
				continue
			}
			for _, id := range m.Rules {
				if !seen[id] {
					seen[id] = true
					rules = append(rules, id)
				}
			}
		}
	}
	sort.Strings(rules)
	return MutantInfo{Name: Legacy321, Rules: rules,
		Description: "Behaves like the previous release (3.21.1) where it differs from the spec: every handler failure " +
			"answered 200, create/edit return data {key}, no meta, tags as a string, display dates, double-encoded " +
			"forms, form PUT refused, settings PUT resets homepage/pageNotFound/uriBlog, PUT and DELETE of parent/child act on the parent, a missing parent accepted, and more (mutants: " +
			strings.Join(names, ", ") + ")."}
}

// Mutants returns every mutant, benign variant and hazard, sorted by name
// (a copy). Mutants break rules (Rules); benign variants (Benign) and
// hazards (Hazard) do not.
func Mutants() []MutantInfo {
	out := make([]MutantInfo, len(registry))
	for i, m := range registry {
		m.Rules = slices.Clone(m.Rules)
		out[i] = m
	}
	return out
}

// memo is what mutant m remembers between the requests of s (made by fresh
// on first use): a cache a write forgets to clear, an index a write
// forgets to update. It is kept on the Server, not in the indexes, so that
// the file mode, which reads the indexes again for each request, keeps it
// too. The caller holds s.mu, as every handler does.
func memo[T any](s *Server, m Mutant, fresh func() T) T {
	if v, ok := s.memos[m].(T); ok {
		return v
	}
	if s.memos == nil {
		s.memos = map[Mutant]any{}
	}
	v := fresh()
	s.memos[m] = v
	return v
}

// AsMutants converts names given as text (a command line) to Mutants; New
// refuses the unknown ones.
func AsMutants(names []string) []Mutant {
	out := make([]Mutant, len(names))
	for i, n := range names {
		out[i] = Mutant(n)
	}
	return out
}

// resolveMutants checks the names and expands combinations.
func resolveMutants(names []Mutant) (map[Mutant]bool, error) {
	known := map[Mutant]bool{}
	for _, m := range registry {
		known[m.Name] = true
	}
	enabled := map[Mutant]bool{}
	for _, n := range names {
		if !known[n] {
			return nil, fmt.Errorf("reference: unknown mutant %q", n)
		}
		enabled[n] = true
		if n == Legacy321 {
			for _, p := range legacyParts {
				enabled[p] = true
			}
		}
	}
	return enabled, nil
}
