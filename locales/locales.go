package locales

import (
	"embed"
	"fmt"
	"sort"
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
)

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
	}
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
	return localize(lang, id, nil, data)
}

// N is T for a message with plural forms chosen by count; count is also
// available to the message as {{.Count}}.
func N(lang, id string, count int, data map[string]any) string {
	d := make(map[string]any, len(data)+1)
	for k, v := range data {
		d[k] = v
	}
	d["Count"] = count
	return localize(lang, id, count, d)
}

func localize(lang, id string, count any, data map[string]any) string {
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
	return nil
}
