package reference

import (
	"fmt"
	"slices"
	"strings"
)

// Profile names a set of benign variants switched on together
// (Options.Profile): a whole server that conforms in other ways than the
// reference does.
type Profile string

// Divergent is every choice of the divergent behaviour set at once: each
// is allowed by the spec and differs from the reference (and from the
// previous release), so a suite that passes it asserts no more than the
// spec says.
const Divergent Profile = "divergent"

// Literal stores what it is sent where the host transforms it: a server as
// literal as the spec's words, which a suite must pass as well as the host.
const Literal Profile = "literal"

// ProfileInfo describes a profile: the benign variants it switches on.
type ProfileInfo struct {
	Name        Profile
	Description string
	Variants    []Mutant
}

// profiles lists every profile; it is never changed.
var profiles = []ProfileInfo{
	{Name: Divergent,
		Description: "every choice the spec allows that the reference does not make, at once: content required on create, " +
			"list slices oldest first, French messages, 405 for unlisted methods, display dates in another timezone, " +
			"a volatile page field, 422 for bad paging values, typed settings and volatile settings fields, images stored " +
			"converted under names of the server's own",
		Variants: []Mutant{BenignContentRequired, BenignReversedListOrder, BenignFrenchMessages, Benign405UnlistedMethod,
			BenignDisplayDateShifted, BenignVolatilePageField, BenignBadPaging422, BenignTypedSettings, BenignVolatileSettings,
			BenignImageConverted}},
	{Name: Literal,
		Description: "stores what it is sent where the host (the reference's default) transforms it: settings values as sent, " +
			"no field derived from another, values of the wrong type refused with 400",
		Variants: []Mutant{BenignSettingsAsSent}},
}

// Profiles returns every profile (a copy).
func Profiles() []ProfileInfo {
	out := slices.Clone(profiles)
	for i := range out {
		out[i].Variants = slices.Clone(out[i].Variants)
	}
	return out
}

// profileVariants returns the variants of a profile; "" is no profile.
func profileVariants(p Profile) ([]Mutant, error) {
	if p == "" {
		return nil, nil
	}
	for _, info := range profiles {
		if info.Name == p {
			return info.Variants, nil
		}
	}
	var known []string
	for _, info := range profiles {
		known = append(known, string(info.Name))
	}
	return nil, fmt.Errorf("reference: unknown profile %q (known: %s)", p, strings.Join(known, ", "))
}
