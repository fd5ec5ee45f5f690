package present

import (
	"fmt"
	"time"

	"github.com/dixgame/dixbot/clock"
	"github.com/dixgame/dixbot/locales"
)

// PaceText describes pace p in lang: its name and its durations.
func PaceText(lang string, p clock.Pace) string {
	return locales.T(lang, "pace_"+p.Name, nil) + " " + locales.T(lang, "pace_times", map[string]any{
		"Bank": DurationText(lang, p.Bank), "Increment": DurationText(lang, p.Increment)})
}

// DurationText is a duration in lang, as set for a pace: "3 d 4 h",
// "2 h 05", "45 min", "1 min 40 s", "10 s" (never "115 s"; hours drop the
// seconds).
func DurationText(lang string, d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		days := d / (24 * time.Hour)
		h := (d - days*24*time.Hour) / time.Hour
		if h == 0 {
			return locales.T(lang, "dur_d", map[string]any{"D": int(days)})
		}
		return locales.T(lang, "dur_d_h", map[string]any{"D": int(days), "H": int(h)})
	case d >= time.Hour:
		h := d / time.Hour
		mins := (d - h*time.Hour) / time.Minute
		if mins == 0 {
			return locales.T(lang, "dur_h", map[string]any{"H": int(h)})
		}
		return locales.T(lang, "dur_h_m", map[string]any{"H": int(h), "M": fmt.Sprintf("%02d", int(mins))})
	case d >= time.Minute:
		mins := d / time.Minute
		if secs := (d - mins*time.Minute) / time.Second; secs > 0 {
			return locales.T(lang, "dur_m_s", map[string]any{"M": int(mins), "S": int(secs)})
		}
		return locales.T(lang, "dur_m", map[string]any{"M": int(mins)})
	}
	return locales.T(lang, "dur_s", map[string]any{"S": int(d / time.Second)})
}

// TimeLeftText is a time left in lang, compact and never more than there
// is: to the minute below ("2 h 40", "4 min"), "< 1 min" under a minute.
func TimeLeftText(lang string, d time.Duration) string {
	if d < time.Minute {
		return locales.T(lang, "dur_under_m", nil)
	}
	return DurationText(lang, d.Truncate(time.Minute))
}
