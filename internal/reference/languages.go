package reference

// hostLocales is the locale of each language the host ships: the
// language-data.locale of its bl-languages/<language>.json files (3.21.1).
var hostLocales = map[string]string{
	"ar_MA": "ar, ar_MA",
	"bg_BG": "bg, bg_BG",
	"ckb":   "ku,ckb",
	"cs_CZ": "cs, cs_CZ",
	"da":    "da, da_DK",
	"de_AT": "de, de_AT",
	"de_CH": "de, de_CH",
	"de_DE": "de, de_DE",
	"en":    "en, en_US, en_AU, en_CA, en_GB, en_IE, en_NZ",
	"es":    "es, es_ES, es_AR, es_CL, es_CO, es_MX, es_PE, es_VE",
	"fa_IR": "fa,fa_IR",
	"fi_FI": "fi, fi_FI",
	"fr_FR": "fr, fr_FR",
	"gr":    "el, el_CY, el_GR",
	"he_IL": "iw, iw_IL, he_IL",
	"hu_HU": "hu, hu_HU",
	"id_ID": "id, id_ID",
	"it_IT": "it, it_IT",
	"ja_JP": "ja, ja_JP",
	"lt":    "lt, lt_LT",
	"ms_MY": "ms, ms_MY",
	"nl_NL": "nl, nl_NL",
	"pl_PL": "pl, pl_PL",
	"pt_BR": "pt_BR",
	"pt_PT": "pt_PT",
	"ro_RO": "ro, ro_RO",
	"ru":    "ru, ru_RU",
	"sv_SE": "sv, sv_SE",
	"tr_TR": "tr, tr_TR",
	"uk_UA": "uk_UA",
	"vi_VN": "vi, vi_VN",
	"zh_CN": "zh, zh_CN",
	"zh_TW": "zh, zh_TW",
}

// hostLocale is the locale the host gives a site whose language becomes
// lang: its language file's, or the code itself where it ships none (a code
// such as "de": its files are de_DE, de_AT and de_CH).
func hostLocale(lang string) string {
	if l, ok := hostLocales[lang]; ok {
		return l
	}
	return lang
}
