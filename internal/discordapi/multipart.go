package discordapi

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/textproto"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// multipartBody is discordgo.MultipartBodyWithJSON's request body (the
// JSON of data as payload_json, then each file as files[i]), written into
// a buffer of about its final size: discordgo's grows from empty as the
// files are copied in, copying a picture several times over.
func multipartBody(data any, files []*discordgo.File) (string, []byte, error) {
	payload, err := discordgo.Marshal(data)
	if err != nil {
		return "", nil, err
	}
	size := len(payload) + 256
	for _, f := range files {
		size += 1024 + len(f.Name) // bytes.Buffer.ReadFrom wants 512 free
		if r, ok := f.Reader.(interface{ Size() int64 }); ok {
			size += int(r.Size())
		}
	}
	body := bytes.NewBuffer(make([]byte, 0, size))
	w := multipart.NewWriter(body)
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", `form-data; name="payload_json"`)
	h.Set("Content-Type", "application/json")
	p, err := w.CreatePart(h)
	if err != nil {
		return "", nil, err
	}
	if _, err := p.Write(payload); err != nil {
		return "", nil, err
	}
	for i, f := range files {
		h := make(textproto.MIMEHeader)
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="files[%d]"; filename="%s"`, i, quoteEscaper.Replace(f.Name)))
		ct := f.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		h.Set("Content-Type", ct)
		if _, err := w.CreatePart(h); err != nil {
			return "", nil, err
		}
		// A part's content is what follows its header in body.
		if _, err := body.ReadFrom(f.Reader); err != nil {
			return "", nil, err
		}
	}
	if err := w.Close(); err != nil {
		return "", nil, err
	}
	return w.FormDataContentType(), body.Bytes(), nil
}

// quoteEscaper escapes a file's name as discordgo does.
var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"")

// respond is discordgo's Session.InteractionRespond, its files written by
// multipartBody.
func respond(ctx context.Context, s *discordgo.Session, i *discordgo.Interaction, r *discordgo.InteractionResponse) error {
	endpoint := discordgo.EndpointInteractionResponse(i.ID, i.Token)
	if r.Data == nil || len(r.Data.Files) == 0 {
		return s.InteractionRespond(i, r, opts(ctx)...)
	}
	contentType, body, err := multipartBody(r, r.Data.Files)
	if err != nil {
		return err
	}
	_, err = s.RequestRaw("POST", endpoint, contentType, body, endpoint, 0, opts(ctx)...)
	return err
}
