package locales

import (
	"embed"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// The supported languages.
const (
	English = "en"
	French  = "fr"
)

// Languages lists the supported languages, English first.
var Languages = []string{English, French}

//go:embed en.toml fr.toml
var files embed.FS

var (
	bundle     *i18n.Bundle
	localizers = map[string]*i18n.Localizer{}
	keys       = map[string]map[string]bool{}
	// plain holds, by language and id, the text T gives without going
	// through go-i18n: a message's text without data, and the text of a
	// message without placeholders whatever the data (see fixed).
	plain = map[string]map[string]fixed{}
)

// fixed is a message's text as go-i18n gives it without data (nil
// TemplateData, no plural count), and whether it is its text with any data
// too: none of the message's forms holds a placeholder (go-i18n gives the
// text of such a message as it is written).
type fixed struct {
	text   string
	noData bool
	// parts is the message's "other" form cut at its placeholders, when it
	// holds only text and placeholders {{.Name}}: even entries are text,
	// odd ones the names of data values. nil: go-i18n executes it.
	parts []string
	// forms are the message's plural forms cut so, by CLDR form name
	// ("one", "other", …), when every form it has cuts; nil otherwise.
	forms map[string][]string
}

// pluralProbe is a message of the bundle, in every language, whose text in
// each plural form is the form's name: go-i18n's choice of form for a
// count, read once (formOf).
const pluralProbe = "\x00plural"

// formsKnown is how many counts formOf holds, from 0.
const formsKnown = 1024

// formOf is, by language and count, the plural form go-i18n picks.
var formOf = map[string]*[formsKnown]string{}

// placeholderRE is a placeholder as text/template reads it with nothing
// else in it: a field of the data, spaces allowed inside the braces.
var placeholderRE = regexp.MustCompile(`{{ *\.([A-Za-z_][A-Za-z_0-9]*) *}}`)

// cut is form as fixed.parts, or nil when it holds any other action.
func cut(form string) []string {
	var parts []string
	rest := form
	for {
		loc := placeholderRE.FindStringSubmatchIndex(rest)
		if loc == nil {
			break
		}
		parts = append(parts, rest[:loc[0]], rest[loc[2]:loc[3]])
		rest = rest[loc[1]:]
	}
	if strings.Contains(rest, "{{") || strings.Contains(rest, "}}") {
		return nil
	}
	for i := 0; i < len(parts); i += 2 {
		if strings.Contains(parts[i], "{{") || strings.Contains(parts[i], "}}") {
			return nil
		}
	}
	return append(parts, rest)
}

// fill is parts with the values of data, as text/template prints them;
// false when a value is missing or not a string or an integer (go-i18n
// then prints it).
func fill(parts []string, data map[string]any) (string, bool) {
	return fillCount(parts, data, nil)
}

// fillCount is fill with Count, when count is not nil, as data's value
// for "Count".
func fillCount(parts []string, data map[string]any, count *int) (string, bool) {
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 0 {
			b.WriteString(p)
			continue
		}
		v := data[p]
		if count != nil && p == "Count" {
			v = *count
		}
		switch v := v.(type) {
		case string:
			b.WriteString(v)
		case int:
			b.WriteString(strconv.Itoa(v))
		case int64:
			b.WriteString(strconv.FormatInt(v, 10))
		case int32:
			b.WriteString(strconv.FormatInt(int64(v), 10))
		case uint32:
			b.WriteString(strconv.FormatUint(uint64(v), 10))
		case uint64:
			b.WriteString(strconv.FormatUint(v, 10))
		default:
			if !writeInteger(&b, v) {
				return "", false
			}
		}
	}
	return b.String(), true
}

// writeInteger writes v to b as text/template prints it, when v is an
// integer of any other type that has no method printing it (a Stringer or
// an error prints itself); false otherwise.
func writeInteger(b *strings.Builder, v any) bool {
	switch v.(type) {
	case fmt.Stringer, error, fmt.Formatter:
		return false
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(rv.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.WriteString(strconv.FormatUint(rv.Uint(), 10))
	default:
		return false
	}
	return true
}

func init() {
	bundle = i18n.NewBundle(language.English)
	bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	for _, lang := range Languages {
		name := lang + ".toml"
		buf, err := files.ReadFile(name)
		if err != nil {
			panic(fmt.Sprintf("locales: %v", err))
		}
		mf, err := bundle.ParseMessageFileBytes(buf, name)
		if err != nil {
			panic(fmt.Sprintf("locales: %s: %v", name, err))
		}
		keys[lang] = map[string]bool{}
		for _, m := range mf.Messages {
			keys[lang][m.ID] = true
		}
		// Only the language itself: a missing key must show up as missing,
		// not silently fall back to English.
		localizers[lang] = i18n.NewLocalizer(bundle, lang)
		plain[lang] = map[string]fixed{}
		addPlain(lang, mf.Messages)
		formOf[lang] = probeForms(lang)
	}
}

// probeForms reads the plural form go-i18n picks in lang for each count
// formOf holds, through a message whose forms are their own names.
func probeForms(lang string) *[formsKnown]string {
	probe := &i18n.Message{ID: pluralProbe, Zero: "zero", One: "one", Two: "two", Few: "few", Many: "many", Other: "other"}
	if err := bundle.AddMessages(language.Make(lang), probe); err != nil {
		panic(fmt.Sprintf("locales: %v", err))
	}
	var forms [formsKnown]string
	for n := range forms {
		s, err := localizers[lang].Localize(&i18n.LocalizeConfig{MessageID: pluralProbe, PluralCount: n})
		if err != nil {
			panic(fmt.Sprintf("locales: plural form of %d in %s: %v", n, lang, err))
		}
		forms[n] = s
	}
	return &forms
}

// addPlain records the texts of messages of lang in plain.
func addPlain(lang string, msgs []*i18n.Message) {
	for _, m := range msgs {
		delim := m.LeftDelim
		if delim == "" {
			delim = "{{"
		}
		noData := true
		for _, form := range []string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other} {
			if strings.Contains(form, delim) {
				noData = false
			}
		}
		f := fixed{text: localizeI18n(lang, m.ID, nil, nil), noData: noData}
		if !noData && m.LeftDelim == "" && m.RightDelim == "" && m.Other != "" {
			f.parts = cut(m.Other)
		}
		if m.LeftDelim == "" && m.RightDelim == "" {
			f.forms = cutForms(m)
		}
		plain[lang][m.ID] = f
	}
}

// cutForms is m's plural forms cut at their placeholders, by form name;
// nil when a form holds any other action.
func cutForms(m *i18n.Message) map[string][]string {
	forms := map[string][]string{}
	for name, form := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
		if form == "" {
			continue
		}
		parts := cut(form)
		if parts == nil {
			return nil
		}
		forms[name] = parts
	}
	return forms
}

// For maps a Discord locale ("fr", "en-US", "en-GB", …) to a supported
// language, or returns "" when the locale is neither French nor English.
func For(discordLocale string) string {
	l := strings.ToLower(discordLocale)
	switch {
	case strings.HasPrefix(l, "fr"):
		return French
	case strings.HasPrefix(l, "en"):
		return English
	}
	return ""
}

// Or returns lang when it is supported and fallback otherwise (English when
// fallback is not supported either).
func Or(lang, fallback string) string {
	if Supported(lang) {
		return lang
	}
	if Supported(fallback) {
		return fallback
	}
	return English
}

// Supported reports whether lang is one of Languages.
func Supported(lang string) bool {
	return lang == English || lang == French
}

// Has reports whether the message id exists in lang.
func Has(lang, id string) bool { return keys[lang][id] }

// Keys returns the message ids of lang, sorted.
func Keys(lang string) []string {
	out := make([]string, 0, len(keys[lang]))
	for k := range keys[lang] {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Missing is how T renders an unknown message id, so that a missing string
// is visible (and caught by tests) instead of blank.
func Missing(id string) string { return "⟦" + id + "⟧" }

// T returns the message id in lang (English for an unsupported lang), with
// the template placeholders filled from data. It never fails: an unknown id
// gives Missing(id). T is safe for concurrent use.
func T(lang, id string, data map[string]any) string {
	if _, ok := localizers[lang]; !ok {
		lang = English
	}
	f, ok := plain[lang][id]
	if ok && (data == nil || f.noData) {
		return f.text
	}
	if ok && f.parts != nil {
		if s, ok := fill(f.parts, data); ok {
			return s
		}
	}
	return localizeI18n(lang, id, nil, data)
}

// N is T for a message with plural forms chosen by count; count is also
// available to the message as {{.Count}}.
func N(lang, id string, count int, data map[string]any) string {
	if _, ok := localizers[lang]; !ok {
		lang = English
	}
	if f, ok := plain[lang][id]; ok && f.forms != nil && count >= 0 && count < formsKnown {
		if parts, ok := f.forms[formOf[lang][count]]; ok {
			if s, ok := fillCount(parts, data, &count); ok {
				return s
			}
		}
	}
	d := make(map[string]any, len(data)+1)
	for k, v := range data {
		d[k] = v
	}
	d["Count"] = count
	return localizeI18n(lang, id, count, d)
}

// localizeI18n is the message id in lang through go-i18n.
func localizeI18n(lang, id string, count any, data map[string]any) string {
	lc, ok := localizers[lang]
	if !ok {
		lang = English
		lc = localizers[English]
	}
	if !keys[lang][id] {
		return Missing(id)
	}
	s, err := lc.Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data, PluralCount: count})
	if err != nil && count != nil {
		// A message without plural forms: its only text is "other".
		s, err = lc.Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data})
	}
	if err != nil {
		return Missing(id)
	}
	return s
}

// Add adds to lang the messages of a TOML file, as en.toml holds them, for
// a game whose words live outside this package (a game defined in a test).
// It is not safe for use concurrently with T: call it before any.
func Add(lang string, toml []byte) error {
	if !Supported(lang) {
		return fmt.Errorf("locales: unsupported language %q", lang)
	}
	name := "added." + lang + ".toml" // the bundle reads the language from the name
	mf, err := bundle.ParseMessageFileBytes(toml, name)
	if err != nil {
		return fmt.Errorf("locales: %s: %w", name, err)
	}
	for _, m := range mf.Messages {
		keys[lang][m.ID] = true
	}
	addPlain(lang, mf.Messages)
	return nil
}
