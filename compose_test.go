package dixbot_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/store"
)

// composeFile is the part of docker-compose.yml the test reads.
type composeFile struct {
	Services map[string]struct {
		Command     []string          `yaml:"command"`
		Environment map[string]string `yaml:"environment"`
		Healthcheck struct {
			Test []string `yaml:"test"`
		} `yaml:"healthcheck"`
	} `yaml:"services"`
}

// composeVar is Compose's interpolation: ${NAME}, ${NAME:-default} and
// ${NAME:?error} (https://docs.docker.com/reference/compose-file/interpolation/).
var composeVar = regexp.MustCompile(`\$\{([A-Z_]+)(?::([-?])([^}]*))?\}`)

// interpolate expands s with vars as Compose does, and fails where a
// required variable is missing.
func interpolate(s string, vars map[string]string) (string, error) {
	var err error
	out := composeVar.ReplaceAllStringFunc(s, func(m string) string {
		p := composeVar.FindStringSubmatch(m)
		if v, ok := vars[p[1]]; ok && v != "" {
			return v
		}
		switch p[2] {
		case "-":
			return p[3]
		case "?":
			err = errors.Join(err, fmt.Errorf("%s: %s", p[1], p[3]))
		}
		return ""
	})
	return out, err
}

// The Redis of docker-compose.yml wants a password, which the bot's
// REDIS_URL and the health check give, and once full it refuses writes
// instead of evicting a game: run with the file's own arguments, a full
// server keeps every game and the store reports ErrUnavailable.
func TestComposeRedisHasAPasswordAndNeverEvicts(t *testing.T) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-server not found; CI=true requires it")
		}
		t.Skip("redis-server not found")
	}
	raw, err := os.ReadFile("docker-compose.yml")
	require.NoError(t, err)
	var cf composeFile
	require.NoError(t, yaml.Unmarshal(raw, &cf))
	rs, bot := cf.Services["redis"], cf.Services["bot"]

	const password = "0123456789abcdef0123456789abcdef"
	vars := map[string]string{"REDIS_PASSWORD": password, "REDIS_MAXMEMORY": "4mb"}
	var args []string
	for _, a := range rs.Command {
		_, err := interpolate(a, map[string]string{})
		if strings.Contains(a, "REDIS_PASSWORD") {
			assert.Error(t, err, "compose refuses to start without REDIS_PASSWORD: %s", a)
		}
		v, err := interpolate(a, vars)
		require.NoError(t, err)
		args = append(args, v)
	}
	require.NotEmpty(t, args)
	require.Equal(t, "redis-server", args[0])
	assert.Contains(t, strings.Join(args, " "), "--maxmemory-policy noeviction")
	assert.Contains(t, strings.Join(args, " "), "--requirepass "+password)

	u, err := interpolate(bot.Environment["REDIS_URL"], vars)
	require.NoError(t, err)
	pu, err := url.Parse(u)
	require.NoError(t, err)
	got, _ := pu.User.Password()
	assert.Equal(t, password, got, "the bot's REDIS_URL carries the password")
	auth, err := interpolate(rs.Environment["REDISCLI_AUTH"], vars)
	require.NoError(t, err)
	assert.Equal(t, password, auth, "the health check's redis-cli authenticates")
	assert.Contains(t, rs.Healthcheck.Test, "redis-cli")

	// The file's arguments, on a Unix socket in a temporary directory.
	dir := t.TempDir()
	sock := filepath.Join(dir, "redis.sock")
	cmd := exec.Command(bin, append(args[1:], "--port", "0", "--unixsocket", sock, "--dir", dir, "--save", "")...)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	anon := redis.NewClient(&redis.Options{Network: "unix", Addr: sock})
	defer anon.Close()
	for {
		err = anon.Ping(ctx).Err()
		if err == nil || strings.Contains(err.Error(), "NOAUTH") || ctx.Err() != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	require.Error(t, err)
	assert.Contains(t, err.Error(), "NOAUTH", "no access without the password")

	st, err := store.OpenRedis(ctx, store.Options{URL: "unix://:" + password + "@" + sock, Timeout: 5 * time.Second})
	require.NoError(t, err)
	defer st.Close()
	big := make([]byte, 64<<10)
	created := 0
	for i := range 1000 {
		err = st.Create(ctx, &dixbot.Record{Channel: fmt.Sprintf("c%d", i), Guild: "g", Meta: big})
		if err != nil {
			break
		}
		created++
	}
	require.Error(t, err, "4 MB fill up")
	assert.ErrorIs(t, err, dixbot.ErrUnavailable, "a full Redis is unavailable for writes")
	assert.Positive(t, created)
	list, err := st.Active(ctx, "g")
	require.NoError(t, err)
	assert.Len(t, list, created, "every game written is kept: nothing evicted")
	for i := range created {
		_, err := st.Get(ctx, fmt.Sprintf("c%d", i))
		require.NoError(t, err)
	}
}
