package locales

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// T gives, for every message of both languages, what go-i18n gives: with
// no data, with data filling its placeholders, and with data it does not
// use; a language that is not supported reads as English.
func TestTSameAsGoI18n(t *testing.T) {
	t.Parallel()
	for _, lang := range Languages {
		msgs := messages(t, lang)
		for _, k := range Keys(lang) {
			data := map[string]any{"Unused": "x"}
			for _, form := range msgs[k] {
				for _, m := range placeholder.FindAllStringSubmatch(form, -1) {
					data[m[1]] = "«" + m[1] + "»"
				}
			}
			require.Equal(t, localizeI18n(lang, k, nil, nil), T(lang, k, nil), "%s %s without data", lang, k)
			require.Equal(t, localizeI18n(lang, k, nil, data), T(lang, k, data), "%s %s with data", lang, k)
			require.Equal(t, localizeI18n(lang, k, nil, map[string]any{}), T(lang, k, map[string]any{}), "%s %s with empty data", lang, k)
			nums := map[string]any{}
			for name := range data {
				nums[name] = len(name) * 1001
			}
			require.Equal(t, localizeI18n(lang, k, nil, nums), T(lang, k, nums), "%s %s with numbers", lang, k)
			small := map[string]any{}
			for name := range data {
				switch len(name) % 4 {
				case 0:
					small[name] = uint8(len(name))
				case 1:
					small[name] = int16(-len(name))
				case 2:
					small[name] = pips(len(name))
				default:
					small[name] = named(len(name))
				}
			}
			require.Equal(t, localizeI18n(lang, k, nil, small), T(lang, k, small), "%s %s with other integers", lang, k)
			odd := map[string]any{}
			for name := range data {
				odd[name] = []int{len(name)}
			}
			require.Equal(t, localizeI18n(lang, k, nil, odd), T(lang, k, odd), "%s %s with other values", lang, k)
		}
	}
	require.Equal(t, T(English, "dix_btn_bid_amount", nil), T("de", "dix_btn_bid_amount", nil))
	require.Equal(t, Missing("no_such_key"), T(French, "no_such_key", nil))
	require.Equal(t, Missing("no_such_key"), T("de", "no_such_key", map[string]any{"A": 1}))
}

// pips is an integer type of its own, printed as a number; named one
// that prints itself.
type (
	pips  uint8
	named int
)

func (n named) String() string { return "n" + strconv.Itoa(int(n)) }

// nSlow is N through go-i18n alone.
func nSlow(lang, id string, count int, data map[string]any) string {
	if !Supported(lang) {
		lang = English
	}
	d := map[string]any{}
	for k, v := range data {
		d[k] = v
	}
	d["Count"] = count
	return localizeI18n(lang, id, count, d)
}

// N gives, for every message of both languages and every count it may
// meet (beyond the forms it keeps too), what go-i18n gives: with data
// filling its placeholders, with a Count of the caller's (N's wins), with
// numbers, with values go-i18n prints itself, and with data missing.
func TestNSameAsGoI18n(t *testing.T) {
	t.Parallel()
	counts := []int{0, 1, 2, 3, 10, 11, 21, -1, 1000000, 2000000, 1500000, formsKnown - 1, formsKnown, formsKnown + 1}
	for n := 4; n < 200; n++ {
		counts = append(counts, n)
	}
	fast := 0
	for _, lang := range append([]string{"de"}, Languages...) {
		msgs := messages(t, Or(lang, English))
		for _, k := range Keys(Or(lang, English)) {
			data := map[string]any{"Count": "caller's"}
			for _, form := range msgs[k] {
				for _, m := range placeholder.FindAllStringSubmatch(form, -1) {
					if m[1] != "Count" {
						data[m[1]] = "«" + m[1] + "» <&>"
					}
				}
			}
			nums, odd := map[string]any{}, map[string]any{}
			for name := range data {
				nums[name], odd[name] = len(name)*1001, []int{len(name)}
			}
			cs := counts[:8] // a message of one text: the same whatever the count
			if len(msgs[k]) > 1 {
				cs = counts
			}
			for _, n := range cs {
				for _, d := range []map[string]any{data, nums, odd, nil} {
					require.Equal(t, nSlow(lang, k, n, d), N(lang, k, n, d), "%s %s %d %v", lang, k, n, d)
				}
				if _, ok := msgs[k]["one"]; ok && n == 1 {
					fast++
				}
			}
		}
	}
	require.NotZero(t, fast, "no message with plural forms")
}

// The forms go-i18n picks for counts are those of CLDR for English and
// French.
func TestFormOf(t *testing.T) {
	t.Parallel()
	require.Equal(t, "other", formOf[English][0])
	require.Equal(t, "one", formOf[English][1])
	require.Equal(t, "other", formOf[English][2])
	require.Equal(t, "one", formOf[French][0])
	require.Equal(t, "one", formOf[French][1])
	require.Equal(t, "other", formOf[French][2])
	require.NotContains(t, Keys(English), pluralProbe)
}

// BenchmarkN is N of a message with plural forms; BenchmarkNGoI18n through
// go-i18n.
func BenchmarkN(b *testing.B) {
	for b.Loop() {
		_ = N(French, "dix_pay_tokens", 3, nil)
	}
}

func BenchmarkNGoI18n(b *testing.B) {
	for b.Loop() {
		_ = nSlow(French, "dix_pay_tokens", 3, nil)
	}
}

// A message with a placeholder given data is filled in, not taken as
// written.
func TestTFillsPlaceholders(t *testing.T) {
	t.Parallel()
	require.Equal(t, "Bid 7", T(English, "dix_btn_bid_amount", map[string]any{"Amount": 7}))
	require.NotEqual(t, T(English, "dix_btn_bid_amount", nil), T(English, "dix_btn_bid_amount", map[string]any{"Amount": 7}))
}

// Messages cut at their placeholders read as the text around them.
func TestCut(t *testing.T) {
	t.Parallel()
	require.Equal(t, []string{"Bid ", "Amount", "!"}, cut("Bid {{.Amount}}!"))
	require.Equal(t, []string{"", "A", " and ", "B", ""}, cut("{{ .A }} and {{.B}}"))
	require.Nil(t, cut("{{if .A}}x{{end}}"))
	require.Nil(t, cut("{{.A}} {{- .B}}"))
	require.Nil(t, cut("{{.A | printf \"%d\"}}"))
}

// BenchmarkTData is T of a message with a placeholder; BenchmarkTDataGoI18n
// through go-i18n.
func BenchmarkTData(b *testing.B) {
	d := map[string]any{"Amount": 7}
	for b.Loop() {
		_ = T(French, "dix_btn_bid_amount", d)
	}
}

func BenchmarkTDataGoI18n(b *testing.B) {
	d := map[string]any{"Amount": 7}
	for b.Loop() {
		_ = localizeI18n(French, "dix_btn_bid_amount", nil, d)
	}
}

// BenchmarkT is T of a message without data; BenchmarkTGoI18n the same
// message through go-i18n.
func BenchmarkT(b *testing.B) {
	for b.Loop() {
		_ = T(French, "dix_pic_market", nil)
	}
}

func BenchmarkTGoI18n(b *testing.B) {
	for b.Loop() {
		_ = localizeI18n(French, "dix_pic_market", nil, nil)
	}
}
