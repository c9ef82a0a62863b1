package reference

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/conformance-suite/conformance/fixtures"
)

// A big site for the scale benchmark and tests (Options.Seed): the seed's
// pages plus n generated ones of a realistic mix.
//
//   - types: about 70% published, 12% draft, 10% scheduled (dated in the
//     future), 5% static, 3% sticky;
//   - about one page in ten is the child of an earlier top-level page;
//   - tags with a long tail: a few are on many pages, most on a handful
//     (a Zipf draw over about 3·√n tags), and about a third of the pages
//     carry none;
//   - categories: 8 plus one per 500 pages, drawn the same way, and about
//     one page in five in none;
//   - content: Markdown paragraphs, 1 to 5 KB;
//   - about one page in twenty has a cover image, a file uploaded to it.
//
// The mix is drawn from a fixed seed, so a size gives the same site every
// time.

// GeneratedSite returns an Options.Seed that adds n generated pages, and
// the tags and categories they use, to the seed.
func GeneratedSite(n int) func(*fixtures.Seed) {
	return func(seed *fixtures.Seed) { generate(seed, n) }
}

// generate adds n pages to seed.
func generate(seed *fixtures.Seed, n int) {
	if n <= 0 {
		return
	}
	rng := rand.New(rand.NewPCG(uint64(n), 23))
	nTags := max(8, int(3*math.Sqrt(float64(n))))
	nCats := 8 + n/500
	for i := range nTags {
		seed.Tags = append(seed.Tags, fixtures.Term{Key: fmt.Sprintf("topic-%d", i), Name: fmt.Sprintf("Topic %d", i),
			Description: fmt.Sprintf("Pages about topic %d.", i)})
	}
	for i := range nCats {
		seed.Categories = append(seed.Categories, fixtures.Term{Key: fmt.Sprintf("section-%d", i), Name: fmt.Sprintf("Section %d", i),
			Description: fmt.Sprintf("Section %d of the site.", i)})
	}
	tagDraw := rand.NewZipf(rng, 1.3, 2, uint64(nTags-1))
	catDraw := rand.NewZipf(rng, 1.2, 1, uint64(nCats-1))
	start := time.Date(2015, 1, 1, 8, 0, 0, 0, time.UTC)
	var parents []string
	for i := range n {
		typ := pickType(rng)
		date := start.Add(time.Duration(i) * 37 * time.Minute)
		if typ == "scheduled" {
			date = scheduledFrom.Add(time.Duration(i) * time.Minute)
		}
		slug := fmt.Sprintf("generated-page-%05d", i)
		key := slug
		if len(parents) > 0 && rng.IntN(10) == 0 {
			key = parents[rng.IntN(len(parents))] + "/" + slug
		} else if typ == "published" {
			parents = append(parents, slug)
		}
		p := fixtures.Page{
			Key: key, UUID: fmt.Sprintf("%016x%016x", rng.Uint64(), rng.Uint64()), Title: fmt.Sprintf("Generated page %d", i),
			Description: fmt.Sprintf("Page %d of a generated site.", i), Type: typ, Content: content(rng, i),
			Date: date.Format(dateLayout), Username: "admin", Tags: []string{},
		}
		if rng.IntN(3) > 0 {
			seen := map[string]bool{}
			for range 1 + rng.IntN(3) {
				if t := fmt.Sprintf("topic-%d", tagDraw.Uint64()); !seen[t] {
					seen[t] = true
					p.Tags = append(p.Tags, t)
				}
			}
		}
		if rng.IntN(5) > 0 {
			p.Category = fmt.Sprintf("section-%d", catDraw.Uint64())
		}
		if rng.IntN(20) == 0 {
			// A cover image is a file uploaded to the page.
			p.CoverImage = fmt.Sprintf("cover-%d.jpg", i)
			seed.Files = append(seed.Files, fixtures.File{Page: key, Filename: p.CoverImage, Mime: "image/jpeg",
				Size: int64(20_000 + rng.IntN(200_000)), Thumbnail: true})
		}
		seed.Pages = append(seed.Pages, p)
	}
}

// scheduledFrom is when the generated scheduled pages start: far in the
// future, like the fixture's scheduled page, and fixed, so that a size
// gives the same site every time.
var scheduledFrom = time.Date(2099, 6, 1, 10, 0, 0, 0, time.UTC)

// pickType draws a page type of the mix.
func pickType(rng *rand.Rand) string {
	switch r := rng.IntN(100); {
	case r < 70:
		return "published"
	case r < 82:
		return "draft"
	case r < 92:
		return "scheduled"
	case r < 97:
		return "static"
	}
	return "sticky"
}

// words make up the generated text.
var words = strings.Fields("site page content note update release guide team product story week plan idea " +
	"feature answer detail reader writer change example section summary topic list item image link")

// content is a page's Markdown source of 1 to 5 KB: a heading and
// paragraphs, one of them with emphasis and a link.
func content(rng *rand.Rand, i int) string {
	size := 1024 + rng.IntN(4*1024)
	var b strings.Builder
	fmt.Fprintf(&b, "## Part %d\n\n", i)
	for b.Len() < size {
		for j := range 40 + rng.IntN(40) {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.IntN(len(words))])
		}
		b.WriteString(". Read **more** in [the guide](https://example.com/guide).\n\n")
	}
	return b.String()
}
