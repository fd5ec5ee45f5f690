package locales

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var placeholder = regexp.MustCompile(`{{\s*\.(\w+)\s*}}`)

// messages reads a locale file as key -> plural form -> text.
func messages(t *testing.T, lang string) map[string]map[string]string {
	t.Helper()
	buf, err := files.ReadFile(lang + ".toml")
	require.NoError(t, err)
	var raw map[string]any
	require.NoError(t, toml.Unmarshal(buf, &raw))
	out := map[string]map[string]string{}
	for k, v := range raw {
		switch v := v.(type) {
		case string:
			out[k] = map[string]string{"other": v}
		case map[string]any:
			forms := map[string]string{}
			for f, s := range v {
				str, ok := s.(string)
				require.True(t, ok, "%s: %s.%s is not a string", lang, k, f)
				forms[f] = str
			}
			out[k] = forms
		default:
			t.Fatalf("%s: %s has type %T", lang, k, v)
		}
	}
	return out
}

func placeholders(forms map[string]string) []string {
	set := map[string]bool{}
	for _, s := range forms {
		for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
			set[m[1]] = true
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestSameKeysAndPlaceholders(t *testing.T) {
	t.Parallel()
	en, fr := messages(t, English), messages(t, French)
	require.NotEmpty(t, en)
	for k, forms := range en {
		frForms, ok := fr[k]
		if !assert.True(t, ok, "key %q is in en.toml but not in fr.toml", k) {
			continue
		}
		assert.Equal(t, placeholders(frForms), placeholders(forms), "placeholders of %q (fr, then en)", k)
		assert.Equal(t, len(frForms) > 1, len(forms) > 1, "%q is plural in one language only", k)
	}
	for k := range fr {
		_, ok := en[k]
		assert.True(t, ok, "key %q is in fr.toml but not in en.toml", k)
	}
	assert.Equal(t, Keys(French), Keys(English))
}

func TestPlurals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang  string
		count int
		want  string
	}{
		{English, 1, "1 token"},
		{English, 2, "2 tokens"},
		{English, 0, "0 tokens"},
		{French, 1, "1 jeton"},
		{French, 2, "2 jetons"},
		{French, 0, "0 jeton"}, // CLDR: 0 is singular in French
	}
	for _, tc := range tests {
		t.Run(tc.lang+"/"+tc.want, func(t *testing.T) {
			assert.Equal(t, tc.want, N(tc.lang, "dix_pay_tokens", tc.count, nil))
		})
	}
}

func TestTemplates(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "Bid 7", T(English, "dix_btn_bid_amount", map[string]any{"Amount": 7}))
	assert.Equal(t, "Miser 7", T(French, "dix_btn_bid_amount", map[string]any{"Amount": 7}))
	assert.Equal(t, Missing("no_such_key"), T(English, "no_such_key", nil))
	assert.Equal(t, "Bid 7", T("de", "dix_btn_bid_amount", map[string]any{"Amount": 7}), "unsupported language falls back to English")
}

func TestEveryMessageRenders(t *testing.T) {
	t.Parallel()
	data := map[string]any{}
	for _, lang := range Languages {
		for _, k := range Keys(lang) {
			for _, n := range []int{1, 2} {
				s := N(lang, k, n, data)
				assert.NotEqual(t, Missing(k), s, "%s: %s does not render", lang, k)
			}
		}
	}
}

func TestFor(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"fr", French}, {"FR", French}, {"en-US", English}, {"en-GB", English}, {"de", ""}, {"", ""},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) { assert.Equal(t, tc.want, For(tc.in)) })
	}
	assert.Equal(t, French, Or("", French))
	assert.Equal(t, English, Or("xx", "yy"))
}

// TestNoDoubledWords: no message says a word twice in a row ("goes on on
// the board"), placeholders left aside; French reflexive verbs ("vous vous
// grillez") are what they are.
func TestNoDoubledWords(t *testing.T) {
	t.Parallel()
	reflexive := map[string]bool{"vous": true, "nous": true}
	for _, lang := range Languages {
		for k, forms := range messages(t, lang) {
			for f, s := range forms {
				words := strings.Fields(strings.ReplaceAll(placeholder.ReplaceAllString(s, " ¤ "), "**", ""))
				for i := 1; i < len(words); i++ {
					if words[i] != "¤" && words[i] != "—" && !(lang == "fr" && reflexive[strings.ToLower(words[i])]) {
						assert.NotEqual(t, strings.ToLower(words[i-1]), strings.ToLower(words[i]), "%s: %s.%s: %q", lang, k, f, s)
					}
				}
			}
		}
	}
}

// TestFrenchSaysNoGenderOfAPlayer: a French message never makes a word
// agree with a player's name ("carol est grillé"): the name may be
// anyone's, so what follows it reads the same for everyone.
func TestFrenchSaysNoGenderOfAPlayer(t *testing.T) {
	t.Parallel()
	// A name (a placeholder), then a verb of state and a participle or an
	// adjective in a masculine or feminine form.
	agrees := regexp.MustCompile(`{{\s*\.(Name|Voter|Holder|Creator|A|B)\s*}}\**\s+(est|était|sera|a été|reste|semble)\s+(\p{L}*(é|ée|és|ées)|seule?|dernier|dernière|absente?|prête?|partie?)(\P{L}|$)`)
	for k, forms := range messages(t, "fr") {
		for f, s := range forms {
			assert.False(t, agrees.MatchString(s), "fr: %s.%s agrees with a name: %q", k, f, s)
		}
	}
	for _, s := range []string{"{{.Name}} est grillé.", "**{{.Name}}** est grillée", "{{.Name}} est absent"} {
		assert.True(t, agrees.MatchString(s), "the check finds %q", s)
	}
}
