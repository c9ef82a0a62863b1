package gen

import (
	"strconv"
	"strings"

	"pgregory.net/rapid"
)

// Site is what the generators draw existing names from: read from the
// target before exploring, so that keys that exist are read too, and
// only what the run may do is generated.
type Site struct {
	Pages      []string // every page key, children included
	Tags       []string
	Categories []string
	Users      []string
	// Settings are the text settings a case may change (of those 2.6
	// names); CustomFields says the settings have a customFields field.
	Settings     []string
	CustomFields bool
	// Writes: the run may create, edit and delete pages of its own;
	// SettingsWrites: it may send PUT /api/settings.
	Writes, SettingsWrites bool
	// DotSegments: a path with ".." as a whole segment reaches the API as
	// sent (a probe showed it; ClassDotSegment).
	DotSegments bool
}

// OddPaging are paging values that are not plain integers (9.3: such
// values no longer crash; what they give is not said).
var OddPaging = append([]string{"2.5"}, append(notNumbers, hugeInts[2])...)

// pagingParam draws a numberOfItems or pageNumber in one of the integer
// classes: small integers first, then -1, zero, other negative ones
// (shrinking towards -2), huge ones (shrinking towards 101), fractional
// ones and odd ones.
func pagingParam(t *rapid.T, name string) Param {
	small := rapid.IntRange(1, 12).Draw(t, name)
	negative := rapid.IntRange(-1_000_000, -2).Draw(t, name+"Negative")
	big := rapid.IntRange(101, 1_000_000_000).Draw(t, name+"Big")
	huge := rapid.SampledFrom(append([]string{strconv.Itoa(big)}, hugeInts...)).Draw(t, name+"Huge")
	fractional := rapid.SampledFrom([]string{"2.5", "0.5", "-1.5"}).Draw(t, name+"Fractional")
	odd := rapid.SampledFrom(notNumbers).Draw(t, name+"Odd")
	switch rapid.IntRange(0, 11).Draw(t, name+"Kind") {
	case 5, 6:
		return Param{Name: name, Value: "-1", Class: ClassMinusOne}
	case 7:
		return Param{Name: name, Value: "0", Class: ClassZero}
	case 8:
		return Param{Name: name, Value: strconv.Itoa(negative), Class: ClassNegative}
	case 9:
		return Param{Name: name, Value: huge, Class: ClassHuge}
	case 10:
		return Param{Name: name, Value: fractional, Class: ClassFractional}
	case 11:
		return Param{Name: name, Value: odd, Class: ClassNaN}
	}
	return Param{Name: name, Value: strconv.Itoa(small), Class: ClassPlain}
}

// List generates GET /api/pages requests: the filters of 4.1 in any
// combination (now and then spelled otherwise than true and false), page
// sizes and numbers of every integer class.
func List() *rapid.Generator[Case] {
	return rapid.Custom(func(t *rapid.T) Case {
		c := Case{Kind: KindList, Endpoint: "pages"}
		for _, name := range []string{"published", "static", "sticky", "draft", "scheduled", "untagged"} {
			if p := BoolParam(t, name); rapid.IntRange(0, 2).Draw(t, "send "+name) > 0 {
				c.Query = append(c.Query, p)
			}
		}
		for _, name := range []string{"numberOfItems", "pageNumber"} {
			if p := pagingParam(t, name); rapid.IntRange(0, 3).Draw(t, "send "+name) > 0 {
				c.Query = append(c.Query, p)
			}
		}
		return c
	})
}

// readEndpoints are the single-resource reads of section 4.
var readEndpoints = []string{"pages", "tags", "categories", "users", "files"}

// traversalKeys hold ".." or a NUL byte (4.11, 7), as sent (escaped).
// ".." is never a whole path segment: a web server in front may remove
// such a dot-segment (RFC 3986, 5.2.4) before the API sees the path, and
// /api/files/.. then reaches /api/, an endpoint that does not exist.
var traversalKeys = []string{"a..b", "x%00y", "%00", "a..", "..b"}

// encodedKeys hold ".." percent-encoded, as sent; never a whole segment
// either (a front may decode %2e and remove it as well).
var encodedKeys = []string{"%2e%2eb", "a%2e%2eb", "a%2E%2Eb", "a.%2e"}

// ClassDotSegment is a key with ".." as a whole path segment, sent only
// where the target's front lets such a segment through to the API
// (Site.DotSegments): a front that resolves it (RFC 3986, 5.2.4) sends
// the API another path, and the answer is then to a request the case did
// not make.
const ClassDotSegment = "dot-segment"

// dotSegmentKeys hold ".." as a whole segment, as sent.
var dotSegmentKeys = []string{"a/..", "../a", "a/../b", "a/%2e%2e"}

// Read generates GET requests of one resource by key: keys that exist,
// keys that do not, child keys, keys with traversal characters (plain and
// percent-encoded) and very long ones.
func Read(site *Site) *rapid.Generator[Case] {
	return rapid.Custom(func(t *rapid.T) Case {
		ep := rapid.SampledFrom(readEndpoints).Draw(t, "endpoint")
		c := Case{Kind: KindRead, Endpoint: ep}
		existing := site.names(ep)
		class := rapid.SampledFrom([]string{"existing", "missing", "child", "traversal", "encoded", "long", ClassDotSegment}).Draw(t, "keyClass")
		dot := rapid.SampledFrom(dotSegmentKeys).Draw(t, "dotKey")
		switch {
		case class == ClassDotSegment && site.DotSegments:
			c.Key = dot
		case class == "existing" && len(existing) > 0:
			c.Key = rapid.SampledFrom(existing).Draw(t, "key")
		case class == "child" && ep == "pages" && len(site.topLevel()) > 0:
			c.Key = rapid.SampledFrom(site.topLevel()).Draw(t, "parent") + "/" + Marker + Name().Draw(t, "child")
		case class == "traversal":
			c.Key = rapid.SampledFrom(traversalKeys).Draw(t, "key")
		case class == "encoded":
			c.Key = rapid.SampledFrom(encodedKeys).Draw(t, "key")
		case class == "long":
			c.Key = Marker + strings.Repeat(rapid.SampledFrom([]string{"a", "é", "b-"}).Draw(t, "piece"), rapid.IntRange(200, 1500).Draw(t, "length"))
		default:
			class = "missing"
			c.Key = Marker + Name().Draw(t, "key")
		}
		c.KeyClass = class
		return c
	})
}

// names lists the existing names of a read endpoint's resources.
func (s *Site) names(endpoint string) []string {
	switch endpoint {
	case "pages":
		return s.Pages
	case "tags":
		return s.Tags
	case "categories":
		return s.Categories
	case "users":
		return s.Users
	case "files":
		return s.topLevel()
	}
	return nil
}

// topLevel lists the page keys without a '/'.
func (s *Site) topLevel() []string {
	var out []string
	for _, k := range s.Pages {
		if !strings.Contains(k, "/") {
			out = append(out, k)
		}
	}
	return out
}

// Escaped reports whether a key class is sent as generated (already
// percent-encoded), not escaped segment by segment.
func Escaped(class string) bool {
	return class == "traversal" || class == "encoded" || class == ClassDotSegment
}
