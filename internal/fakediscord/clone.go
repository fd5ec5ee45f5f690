package fakediscord

// Deep copies of what a stored message carries, the same values a round
// trip through JSON gives (cloneJSON; TestClonesAsJSON): a slice of the
// wire types that JSON omits when empty comes back nil, a top-level slice
// keeps being nil or not, and nothing is shared with the original.

func cloneEmbeds(in []Embed) []Embed {
	if in == nil {
		return nil
	}
	out := make([]Embed, len(in))
	for i, e := range in {
		e.Footer = clonePtr(e.Footer)
		e.Image = clonePtr(e.Image)
		e.Thumbnail = clonePtr(e.Thumbnail)
		e.Author = clonePtr(e.Author)
		e.Provider = clonePtr(e.Provider)
		e.Fields = cloneOmitted(e.Fields)
		out[i] = e
	}
	return out
}

func cloneComponents(in []Component) []Component {
	if in == nil {
		return nil
	}
	out := make([]Component, len(in))
	for i := range in {
		out[i] = cloneComponent(in[i])
	}
	return out
}

func cloneComponent(c Component) Component {
	c.Emoji = clonePtr(c.Emoji)
	if len(c.Options) == 0 {
		c.Options = nil
	} else {
		opts := make([]SelectOption, len(c.Options))
		for i, o := range c.Options {
			o.Emoji = clonePtr(o.Emoji)
			opts[i] = o
		}
		c.Options = opts
	}
	c.MinValues = clonePtr(c.MinValues)
	c.MaxValues = clonePtr(c.MaxValues)
	c.MinLength = clonePtr(c.MinLength)
	c.MaxLength = clonePtr(c.MaxLength)
	c.Required = clonePtr(c.Required)
	if len(c.Components) == 0 {
		c.Components = nil
	} else {
		c.Components = cloneComponents(c.Components)
	}
	c.ChannelTypes = cloneOmitted(c.ChannelTypes)
	c.DefaultValues = cloneOmitted(c.DefaultValues)
	return c
}

func cloneAllowedMentions(a AllowedMentions) AllowedMentions {
	if a.Parse != nil {
		a.Parse = append(make([]string, 0, len(a.Parse)), a.Parse...)
	}
	a.Users = cloneOmitted(a.Users)
	a.Roles = cloneOmitted(a.Roles)
	return a
}

// clonePtr copies what p points to (of a type holding no pointer).
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// cloneOmitted copies a slice of values holding no pointer that JSON
// omits when empty.
func cloneOmitted[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}
