package discordapi

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// multipartBody is discordgo.MultipartBodyWithJSON's request body (the
// JSON of data as payload_json, then each file as files[i]), byte for byte
// as mime/multipart's Writer writes it but for its random boundary,
// written at once into a buffer of about its final size: discordgo's grows
// from empty as the files are copied in, copying a picture several times
// over, and the Writer draws its boundary from crypto/rand (a system call)
// and sorts each part's header.
func multipartBody(data any, files []*discordgo.File) (string, []byte, error) {
	payload, err := discordgo.Marshal(data)
	if err != nil {
		return "", nil, err
	}
	var rb [30]byte // as the Writer's: 30 random bytes in hexadecimal
	for i := 0; i < len(rb); i += 8 {
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], rand.Uint64())
		copy(rb[i:], w[:])
	}
	boundary := hex.EncodeToString(rb[:])
	size := len(payload) + 256
	for _, f := range files {
		size += 1024 + len(f.Name) // bytes.Buffer.ReadFrom wants 512 free
		if r, ok := f.Reader.(interface{ Size() int64 }); ok {
			size += int(r.Size())
		}
	}
	b := make([]byte, 0, size)
	b = append(b, "--"...)
	b = append(b, boundary...)
	b = append(b, "\r\nContent-Disposition: form-data; name=\"payload_json\"\r\nContent-Type: application/json\r\n\r\n"...)
	b = append(b, payload...)
	for i, f := range files {
		ct := f.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		b = append(b, "\r\n--"...)
		b = append(b, boundary...)
		b = append(b, "\r\nContent-Disposition: form-data; name=\"files["...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, "]\"; filename=\""...)
		b = append(b, quoteEscaper.Replace(f.Name)...)
		b = append(b, "\"\r\nContent-Type: "...)
		b = append(b, ct...)
		b = append(b, "\r\n\r\n"...)
		// A part's content is what follows its header.
		body := bytes.NewBuffer(b)
		if _, err := body.ReadFrom(f.Reader); err != nil {
			return "", nil, err
		}
		b = body.Bytes()
	}
	b = append(b, "\r\n--"...)
	b = append(b, boundary...)
	b = append(b, "--\r\n"...)
	return "multipart/form-data; boundary=" + boundary, b, nil
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
	_, err = s.RequestWithLockedBucket("POST", endpoint, contentType, body, s.Ratelimiter.LockBucket(endpoint), 0, opts(ctx)...)
	return err
}
