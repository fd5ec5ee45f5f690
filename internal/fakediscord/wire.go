package fakediscord

import (
	"encoding/json"
	"time"
)

// The types in this file follow the JSON shapes of Discord's API v9/v10.

// User is a Discord user as the API shows it.
type User struct {
	ID            string `json:"id"`
	Username      string `json:"username"`
	GlobalName    string `json:"global_name,omitempty"`
	Discriminator string `json:"discriminator"`
	Avatar        string `json:"avatar,omitempty"`
	Bot           bool   `json:"bot,omitempty"`
	// Locale is the user's client language (e.g. "en-US", "fr"); it is
	// sent as the interaction's locale, not in user objects.
	Locale string `json:"-"`
}

// Guild is a server.
type Guild struct {
	ID              string `json:"id"`
	Name            string `json:"name"`
	PreferredLocale string `json:"preferred_locale"`
	// Community is set for Community servers.
	Community bool `json:"-"`
}

// Channel is a guild text channel, a thread or a DM channel.
type Channel struct {
	ID      string `json:"id"`
	Type    int    `json:"type"` // 0 guild text, 1 DM, 11 public thread, 12 private thread
	GuildID string `json:"guild_id,omitempty"`
	Name    string `json:"name,omitempty"`
	// ParentID is a thread's channel.
	ParentID string `json:"parent_id,omitempty"`
	// Archived is set for an archived thread.
	Archived bool `json:"-"`
	// Recipient is the user of a DM channel.
	Recipient string `json:"-"`

	botPerms  int64 // the bot's permissions; 0 in a thread: the parent's
	botAbsent bool  // a private thread the bot was not added to
}

// Channel types.
// https://discord.com/developers/docs/resources/channel#channel-object-channel-types
const (
	ChannelGuildText     = 0
	ChannelDM            = 1
	ChannelPublicThread  = 11
	ChannelPrivateThread = 12
)

// Component is any message or modal component (action row, button, select
// menu, text input), with the union of their fields.
type Component struct {
	Type          int            `json:"type"`
	CustomID      string         `json:"custom_id,omitempty"`
	Style         int            `json:"style,omitempty"`
	Label         string         `json:"label,omitempty"`
	Emoji         *Emoji         `json:"emoji,omitempty"`
	URL           string         `json:"url,omitempty"`
	Disabled      bool           `json:"disabled,omitempty"`
	Options       []SelectOption `json:"options,omitempty"`
	Placeholder   string         `json:"placeholder,omitempty"`
	MinValues     *int           `json:"min_values,omitempty"`
	MaxValues     *int           `json:"max_values,omitempty"`
	Components    []Component    `json:"components,omitempty"`
	Value         string         `json:"value,omitempty"`
	MinLength     *int           `json:"min_length,omitempty"`
	MaxLength     *int           `json:"max_length,omitempty"`
	Required      *bool          `json:"required,omitempty"`
	SKUID         string         `json:"sku_id,omitempty"`
	ID            int            `json:"id,omitempty"`
	ChannelTypes  []int          `json:"channel_types,omitempty"`
	DefaultValues []struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	} `json:"default_values,omitempty"`
}

// Component types.
const (
	ComponentActionRow     = 1
	ComponentButton        = 2
	ComponentStringSelect  = 3
	ComponentTextInput     = 4
	ComponentUserSelect    = 5
	ComponentRoleSelect    = 6
	ComponentMentionSelect = 7
	ComponentChannelSelect = 8
)

// Button styles.
const (
	ButtonPrimary   = 1
	ButtonSecondary = 2
	ButtonSuccess   = 3
	ButtonDanger    = 4
	ButtonLink      = 5
	ButtonPremium   = 6
)

// Emoji is a partial emoji on a button or select option.
type Emoji struct {
	ID       string `json:"id,omitempty"`
	Name     string `json:"name,omitempty"`
	Animated bool   `json:"animated,omitempty"`
}

// SelectOption is one choice of a string select menu.
type SelectOption struct {
	Label       string `json:"label"`
	Value       string `json:"value"`
	Description string `json:"description,omitempty"`
	Emoji       *Emoji `json:"emoji,omitempty"`
	Default     bool   `json:"default,omitempty"`
}

// Embed is a rich embed.
type Embed struct {
	Type        string         `json:"type,omitempty"`
	Title       string         `json:"title,omitempty"`
	Description string         `json:"description,omitempty"`
	URL         string         `json:"url,omitempty"`
	Timestamp   string         `json:"timestamp,omitempty"`
	Color       int            `json:"color,omitempty"`
	Footer      *EmbedFooter   `json:"footer,omitempty"`
	Image       *EmbedMedia    `json:"image,omitempty"`
	Thumbnail   *EmbedMedia    `json:"thumbnail,omitempty"`
	Author      *EmbedAuthor   `json:"author,omitempty"`
	Fields      []EmbedField   `json:"fields,omitempty"`
	Provider    *EmbedProvider `json:"provider,omitempty"`
}

// EmbedFooter is an embed's footer.
type EmbedFooter struct {
	Text    string `json:"text"`
	IconURL string `json:"icon_url,omitempty"`
}

// EmbedMedia is an embed image or thumbnail.
type EmbedMedia struct {
	URL    string `json:"url"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
}

// EmbedAuthor is an embed's author line.
type EmbedAuthor struct {
	Name    string `json:"name"`
	URL     string `json:"url,omitempty"`
	IconURL string `json:"icon_url,omitempty"`
}

// EmbedProvider is an embed's provider.
type EmbedProvider struct {
	Name string `json:"name,omitempty"`
	URL  string `json:"url,omitempty"`
}

// EmbedField is one field of an embed.
type EmbedField struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Inline bool   `json:"inline,omitempty"`
}

// AllowedMentions restricts which mentions in content notify.
type AllowedMentions struct {
	Parse       []string `json:"parse"`
	Users       []string `json:"users,omitempty"`
	Roles       []string `json:"roles,omitempty"`
	RepliedUser bool     `json:"replied_user,omitempty"`
}

// MessageReference points at the message a reply answers.
type MessageReference struct {
	MessageID string `json:"message_id,omitempty"`
	ChannelID string `json:"channel_id,omitempty"`
	GuildID   string `json:"guild_id,omitempty"`
}

// Message flags.
const (
	FlagSuppressEmbeds        = 1 << 2
	FlagEphemeral             = 1 << 6
	FlagLoading               = 1 << 7
	FlagSuppressNotifications = 1 << 12
	FlagComponentsV2          = 1 << 15
)

// Message types.
const (
	MessageDefault            = 0
	MessageReply              = 19
	MessageChatInputCommand   = 20
	MessageContextMenuCommand = 23
)

// messageJSON is a message object as the API returns it.
type messageJSON struct {
	ID               string              `json:"id"`
	Type             int                 `json:"type"`
	ChannelID        string              `json:"channel_id"`
	GuildID          string              `json:"guild_id,omitempty"`
	Author           User                `json:"author"`
	Content          string              `json:"content"`
	Timestamp        string              `json:"timestamp"`
	EditedTimestamp  *string             `json:"edited_timestamp"`
	TTS              bool                `json:"tts"`
	MentionEveryone  bool                `json:"mention_everyone"`
	Mentions         []User              `json:"mentions"`
	MentionRoles     []string            `json:"mention_roles"`
	Attachments      []Attachment        `json:"attachments"`
	Embeds           []Embed             `json:"embeds"`
	Components       []Component         `json:"components"`
	Pinned           bool                `json:"pinned"`
	Flags            int                 `json:"flags"`
	WebhookID        string              `json:"webhook_id,omitempty"`
	Nonce            string              `json:"nonce,omitempty"`
	ApplicationID    string              `json:"application_id,omitempty"`
	MessageReference *MessageReference   `json:"message_reference,omitempty"`
	Interaction      *messageInteraction `json:"interaction,omitempty"`
	InteractionMeta  *interactionMeta    `json:"interaction_metadata,omitempty"`
}

type messageInteraction struct {
	ID   string `json:"id"`
	Type int    `json:"type"`
	Name string `json:"name"`
	User User   `json:"user"`
}

type interactionMeta struct {
	ID   string `json:"id"`
	Type int    `json:"type"`
	User User   `json:"user"`
}

// messagePayload is the body of message create/edit requests and of
// interaction callback data. Pointer fields tell "absent" from "empty".
type messagePayload struct {
	Content          *string            `json:"content"`
	TTS              bool               `json:"tts"`
	Embeds           *[]Embed           `json:"embeds"`
	Embed            *Embed             `json:"embed"`
	Components       *[]Component       `json:"components"`
	AllowedMentions  *AllowedMentions   `json:"allowed_mentions"`
	Flags            *int               `json:"flags"`
	MessageReference *MessageReference  `json:"message_reference"`
	Attachments      *[]json.RawMessage `json:"attachments"`
	// Nonce (a string or an integer, at most 25 characters) with
	// EnforceNonce makes a channel message idempotent (see
	// createChannelMessage).
	Nonce        json.RawMessage `json:"nonce"`
	EnforceNonce bool            `json:"enforce_nonce"`
	// Modal fields (callback type 9).
	CustomID string `json:"custom_id"`
	Title    string `json:"title"`
	// Autocomplete (type 8).
	Choices []json.RawMessage `json:"choices"`

	// atts is the message's attachments after this request, when the
	// request may change them (set by the handler).
	atts *[]Attachment
}

// Interaction types.
const (
	InteractionPing               = 1
	InteractionApplicationCommand = 2
	InteractionMessageComponent   = 3
	InteractionAutocomplete       = 4
	InteractionModalSubmit        = 5
)

// Interaction callback types.
const (
	CallbackPong                   = 1
	CallbackChannelMessage         = 4
	CallbackDeferredChannelMessage = 5
	CallbackDeferredUpdateMessage  = 6
	CallbackUpdateMessage          = 7
	CallbackAutocompleteResult     = 8
	CallbackModal                  = 9
)

// Permission bits used by the fake.
const (
	PermCreateInstantInvite   int64 = 1 << 0
	PermAdministrator         int64 = 1 << 3
	PermManageChannels        int64 = 1 << 4
	PermManageGuild           int64 = 1 << 5
	PermAddReactions          int64 = 1 << 6
	PermViewChannel           int64 = 1 << 10
	PermSendMessages          int64 = 1 << 11
	PermManageMessages        int64 = 1 << 13
	PermEmbedLinks            int64 = 1 << 14
	PermReadMessageHistory    int64 = 1 << 16
	PermMentionEveryone       int64 = 1 << 17
	PermUseExternalEmojis     int64 = 1 << 18
	PermAttachFiles           int64 = 1 << 15
	PermUseApplicationCmds    int64 = 1 << 31
	PermManageThreads         int64 = 1 << 34
	PermCreatePublicThreads   int64 = 1 << 35
	PermSendMessagesInThreads int64 = 1 << 38

	// DefaultPermissions is what a plain member of a fake guild may do.
	DefaultPermissions = PermCreateInstantInvite | PermAddReactions | PermViewChannel |
		PermSendMessages | PermEmbedLinks | PermAttachFiles | PermReadMessageHistory |
		PermUseExternalEmojis | PermUseApplicationCmds | PermSendMessagesInThreads | PermCreatePublicThreads
	// BotPermissions is what the bot may do in a channel unless a test says
	// otherwise (ChannelSpec, SetBotPermissions); sent as app_permissions.
	BotPermissions = DefaultPermissions | PermManageMessages | PermMentionEveryone

	allPermissions int64 = 1<<51 - 1
)

// Command option types.
const (
	OptionSubCommand      = 1
	OptionSubCommandGroup = 2
	OptionString          = 3
	OptionInteger         = 4
	OptionBoolean         = 5
	OptionUser            = 6
	OptionChannel         = 7
	OptionRole            = 8
	OptionMentionable     = 9
	OptionNumber          = 10
	OptionAttachment      = 11
)

// Command is a registered application command.
type Command struct {
	ID                       string            `json:"id"`
	ApplicationID            string            `json:"application_id"`
	GuildID                  string            `json:"guild_id,omitempty"`
	Type                     int               `json:"type"`
	Name                     string            `json:"name"`
	NameLocalizations        map[string]string `json:"name_localizations,omitempty"`
	Description              string            `json:"description"`
	DescriptionLocalizations map[string]string `json:"description_localizations,omitempty"`
	Options                  []CommandOption   `json:"options,omitempty"`
	DefaultMemberPermissions *string           `json:"default_member_permissions"`
	DMPermission             *bool             `json:"dm_permission,omitempty"`
	Contexts                 []int             `json:"contexts,omitempty"`
	IntegrationTypes         []int             `json:"integration_types,omitempty"`
	NSFW                     bool              `json:"nsfw,omitempty"`
	Version                  string            `json:"version"`
}

// CommandOption is an option (or subcommand) of a command.
type CommandOption struct {
	Type                     int               `json:"type"`
	Name                     string            `json:"name"`
	NameLocalizations        map[string]string `json:"name_localizations,omitempty"`
	Description              string            `json:"description"`
	DescriptionLocalizations map[string]string `json:"description_localizations,omitempty"`
	Required                 bool              `json:"required,omitempty"`
	Choices                  []CommandChoice   `json:"choices,omitempty"`
	Options                  []CommandOption   `json:"options,omitempty"`
	ChannelTypes             []int             `json:"channel_types,omitempty"`
	MinValue                 *float64          `json:"min_value,omitempty"`
	MaxValue                 *float64          `json:"max_value,omitempty"`
	MinLength                *int              `json:"min_length,omitempty"`
	MaxLength                *int              `json:"max_length,omitempty"`
	Autocomplete             bool              `json:"autocomplete,omitempty"`
}

// CommandChoice is a fixed choice of an option.
type CommandChoice struct {
	Name              string            `json:"name"`
	NameLocalizations map[string]string `json:"name_localizations,omitempty"`
	Value             any               `json:"value"`
}

// interactionOption is an option value sent in an interaction.
// Subcommands and groups carry options and no value; other options carry
// a value, even false or 0.
type interactionOption struct {
	Name    string              `json:"name"`
	Type    int                 `json:"type"`
	Value   any                 `json:"value"`
	Options []interactionOption `json:"options,omitempty"`
}

// MarshalJSON leaves "value" out of subcommands and groups, as Discord does.
func (o interactionOption) MarshalJSON() ([]byte, error) {
	if o.Type == OptionSubCommand || o.Type == OptionSubCommandGroup {
		return json.Marshal(struct {
			Name    string              `json:"name"`
			Type    int                 `json:"type"`
			Options []interactionOption `json:"options"`
		}{o.Name, o.Type, o.Options})
	}
	type plain interactionOption
	return json.Marshal(plain(o))
}

func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000+00:00") }
