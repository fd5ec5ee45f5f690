package app

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValidatePacesAndShards(t *testing.T) {
	tests := []struct {
		name    string
		set     func(*Config)
		wantErr string
	}{
		{"paces in seconds", func(c *Config) { c.Paces = "live=2s+2s" }, ""},
		{"every pace", func(c *Config) { c.Paces = "live=5m+1m,evening=3h+20m,relaxed=24h+24h" }, ""},
		{"unknown pace", func(c *Config) { c.Paces = "blitz=1m+0s" }, "DIX_PACES"},
		{"no bank", func(c *Config) { c.Paces = "live=0s+1m" }, "DIX_PACES"},
		{"not a pace", func(c *Config) { c.Paces = "live" }, "DIX_PACES"},
		{"two shards", func(c *Config) { c.ShardID, c.ShardCount = 1, 2 }, ""},
		{"shard out of range", func(c *Config) { c.ShardID, c.ShardCount = 2, 2 }, "SHARD_ID"},
		{"negative shard", func(c *Config) { c.ShardID = -1 }, "SHARD_ID"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t)
			tc.set(&cfg)
			err := cfg.Validate()
			if tc.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrConfig)
			assert.ErrorContains(t, err, tc.wantErr)
		})
	}
}
