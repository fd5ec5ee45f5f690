package app

import (
	"testing"

	"github.com/caarlos0/env/v11"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPicturesSwitch: DIX_PICTURES is on by default, off turns the
// pictures off for the whole bot, and anything else is refused.
func TestPicturesSwitch(t *testing.T) {
	for _, tc := range []struct {
		value   string // "" leaves the variable unset
		off     bool
		wantErr bool
	}{
		{"", false, false},
		{"on", false, false},
		{"ON", false, false},
		{"off", true, false},
		{" Off ", true, false},
		{"false", true, false},
		{"maybe", false, true},
	} {
		t.Run(tc.value, func(t *testing.T) {
			vars := map[string]string{}
			if tc.value != "" {
				vars["DIX_PICTURES"] = tc.value
			}
			var parsed Config
			require.NoError(t, env.ParseWithOptions(&parsed, env.Options{Environment: vars}))
			cfg := testConfig(t)
			cfg.Pictures = parsed.Pictures
			cfg.Normalize()
			err := cfg.Validate()
			if tc.wantErr {
				require.ErrorIs(t, err, ErrConfig)
				assert.ErrorContains(t, err, "DIX_PICTURES")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.off, cfg.PicturesOff())
		})
	}
}
