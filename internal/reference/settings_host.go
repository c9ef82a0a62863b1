package reference

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// A settings update as the host applies it (the default; benign-settings-as-sent
// stores every value as sent instead). The spec says only "plus any settings
// fields to change. Only fields present change" (4.10): the host derives some
// fields from others of the same update, adds slashes to path prefixes, and
// converts every value to the type of the field. Each step cites the host code
// it mirrors; shared/observations/host-settings-writes.md has what was seen.

// settingsLikeHost returns the settings after update in, as the host applies
// it, or why the update is refused (then nothing changes).
func (s *view) settingsLikeHost(in *input) (dict, fieldError) {
	args := map[string]string{}
	for _, f := range s.settings {
		if !in.has(f.k) {
			continue
		}
		str, _, valid := in.str(f.k)
		if !valid {
			return nil, fieldError(f.k + " must be a scalar value")
		}
		if b, isBool := in.vals[f.k].(bool); isBool {
			str = phpString(b) // host: htmlspecialchars casts a JSON true to "1", false to ""
		}
		args[f.k] = str
	}
	if cf, sent := args["customFields"]; sent {
		// host: editSettings (bl-kernel/functions.php) refuses customFields that json_decode refuses
		if _, isStr := in.vals["customFields"].(string); (!isStr || !json.Valid([]byte(cf))) && !s.mutated(CustomFieldsInvalidAccepted) {
			return nil, "customFields must be valid JSON text"
		}
	}
	if s.mutated(SettingsLocaleIgnored) {
		delete(args, "locale")
	}
	s.deriveLikeHost(args)
	if _, sent := args["locale"]; !sent && s.mutated(SettingsLocaleEveryUpdate) {
		lang, _ := s.setting("language").(string)
		if l, ok := args["language"]; ok {
			lang = l
		}
		args["locale"] = hostLocale(lang)
	}
	updated := append(dict(nil), s.settings...)
	for i := range updated {
		v, ok := args[updated[i].k]
		if !ok {
			continue
		}
		v = sanitise(v) // host: Site::set (bl-kernel/site.class.php) runs Sanitize::html on each value, customFields too
		if in.form && s.mutated(DoubleEncodeFormSettings) {
			v = sanitise(v)
		}
		updated[i].v = typedLikeHost(v, updated[i].v)
	}
	return updated, ""
}

// deriveLikeHost rewrites the fields of an update that follow others, as
// the host's editSettings (bl-kernel/functions.php) does before it stores
// them. homepage, pageNotFound and uriBlog not sent take their current
// values first (the spec's release fills them in before calling the core),
// and are dropped again when that leaves them as they are.
func (s *view) deriveLikeHost(args map[string]string) {
	current := func(name string) string { v, _ := s.setting(name).(string); return v }
	var filled []string
	for _, name := range []string{"homepage", "pageNotFound", "uriBlog"} {
		if _, sent := args[name]; !sent && s.setting(name) != nil {
			args[name] = current(name)
			filled = append(filled, name)
		}
	}
	if lang, sent := args["language"]; sent && lang != current("language") {
		args["locale"] = hostLocale(lang) // host: editSettings sets locale from bl-languages/<language>.json, over a locale sent
	}
	if phpEmpty(args["homepage"]) {
		args["homepage"], args["uriBlog"] = "", "" // host: editSettings blanks uriBlog without a homepage
	}
	if phpEmpty(args["pageNotFound"]) {
		args["pageNotFound"] = ""
	}
	for _, name := range []string{"uriPage", "uriTag", "uriCategory"} {
		if v, sent := args[name]; sent {
			args[name] = addSlashes(v) // host: Text::addSlashes (bl-kernel/helpers/text.class.php)
		}
	}
	switch {
	case !phpEmpty(args["uriBlog"]):
		args["uriBlog"] = addSlashes(args["uriBlog"])
	case !phpEmpty(args["homepage"]):
		args["uriBlog"] = "/blog/" // host: editSettings gives a homepage without a blog prefix "/blog/"
	default:
		args["uriBlog"] = ""
	}
	for _, name := range filled {
		if args[name] == current(name) {
			delete(args, name)
		}
	}
	for _, name := range []string{"homepage", "pageNotFound", "uriBlog"} {
		if s.setting(name) == nil {
			delete(args, name) // never add a field the site does not have
		}
	}
}

// addSlashes gives a path prefix one leading and one trailing slash, "/" for
// an empty one, like the host's Text::addSlashes.
func addSlashes(s string) string {
	s = "/" + strings.TrimLeft(s, "/")
	s = strings.TrimRight(s, "/") + "/"
	if s == "//" {
		return "/"
	}
	return s
}

// phpString is PHP's string cast of a boolean.
func phpString(b bool) string {
	if b {
		return "1"
	}
	return ""
}

// phpNumber is the leading numeric part of a string as PHP reads it.
var phpNumber = regexp.MustCompile(`^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?`)

// typedLikeHost converts a sanitised value to the type of the field's
// current value, as Site::set does: "true" and "false" become booleans
// first, then PHP's settype applies ("12abc" is 12 for an integer field,
// "abc" 0; a boolean true is "1" for a text field, false "").
func typedLikeHost(v string, current any) any {
	if v == "true" || v == "false" {
		v = phpString(v == "true") // settype of the boolean it became: "1" or ""
	}
	switch current.(type) {
	case bool:
		return !phpEmpty(v)
	case int64:
		f := phpFloat(v)
		if math.Abs(f) >= math.MaxInt64 {
			return int64(0)
		}
		return int64(f)
	case float64:
		return phpFloat(v)
	}
	return v
}

// phpFloat reads the leading number of s, 0 when there is none.
func phpFloat(s string) float64 {
	m := phpNumber.FindString(s)
	f, err := strconv.ParseFloat(strings.TrimSpace(m), 64)
	if err != nil {
		return 0
	}
	return f
}
