// Package discordapi points discordgo at a Discord API base URL, sends
// the bot's requests within Discord's rate limits without ever sleeping on
// them (ratelimit.go), and is the REST API the table asks of Discord
// (API, session.go): answers and follow-ups with the interaction's token,
// messages with the bot's.
//
// Production uses Discord itself (the default); development and end-to-end
// tests point the bot at a local stand-in (internal/fakediscord) or a REST
// proxy. It decodes what Discord sends into discordgo's types in one pass
// (decode.go). It depends only on discordgo and segmentio's JSON decoder,
// and must never depend on the bot.
package discordapi

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// DefaultBaseURL is Discord's own base URL, the one discordgo starts with.
const DefaultBaseURL = "https://discord.com/"

// ErrInvalidBaseURL is returned by SetBaseURL for a base that is not an
// absolute http or https URL without query or fragment.
var ErrInvalidBaseURL = errors.New("discordapi: invalid base url")

var mu sync.Mutex

// SetBaseURL re-points every discordgo Endpoint string variable derived from
// EndpointDiscord and EndpointAPI at base (for example
// "http://127.0.0.1:8765/"), so REST calls go to base + "api/v9/...". The
// Endpoint functions of discordgo v0.28.1 read these variables when called,
// so they follow too. An empty base restores DefaultBaseURL.
//
// SetBaseURL is idempotent and safe for concurrent use with itself. Setting
// the base discordgo already uses writes nothing, so bots of one process
// that share a base may start while others run; any other base writes
// package variables of discordgo: call it before creating sessions, not
// while requests are in flight. It returns ErrInvalidBaseURL (wrapped)
// and changes nothing when base is not usable.
func SetBaseURL(base string) error {
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("%w: %q: %v", ErrInvalidBaseURL, base, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("%w: %q", ErrInvalidBaseURL, base)
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}

	mu.Lock()
	defer mu.Unlock()
	if discordgo.EndpointDiscord == base {
		return nil
	}

	api := base + "api/v" + discordgo.APIVersion + "/"
	discordgo.EndpointDiscord = base
	discordgo.EndpointAPI = api
	discordgo.EndpointGuilds = api + "guilds/"
	discordgo.EndpointChannels = api + "channels/"
	discordgo.EndpointUsers = api + "users/"
	discordgo.EndpointGateway = api + "gateway"
	discordgo.EndpointGatewayBot = discordgo.EndpointGateway + "/bot"
	discordgo.EndpointWebhooks = api + "webhooks/"
	discordgo.EndpointStickers = api + "stickers/"
	discordgo.EndpointStageInstances = api + "stage-instances"
	discordgo.EndpointVoice = api + "/voice/"
	discordgo.EndpointVoiceRegions = discordgo.EndpointVoice + "regions"
	discordgo.EndpointNitroStickersPacks = api + "/sticker-packs"
	discordgo.EndpointGuildCreate = api + "guilds"
	discordgo.EndpointApplications = api + "applications"
	discordgo.EndpointOAuth2 = api + "oauth2/"
	discordgo.EndpointOAuth2Applications = discordgo.EndpointOAuth2 + "applications"
	discordgo.EndpointOauth2 = discordgo.EndpointOAuth2
	discordgo.EndpointOauth2Applications = discordgo.EndpointOAuth2Applications
	return nil
}

// BaseURL returns the base URL discordgo currently uses.
func BaseURL() string {
	mu.Lock()
	defer mu.Unlock()
	return discordgo.EndpointDiscord
}
