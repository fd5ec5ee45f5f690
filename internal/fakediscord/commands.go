package fakediscord

import (
	"net/http"
	"strconv"
)

// commandListLocked returns the command list a route addresses.
func (s *Server) commandListLocked(r *http.Request) (*[]*Command, string, *apiError) {
	// Commands belong to the application: under the bot user's id (which
	// need not equal the application's) Discord answers 404 10002 Unknown
	// Application; under another application's id, 403 50001 Missing Access.
	// https://discord.com/developers/docs/interactions/application-commands#registering-a-command
	// ("/applications/{application.id}/commands"), error codes at
	// https://discord.com/developers/docs/topics/opcodes-and-status-codes#json.
	switch app := r.PathValue("app"); {
	case app == s.opts.ApplicationID:
	case app == s.bot.ID:
		return nil, "", errUnknownApp
	default:
		return nil, "", errMissingAccess
	}
	gid := r.PathValue("guild")
	if gid == "" {
		return &s.globalCmds, "", nil
	}
	if _, ok := s.guilds[gid]; !ok {
		return nil, "", errUnknownGuild
	}
	l := append([]*Command(nil), s.guildCmds[gid]...)
	return &l, gid, nil
}

// commitList stores a possibly modified list back.
func (s *Server) commitListLocked(gid string, l *[]*Command) {
	if gid == "" {
		s.globalCmds = *l
	} else {
		s.guildCmds[gid] = *l
	}
	s.notifyLocked()
}

func (s *Server) prepareCommandLocked(c *Command, gid string, existing *Command) {
	if existing != nil {
		c.ID = existing.ID
		v, _ := strconv.ParseInt(existing.Version, 10, 64)
		c.Version = strconv.FormatInt(v+1, 10)
	} else {
		c.ID = s.newID()
		c.Version = s.newID()
	}
	c.ApplicationID = s.opts.ApplicationID
	c.GuildID = gid
}

func (s *Server) listCommands(_ http.ResponseWriter, r *http.Request, _ []byte) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, _, e := s.commandListLocked(r)
	if e != nil {
		return 0, nil, e
	}
	out := []*Command{}
	return http.StatusOK, append(out, *l...), nil
}

func (s *Server) overwriteCommands(_ http.ResponseWriter, r *http.Request, body []byte) (int, any, *apiError) {
	var cmds []*Command
	if e := decode(r, body, &cmds); e != nil {
		return 0, nil, e
	}
	var fe formErrors
	names := map[[2]any]bool{}
	for i, c := range cmds {
		if c == nil {
			fe.add(join("", i), "BASE_TYPE_REQUIRED", "This field is required")
			continue
		}
		fe = append(fe, validateCommand(join("", i), c)...)
		k := [2]any{c.Type, c.Name}
		if names[k] {
			fe.add(join("", i, "name"), "APPLICATION_COMMAND_ALREADY_EXISTS", "Application command names must be unique")
		}
		names[k] = true
	}
	if len(cmds) > 100 {
		fe.add("", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
	}
	if len(fe) > 0 {
		return 0, nil, invalidForm(fe)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l, gid, e := s.commandListLocked(r)
	if e != nil {
		return 0, nil, e
	}
	old := map[[2]any]*Command{}
	for _, c := range *l {
		old[[2]any{c.Type, c.Name}] = c
	}
	for _, c := range cmds {
		s.prepareCommandLocked(c, gid, old[[2]any{c.Type, c.Name}])
	}
	s.flagDeprecatedLocked(r, cmds...)
	*l = cmds
	s.commitListLocked(gid, l)
	return http.StatusOK, cmds, nil
}

func (s *Server) createCommand(_ http.ResponseWriter, r *http.Request, body []byte) (int, any, *apiError) {
	var c Command
	if e := decode(r, body, &c); e != nil {
		return 0, nil, e
	}
	if fe := validateCommand("", &c); len(fe) > 0 {
		return 0, nil, invalidForm(fe)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l, gid, e := s.commandListLocked(r)
	if e != nil {
		return 0, nil, e
	}
	s.flagDeprecatedLocked(r, &c)
	status := http.StatusCreated
	for i, old := range *l {
		if old.Name == c.Name && old.Type == c.Type {
			s.prepareCommandLocked(&c, gid, old)
			(*l)[i] = &c
			s.commitListLocked(gid, l)
			return http.StatusOK, &c, nil
		}
	}
	s.prepareCommandLocked(&c, gid, nil)
	*l = append(*l, &c)
	s.commitListLocked(gid, l)
	return status, &c, nil
}

func (s *Server) findCommandLocked(r *http.Request) (*[]*Command, string, int, *apiError) {
	l, gid, e := s.commandListLocked(r)
	if e != nil {
		return nil, "", 0, e
	}
	for i, c := range *l {
		if c.ID == r.PathValue("cmd") {
			return l, gid, i, nil
		}
	}
	return nil, "", 0, errUnknownCommand
}

func (s *Server) getCommand(_ http.ResponseWriter, r *http.Request, _ []byte) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, _, i, e := s.findCommandLocked(r)
	if e != nil {
		return 0, nil, e
	}
	return http.StatusOK, (*l)[i], nil
}

func (s *Server) editCommand(_ http.ResponseWriter, r *http.Request, body []byte) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, gid, i, e := s.findCommandLocked(r)
	if e != nil {
		return 0, nil, e
	}
	c := cloneJSON(*(*l)[i])
	if e := decode(r, body, &c); e != nil {
		return 0, nil, e
	}
	if fe := validateCommand("", &c); len(fe) > 0 {
		return 0, nil, invalidForm(fe)
	}
	s.flagDeprecatedLocked(r, &c)
	s.prepareCommandLocked(&c, gid, (*l)[i])
	(*l)[i] = &c
	s.commitListLocked(gid, l)
	return http.StatusOK, &c, nil
}

func (s *Server) deleteCommand(_ http.ResponseWriter, r *http.Request, _ []byte) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, gid, i, e := s.findCommandLocked(r)
	if e != nil {
		return 0, nil, e
	}
	*l = append((*l)[:i:i], (*l)[i+1:]...)
	s.commitListLocked(gid, l)
	return http.StatusNoContent, nil, nil
}

// flagDeprecatedLocked records a violation for each command registered
// with dm_permission: Discord still takes it but documents it as
// deprecated in favour of contexts, and ignores it when contexts is
// given
// (https://discord.com/developers/docs/interactions/application-commands#application-command-object).
func (s *Server) flagDeprecatedLocked(r *http.Request, cmds ...*Command) {
	for _, c := range cmds {
		if c != nil && c.DMPermission != nil {
			s.violateLocked(&Violation{Method: r.Method, Path: r.URL.Path, Status: http.StatusOK,
				Message: "/" + c.Name + ": dm_permission is deprecated, use contexts"})
		}
	}
}
