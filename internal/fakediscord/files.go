package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif"  // attachment sizes
	_ "image/jpeg" // attachment sizes
	_ "image/png"  // attachment sizes
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// File uploads, as documented in
// https://discord.com/developers/docs/reference#uploading-files:
// a multipart/form-data body with the JSON in "payload_json" and files in
// "files[n]" parts, each with a filename; "attachments" in the JSON lists
// the files (new ones by their n) and, on an edit, the existing
// attachments to keep ("Any previously-added files that aren't included
// will be removed"); embeds reference uploaded images as
// "attachment://filename". Limits: "The default limit is 10 MiB" per file
// (answered 413 40005), "The maximum request size when sending a message is
// 25 MiB" (40005), and 10 attachments per message (30015 "Maximum number of
// attachments in a message reached (10)",
// https://discord.com/developers/docs/topics/opcodes-and-status-codes#json).
const (
	maxFileSize    = 10 << 20
	maxAttachments = 10
)

// An empty upload: the files[n] part of a request carries "the file
// contents" (https://discord.com/developers/docs/reference#uploading-files),
// and Discord documents no refusal of a part that carries none: it stores
// a file of 0 bytes, and the embed that shows it as attachment://name shows
// nothing. No bot means that (it comes from sending a reader an earlier
// request already read to its end), so the stand-in takes such a request
// as Discord does and records a Violation, which fails every test that
// checks for none.
const msgEmptyUpload = "empty file upload: a files[n] part of 0 bytes"

// An edit that uploads files without an "attachments" list: Discord
// keeps every file the message had beside the new ones (the list is "the
// attachments to keep", and an edit without it leaves the message's
// attachments as they are:
// https://discord.com/developers/docs/resources/webhook#edit-webhook-message,
// https://discord.com/developers/docs/reference#editing-message-attachments),
// so a picture replaced that way stays shown under the new one, or as a
// loose file. The stand-in keeps them as Discord does and records a
// Violation: every edit that uploads a file says which files stay.
const msgFilesKept = "edit uploads files without an attachments list: the message's old files stay"

// uploadNotes collects what one request uploads that Discord takes but
// no bot means (msgEmptyUpload, msgFilesKept); apiHandler puts one in the
// request's context.
type uploadNotes struct {
	empty []string
	kept  []string // edits whose files came without an attachments list
}

// noteKeptFiles notes in r's notes an edit of message that uploads files
// without saying which files stay (msgFilesKept).
func noteKeptFiles(r *http.Request, message string, p *messagePayload, files []upload) {
	if len(files) == 0 || p.Attachments != nil {
		return
	}
	if notes, ok := r.Context().Value(uploadNotesKey{}).(*uploadNotes); ok {
		notes.kept = append(notes.kept, fmt.Sprintf("message %s: %d file(s) added, no attachments list", message, len(files)))
	}
}

type uploadNotesKey struct{}

// emptyUploads names the files of no bytes among files ("" when none).
func emptyUploads(files []upload) string {
	var names []string
	for _, f := range files {
		if len(f.data) == 0 {
			names = append(names, "files["+f.index+"] ("+f.filename+")")
		}
	}
	return strings.Join(names, ", ")
}

var (
	errFileTooLarge    = &apiError{http.StatusRequestEntityTooLarge, 40005, "Request entity too large", nil, nil, false}
	errTooManyAttached = &apiError{http.StatusBadRequest, 30015, "Maximum number of attachments in a message reached (10)", nil, nil, false}
)

// Attachment is a file attached to a message, as the API shows it. URL is
// served by the stand-in.
type Attachment struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	Description string `json:"description,omitempty"`
	ContentType string `json:"content_type,omitempty"`
	Size        int    `json:"size"`
	URL         string `json:"url"`
	ProxyURL    string `json:"proxy_url"`
	Width       int    `json:"width,omitempty"`
	Height      int    `json:"height,omitempty"`
}

// upload is one files[n] part of a request.
type upload struct {
	index       string
	filename    string
	contentType string
	data        []byte
}

type storedFile struct {
	att  Attachment
	data []byte
}

var filesPart = regexp.MustCompile(`^files\[(\d+)\]$`)

// decodeWithFiles unmarshals a JSON body, or the payload_json part of a
// multipart body, and returns the uploaded files.
func decodeWithFiles(r *http.Request, body []byte, v any) ([]upload, *apiError) {
	var files []upload
	if mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err == nil && strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		// Each part is read into scratch, which no part outgrows, and
		// copied out at its size.
		scratch := bytes.NewBuffer(make([]byte, 0, len(body)+bytes.MinRead))
		body = nil
		seen := map[string]bool{}
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, invalidForm(formErrors{{path: "files", code: "BASE_TYPE_BAD_MULTIPART", msg: err.Error()}})
			}
			name := part.FormName()
			scratch.Reset()
			_, _ = scratch.ReadFrom(part)
			data := bytes.Clone(scratch.Bytes())
			switch {
			case name == "payload_json":
				body = data
			case filesPart.MatchString(name):
				n := filesPart.FindStringSubmatch(name)[1]
				if seen[n] || part.FileName() == "" {
					return nil, invalidForm(formErrors{{path: name, code: "BASE_TYPE_REQUIRED", msg: "Each file needs a unique files[n] name and a filename."}})
				}
				seen[n] = true
				if len(data) > maxFileSize {
					return nil, errFileTooLarge
				}
				files = append(files, upload{index: n, filename: path.Base(part.FileName()), contentType: part.Header.Get("Content-Type"), data: data})
			}
		}
		if notes, ok := r.Context().Value(uploadNotesKey{}).(*uploadNotes); ok {
			if empty := emptyUploads(files); empty != "" {
				notes.empty = append(notes.empty, empty)
			}
		}
	}
	if len(bytes.TrimSpace(body)) == 0 {
		if len(files) > 0 {
			return files, nil
		}
		return nil, badJSON(io.ErrUnexpectedEOF)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return nil, badJSON(err)
	}
	return files, nil
}

// attachmentRef is one entry of the payload's "attachments" array.
type attachmentRef struct {
	ID          any    `json:"id"`
	Filename    string `json:"filename"`
	Description string `json:"description"`
}

func (a attachmentRef) id() string {
	switch v := a.ID.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatInt(int64(v), 10)
	}
	return ""
}

// attachLocked computes a message's attachments after a create (existing
// nil) or an edit, stores the new files and resolves attachment:// URLs in
// the embeds the message will show. earlier are the edited message's
// earlier versions (nil for a create).
func (s *Server) attachLocked(channelID string, existing []Attachment, earlier []Revision, p *messagePayload, files []upload) ([]Attachment, *apiError) {
	var refs []attachmentRef
	if p.Attachments != nil {
		for _, raw := range *p.Attachments {
			var a attachmentRef
			_ = json.Unmarshal(raw, &a)
			refs = append(refs, a)
		}
	}
	// Each entry names a file of the message being edited or a file of the
	// request by its placeholder (its n in files[n]): "The attachments
	// JSON parameter includes all files that will be appended to the
	// message, including new files and their respective snowflake
	// placeholders"
	// (https://discord.com/developers/docs/reference#editing-message-attachments).
	// The stand-in refuses an id that is neither, so that a request naming
	// a file the message no longer has fails here instead of passing
	// unnoticed.
	//
	// An id the message held in an earlier version is refused the same
	// way, but is no breach of the rules: the request was right when it
	// was made, and an edit by another request (another replica of the
	// bot, or its own due work) replaced the file since. A bot can only
	// learn of it from this refusal and send the file again.
	var fe formErrors
	replaced := true
	for i, ref := range refs {
		known := slices.ContainsFunc(existing, func(a Attachment) bool { return a.ID == ref.id() }) ||
			slices.ContainsFunc(files, func(f upload) bool { return f.index == ref.id() })
		if !known {
			fe.add(fmt.Sprintf("attachments.%d.id", i), "ATTACHMENT_NOT_FOUND", fmt.Sprintf("Unknown attachment %q: neither a file of the message nor a files[n] of the request.", ref.id()))
			replaced = replaced && slices.ContainsFunc(earlier, func(v Revision) bool {
				return slices.ContainsFunc(v.Attachments, func(a Attachment) bool { return a.ID == ref.id() })
			})
		}
	}
	if len(fe) > 0 {
		e := invalidForm(fe)
		e.raced = replaced
		return nil, e
	}
	var out []Attachment
	if p.Attachments == nil {
		out = append(out, existing...)
	} else {
		for _, old := range existing {
			for _, ref := range refs {
				if ref.id() == old.ID {
					if ref.Description != "" {
						old.Description = ref.Description
					}
					out = append(out, old)
				}
			}
		}
	}
	for _, f := range files {
		att := Attachment{ID: s.newID(), Filename: f.filename, Size: len(f.data), ContentType: f.contentType}
		for _, ref := range refs {
			if ref.id() == f.index {
				if ref.Filename != "" {
					att.Filename = path.Base(ref.Filename)
				}
				att.Description = ref.Description
			}
		}
		if att.ContentType == "" || att.ContentType == "application/octet-stream" {
			att.ContentType = http.DetectContentType(f.data)
		}
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(f.data)); err == nil {
			att.Width, att.Height = cfg.Width, cfg.Height
		}
		att.URL = s.baseURL + "attachments/" + channelID + "/" + att.ID + "/" + url.PathEscape(att.Filename)
		att.ProxyURL = att.URL
		stored := &storedFile{att: att, data: f.data}
		if s.opts.DropFileData {
			stored.data = nil
		}
		s.files[att.ID] = stored
		s.stats.Uploads++
		s.stats.UploadedBytes += int64(len(f.data))
		out = append(out, att)
	}
	if len(out) > maxAttachments {
		return nil, errTooManyAttached
	}
	return out, nil
}

// embeddedFiles returns the ids of the files among atts that embeds, as a
// request sets them, show by reference: an image, thumbnail, author or
// footer icon whose URL is "attachment://" and the file's name ("Using
// Attachments within Embeds",
// https://discord.com/developers/docs/reference#uploading-files). Discord
// shows such a file only in the embed, and leaves it out of the
// message's "attachments"
// (https://discord.com/developers/docs/resources/message#message-object;
// the behaviour is described in https://github.com/discord/discord-api-docs/issues/1340
// and https://github.com/discord/discord-api-docs/issues/4809). The
// reference lasts as long as the embeds do: an edit that sets embeds again
// with the file's CDN URL, as a GET of the message returns it, instead of
// attachment://name makes the file a loose one again, listed in
// "attachments" and shown under the embed while the embed shows it too
// (https://github.com/discord/discord-api-docs/issues/5675); an edit that
// sets embeds without it leaves the file loose under the new embeds.
func embeddedFiles(embeds []Embed, atts []Attachment) []string {
	var ids []string
	ref := func(u string) {
		name, ok := strings.CutPrefix(u, "attachment://")
		if !ok {
			return
		}
		for _, a := range atts {
			if a.Filename == name && !slices.Contains(ids, a.ID) {
				ids = append(ids, a.ID)
			}
		}
	}
	for _, e := range embeds {
		for _, m := range []*EmbedMedia{e.Image, e.Thumbnail} {
			if m != nil {
				ref(m.URL)
			}
		}
		if e.Author != nil {
			ref(e.Author.IconURL)
		}
		if e.Footer != nil {
			ref(e.Footer.IconURL)
		}
	}
	return ids
}

// resolveEmbeds replaces attachment://filename URLs by the attachment's URL.
// A reference to no attachment is left as is (Discord shows no image).
func resolveEmbeds(embeds []Embed, atts []Attachment) {
	find := func(u string) (Attachment, bool) {
		name, ok := strings.CutPrefix(u, "attachment://")
		if !ok {
			return Attachment{}, false
		}
		for _, a := range atts {
			if a.Filename == name {
				return a, true
			}
		}
		return Attachment{}, false
	}
	for i := range embeds {
		e := &embeds[i]
		for _, m := range []*EmbedMedia{e.Image, e.Thumbnail} {
			if m == nil {
				continue
			}
			if a, ok := find(m.URL); ok {
				m.URL, m.Width, m.Height = a.URL, a.Width, a.Height
			}
		}
		if e.Author != nil {
			if a, ok := find(e.Author.IconURL); ok {
				e.Author.IconURL = a.URL
			}
		}
		if e.Footer != nil {
			if a, ok := find(e.Footer.IconURL); ok {
				e.Footer.IconURL = a.URL
			}
		}
	}
}

// File returns an uploaded attachment's bytes by attachment id (no bytes
// with Options.DropFileData).
func (s *Server) File(attachmentID string) (Attachment, []byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.files[attachmentID]
	if !ok {
		return Attachment{}, nil, false
	}
	return f.att, f.data, true
}

// attachmentRoutes serves uploaded files, as Discord's CDN would.
func (s *Server) attachmentRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /attachments/{chan}/{id}/{name}", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		f, ok := s.files[r.PathValue("id")]
		s.mu.Unlock()
		if !ok || r.PathValue("name") != f.att.Filename || f.data == nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", f.att.ContentType)
		w.Header().Set("Content-Length", fmt.Sprint(len(f.data)))
		w.Header().Set("Cache-Control", "public, max-age=3600")
		_, _ = w.Write(f.data)
	})
}
