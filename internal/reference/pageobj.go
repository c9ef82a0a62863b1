package reference

// The page object (spec 2.1): rendered as a conforming server does, then
// changed by the page-object mutants that are on (pageObjMutants).

import (
	"strings"
	"time"
)

// pageObj renders the 17-field page object of spec section 2.1.
func (s *view) pageObj(p *page, base string) obj {
	// host: Date::convertToUTC in bl-kernel/helpers/date.class.php
	dateUTC := p.date
	if t, err := time.ParseInLocation(dateLayout, p.date, s.location()); err == nil {
		dateUTC = t.UTC().Format(dateLayout)
	}
	tags := dict{}
	for _, k := range p.tags {
		// host: Page::tags in bl-kernel/pagex.class.php (the page's own map: one tag may have other names elsewhere)
		name := p.tagName(k)
		if t := s.tags[k]; t != nil && s.mutated(BenignTagsOfAnyPage) {
			name = t.name
		}
		tags = append(tags, kv{k, name})
	}
	var cover, coverFile any = false, false
	if p.coverImage != "" {
		if isURL(p.coverImage) {
			cover = p.coverImage
			coverFile = lastSegment(strings.SplitN(strings.SplitN(p.coverImage, "?", 2)[0], "#", 2)[0])
		} else {
			cover = base + pageUploads(p.uuid) + p.coverImage
			coverFile = p.coverImage
		}
	}
	o := obj{
		{"key", p.key},
		{"title", p.title},
		{"content", renderMarkdown(p.content)},
		{"contentRaw", sanitise(p.content)},
		{"description", p.description},
		{"type", p.typ},
		{"slug", lastSegment(p.key)},
		{"date", p.date},
		{"dateRaw", p.date},
		{"tags", tags},
		{"username", p.username},
		{"category", p.category},
		{"uuid", p.uuid},
		{"dateUTC", dateUTC},
		{"permalink", s.pagesURL(base) + p.key},
		{"coverImage", cover},
		{"coverImageFilename", coverFile},
	}
	for _, m := range pageObjMutants {
		if s.mutated(m.mutant) {
			o = m.change(s, p, base, o)
		}
	}
	return o
}

// pageObjMutants change a page object in every view, in this order.
var pageObjMutants = []struct {
	mutant Mutant
	change func(s *view, p *page, base string, o obj) obj
}{
	{BenignDisplayDateShifted, func(s *view, p *page, _ string, o obj) obj {
		// The date as a reader two hours east of UTC sees it: date and
		// dateRaw differ, in the same form (spec 2.1 does not say they agree).
		if t, err := time.ParseInLocation(dateLayout, p.date, s.location()); err == nil {
			o = o.set("date", t.In(time.FixedZone("UTC+02:00", 2*60*60)).Format(dateLayout))
		}
		return o
	}},
	{DateDisplayFormat, func(_ *view, p *page, _ string, o obj) obj {
		if t, err := time.Parse(dateLayout, p.date); err == nil {
			o = o.set("date", t.Format("January 2, 2006"))
		}
		return o
	}},
	{TagsAsString, func(_ *view, _ *page, _ string, o obj) obj {
		tags, _ := member(o, "tags").(dict)
		names := make([]string, 0, len(tags))
		for _, t := range tags {
			names = append(names, t.v.(string))
		}
		return o.set("tags", strings.Join(names, ","))
	}},
	{TagsMapValuesAreKeys, func(_ *view, _ *page, _ string, o obj) obj {
		if tags, ok := member(o, "tags").(dict); ok {
			for i := range tags {
				tags[i].v = tags[i].k
			}
		}
		return o
	}},
	{CoverImageRelative, func(_ *view, p *page, base string, o obj) obj {
		if cover, ok := member(o, "coverImage").(string); ok && !isURL(p.coverImage) {
			o = o.set("coverImage", strings.TrimPrefix(cover, base))
		}
		return o
	}},
	{CoverImageNull, func(_ *view, p *page, _ string, o obj) obj {
		if p.coverImage == "" {
			o = o.set("coverImage", nil).set("coverImageFilename", nil)
		}
		return o
	}},
	{CategoryFalseWhenNone, func(_ *view, p *page, _ string, o obj) obj {
		if p.category == "" {
			o = o.set("category", false)
		}
		return o
	}},
	{SlugIsFullKey, func(_ *view, p *page, _ string, o obj) obj { return o.set("slug", p.key) }},
	{RelativePermalink, func(_ *view, _ *page, base string, o obj) obj {
		permalink, _ := member(o, "permalink").(string)
		return o.set("permalink", strings.TrimPrefix(permalink, base))
	}},
	{ContentNotRendered, func(_ *view, p *page, _ string, o obj) obj { return o.set("content", p.content) }},
	{ChildrenShareParentUUID, func(s *view, p *page, _ string, o obj) obj {
		if parent := s.pages[parentOf(p.key)]; parent != nil {
			o = o.set("uuid", parent.uuid)
		}
		return o
	}},
	{BenignNumericEntities, func(_ *view, _ *page, _ string, o obj) obj {
		for _, f := range []string{"title", "contentRaw", "description"} {
			v, _ := member(o, f).(string)
			o = o.set(f, numericRefs(v))
		}
		return o
	}},
	{TitleNotEncoded, func(_ *view, p *page, _ string, o obj) obj { return o.set("title", unsanitise(p.title)) }},
	{BenignVolatilePageField, func(s *view, _ *page, _ string, o obj) obj { return append(o, kv{"readAt", s.readTime()}) }},
}
