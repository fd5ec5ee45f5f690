package fakediscord

import "fmt"

// Channel permissions and threads.
//
// Each guild channel has the bot's computed permission bits, what Discord
// computes from roles and overwrites and sends as app_permissions
// ("Bitwise set of permissions the app has in the source location of the
// interaction",
// https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-structure).
// A thread inherits its parent's bits unless set on the thread itself
// ("Threads inherit permissions from the parent channel ... with one
// exception: The SEND_MESSAGES permission is not inherited; users must
// have SEND_MESSAGES_IN_THREADS to send a message in a thread",
// https://discord.com/developers/docs/topics/permissions#permissions-for-threads).
//
// Refusals, as Discord answers them
// (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json):
//   - no VIEW_CHANNEL (or a private thread the bot was not added to):
//     403 50001 Missing Access;
//   - creating a message without SEND_MESSAGES (SEND_MESSAGES_IN_THREADS
//     in a thread), with embeds without EMBED_LINKS, with files without
//     ATTACH_FILES, or replying without READ_MESSAGE_HISTORY
//     (https://discord.com/developers/docs/resources/message#create-message,
//     "Limitations"): 403 50013 Missing Permissions;
//   - writing in an archived thread: 400 50083 ("Tried to perform an
//     operation on an archived thread, such as editing a message").
//
// Interaction responses and follow-ups need no SEND_MESSAGES (they are the
// application's webhook), but since November 2023 they "follow a bot user's
// permissions" for what they carry
// (https://discord.com/developers/docs/change-log, "Fix Message Edit
// Interaction Response Permissions"): embeds need EMBED_LINKS and files
// ATTACH_FILES there too.

// ChannelSpec describes a guild text channel to create.
type ChannelSpec struct {
	Name string
	// BotPermissions are the bot's computed permissions in the channel
	// (app_permissions). Zero means BotPermissions (everything the bot
	// normally has).
	BotPermissions int64
}

// ThreadSpec describes a thread to create in a text channel.
type ThreadSpec struct {
	Name string
	// Private makes a private thread (type 12); default public (type 11).
	Private bool
	// BotNotAdded leaves the bot out of a private thread: it cannot see
	// it (50001), as on Discord where private threads are visible to
	// their members and moderators only.
	BotNotAdded bool
}

// AddChannel creates a text channel in a guild where the bot has its
// usual permissions.
func (s *Server) AddChannel(guildID, name string) (Channel, error) {
	return s.AddChannelSpec(guildID, ChannelSpec{Name: name})
}

// AddChannelSpec creates a text channel in a guild.
func (s *Server) AddChannelSpec(guildID string, spec ChannelSpec) (Channel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.guilds[guildID]; !ok {
		return Channel{}, fmt.Errorf("%w: %s", ErrUnknownGuild, guildID)
	}
	perms := spec.BotPermissions
	if perms == 0 {
		perms = BotPermissions
	}
	c := &Channel{ID: s.newID(), Type: ChannelGuildText, GuildID: guildID, Name: spec.Name, botPerms: perms}
	s.channels[c.ID] = c
	s.order = append(s.order, c.ID)
	s.dispatchGuildLocked(guildID, "CHANNEL_CREATE", s.channelJSON(c))
	s.notifyLocked()
	return *c, nil
}

// AddThread creates a thread in a guild text channel. Interactions from
// it carry the thread's id as channel_id.
func (s *Server) AddThread(parentID string, spec ThreadSpec) (Channel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	parent, ok := s.channels[parentID]
	if !ok || parent.Type != ChannelGuildText {
		return Channel{}, fmt.Errorf("%w: %s is not a guild text channel", ErrUnknownChannel, parentID)
	}
	typ := ChannelPublicThread
	if spec.Private {
		typ = ChannelPrivateThread
	}
	if spec.Name == "" {
		spec.Name = "thread"
	}
	c := &Channel{ID: s.newID(), Type: typ, GuildID: parent.GuildID, Name: spec.Name, ParentID: parent.ID,
		botAbsent: spec.Private && spec.BotNotAdded}
	s.channels[c.ID] = c
	s.order = append(s.order, c.ID)
	s.dispatchGuildLocked(c.GuildID, "THREAD_CREATE", s.channelJSON(c))
	s.notifyLocked()
	return *c, nil
}

// ArchiveThread archives (or unarchives) a thread. Writing in an archived
// thread is refused with 50083.
func (s *Server) ArchiveThread(threadID string, archived bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.channels[threadID]
	if !ok || !c.IsThread() {
		return fmt.Errorf("%w: %s is not a thread", ErrUnknownChannel, threadID)
	}
	c.Archived = archived
	s.dispatchGuildLocked(c.GuildID, "THREAD_UPDATE", s.channelJSON(c))
	s.notifyLocked()
	return nil
}

// SetBotPermissions sets the bot's computed permissions in a guild channel
// or thread (a thread then stops inheriting its parent's). Zero restores the
// default: BotPermissions for a channel, the parent's for a thread.
func (s *Server) SetBotPermissions(channelID string, perms int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.channels[channelID]
	if !ok || c.GuildID == "" {
		return fmt.Errorf("%w: %s is not a guild channel", ErrUnknownChannel, channelID)
	}
	if perms == 0 && !c.IsThread() {
		perms = BotPermissions
	}
	c.botPerms = perms
	s.notifyLocked()
	return nil
}

// BotPermissionsIn returns the bot's permissions in a channel, as sent in
// app_permissions.
func (s *Server) BotPermissionsIn(channelID string) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.channels[channelID]
	if !ok {
		return 0, fmt.Errorf("%w: %s", ErrUnknownChannel, channelID)
	}
	return s.botPermsLocked(c), nil
}

// dmAppPermissions is app_permissions in a DM with the bot: "includes
// ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE ... and additionally
// USE_EXTERNAL_EMOJIS for DMs with the app's bot user".
const dmAppPermissions = PermViewChannel | PermSendMessages | PermReadMessageHistory |
	PermAttachFiles | PermEmbedLinks | PermMentionEveryone | PermUseExternalEmojis

// botPermsLocked computes the bot's permissions in c.
func (s *Server) botPermsLocked(c *Channel) int64 {
	if c.GuildID == "" {
		return dmAppPermissions
	}
	p := c.botPerms
	if c.IsThread() {
		parent := s.channels[c.ParentID]
		if p == 0 && parent != nil {
			p = s.botPermsLocked(parent)
		}
		if c.botAbsent && p&(PermManageThreads|PermAdministrator) == 0 {
			p &^= PermViewChannel
		}
	}
	if p&PermAdministrator != 0 {
		return allPermissions
	}
	return p
}

// writeCheck says what a message write carries.
type writeCheck struct {
	create      bool // a new message (not an edit or a delete)
	embeds      bool
	files       bool
	reply       bool
	interaction bool // through an interaction token
}

// checkWriteLocked applies the permission and thread rules above.
func (s *Server) checkWriteLocked(c *Channel, w writeCheck) *apiError {
	if c.GuildID == "" {
		return nil
	}
	p := s.botPermsLocked(c)
	if !w.interaction && p&PermViewChannel == 0 {
		return errMissingAccess
	}
	if c.IsThread() && c.Archived {
		return errArchived
	}
	send := PermSendMessages
	if c.IsThread() {
		send = PermSendMessagesInThreads
	}
	switch {
	case w.create && !w.interaction && p&send == 0:
		return errMissingPerms
	case w.embeds && p&PermEmbedLinks == 0:
		return errMissingPerms
	case w.files && p&PermAttachFiles == 0:
		return errMissingPerms
	case w.reply && p&PermReadMessageHistory == 0:
		return errMissingPerms
	}
	return nil
}

// checkViewLocked refuses reading a channel the bot cannot see.
func (s *Server) checkViewLocked(c *Channel) *apiError {
	if c.GuildID != "" && s.botPermsLocked(c)&PermViewChannel == 0 {
		return errMissingAccess
	}
	return nil
}

// IsThread reports whether c is a thread.
func (c *Channel) IsThread() bool {
	return c.Type == ChannelPublicThread || c.Type == ChannelPrivateThread
}

func (s *Server) threadJSON(c *Channel, out map[string]any) {
	out["parent_id"] = c.ParentID
	out["thread_metadata"] = map[string]any{
		"archived": c.Archived, "auto_archive_duration": 1440, "archive_timestamp": timestamp(s.now()),
		"locked": false, "invitable": c.Type == ChannelPrivateThread,
	}
	out["owner_id"] = s.bot.ID
	out["message_count"] = len(s.chanMsgs[c.ID])
	out["member_count"] = 1
}
