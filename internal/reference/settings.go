package reference

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// getSettingsH answers GET /api/settings (spec 4.9): the flat settings map.
func (s *view) getSettingsH(_ *http.Request, _ route, _ *input, _ string) response {
	data := append(dict(nil), s.settings...)
	for i := range data {
		v, ok := data[i].v.(string)
		if data[i].k == "homepage" && v == "" && s.mutated(BenignTypedSettings) {
			data[i].v = false // no homepage: the spec shows only an example kind (2.6)
		}
		if data[i].k != "customFields" || !ok {
			continue
		}
		switch {
		case s.mutated(SettingsCustomFieldsEscaped):
			data[i].v = sanitise(v)
		case s.mutated(SettingsCustomFieldsObject):
			var decoded any
			if json.Unmarshal([]byte(unsanitise(v)), &decoded) == nil {
				data[i].v = toOrdered(decoded)
			}
		}
	}
	if s.mutated(SettingsNestedObject) {
		social := dict{}
		for _, name := range []string{"twitter", "facebook", "github"} {
			social = append(social, kv{name, s.setting(name)})
		}
		data = append(data, kv{"social", social})
	}
	if s.mutated(SettingsDataEmpty) {
		data = dict{}
	}
	if s.mutated(BenignVolatileSettings) {
		s.settingsReads++
		data = append(data, kv{"lastReadAt", s.readTime()}, kv{"readCount", s.settingsReads})
	}
	return success(http.StatusOK, "Settings.", kv{"data", data})
}

// toOrdered converts a decoded JSON value into encoder values.
func toOrdered(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = toOrdered(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = toOrdered(e)
		}
		return out
	}
	return v
}

// editSettingsH answers PUT /api/settings (spec 4.10): as the host applies
// an update (settingsLikeHost), or with benign-settings-as-sent storing
// each value sent as it is (settingsAsSent). Unknown fields are ignored; a
// refused update (400) changes nothing.
func (s *view) editSettingsH(_ *http.Request, _ route, in *input, _ string) response {
	var updated dict
	var err fieldError
	if s.mutated(BenignSettingsAsSent) {
		updated, err = s.settingsAsSent(in)
	} else {
		updated, err = s.settingsLikeHost(in)
	}
	if err != "" {
		code := http.StatusBadRequest
		if s.mutated(SettingsInvalid200) {
			code = http.StatusOK
		}
		return failure(code, "Error trying to edit the settings: "+string(err))
	}
	if s.mutated(SettingsPutBlanksUnnamed) && !in.has("footer") {
		updated = updated.with("footer", "")
	}
	if s.mutated(SettingsPutResetsHomepage) {
		for i := range updated {
			switch updated[i].k {
			case "homepage", "pageNotFound", "uriBlog":
				if !in.has(updated[i].k) {
					updated[i].v = ""
				}
			}
		}
	}
	if s.mutated(SettingsPutIgnored) {
		updated = s.settings
	}
	s.settings = updated
	for _, p := range s.pages {
		p.customFields = s.withCustomFields(p.customFields)
	}
	if s.mutated(SettingsEditReturnsData) {
		return success(http.StatusOK, "Settings edited.", kv{"data", append(dict(nil), s.settings...)})
	}
	return success(http.StatusOK, "Settings edited.")
}

// settingsAsSent returns the settings after update in with only the fields
// sent changed, each as sent: values are checked against the type of the
// stored value (integer, boolean or string), customFields must be valid
// JSON text, and any invalid value refuses the whole update. String values
// are HTML-encoded once, like every input.
func (s *view) settingsAsSent(in *input) (dict, fieldError) {
	updated := append(dict(nil), s.settings...)
	for i := range updated {
		name := updated[i].k
		if !in.has(name) {
			continue
		}
		v, err := s.coerceSetting(name, updated[i].v, in)
		if err != "" {
			if s.mutated(CustomFieldsInvalidAccepted) && name == "customFields" {
				str, _, _ := in.str(name)
				updated[i].v = str
				continue
			}
			return nil, err
		}
		updated[i].v = v
	}
	return updated, ""
}

func (s *Server) coerceSetting(name string, current any, in *input) (any, fieldError) {
	if name == "homepage" && in.vals[name] == false && s.mutated(BenignTypedSettings) {
		return "", "" // false is how GET shows "no homepage"
	}
	str, _, valid := in.str(name)
	if !valid {
		return nil, fieldError(name + " must be a scalar value")
	}
	if name == "customFields" {
		if _, isStr := in.vals[name].(string); !isStr || !json.Valid([]byte(str)) {
			return nil, fieldError("customFields must be valid JSON text")
		}
		return str, ""
	}
	switch current.(type) {
	case int64:
		n, err := strconv.ParseInt(strings.TrimSpace(str), 10, 64)
		if err != nil {
			return nil, fieldError(name + " must be an integer")
		}
		return n, ""
	case float64:
		f, err := strconv.ParseFloat(strings.TrimSpace(str), 64)
		if err != nil {
			return nil, fieldError(name + " must be a number")
		}
		return f, ""
	case bool:
		switch strings.ToLower(strings.TrimSpace(str)) {
		case "true", "1":
			return true, ""
		case "false", "0", "":
			return false, ""
		}
		return nil, fieldError(name + " must be a boolean")
	}
	if in.form && s.mutated(DoubleEncodeFormSettings) {
		return sanitise(sanitise(str)), ""
	}
	return sanitise(str), ""
}

// withCustomFields adds the names of the fields the customFields setting
// defines (the members of its JSON object) to have; no name is ever
// removed. With BenignSettingsAsSent pages keep no custom fields.
// host: Pages::setCustomFields (bl-kernel/pages.class.php), called by editSettings
func (s *view) withCustomFields(have map[string]bool) map[string]bool {
	text, _ := s.setting("customFields").(string)
	var defined map[string]json.RawMessage
	if s.mutated(BenignSettingsAsSent) || json.Unmarshal([]byte(unsanitise(text)), &defined) != nil {
		return have
	}
	for name := range defined {
		if have == nil {
			have = map[string]bool{}
		}
		have[name] = true
	}
	return have
}
