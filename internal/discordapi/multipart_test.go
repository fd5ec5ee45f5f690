package discordapi

import (
	"bytes"
	"math/rand/v2"
	"mime"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"
)

// withoutBoundary is a multipart body with its boundary replaced by a
// fixed one, and its content type's parameters.
func withoutBoundary(t *testing.T, contentType string, body []byte) (string, map[string]string, []byte) {
	t.Helper()
	mt, params, err := mime.ParseMediaType(contentType)
	require.NoError(t, err)
	b := params["boundary"]
	require.NotEmpty(t, b)
	params["boundary"] = "B"
	return mt, params, bytes.ReplaceAll(body, []byte(b), []byte("B"))
}

// multipartBody writes the bytes discordgo.MultipartBodyWithJSON writes
// (the boundary aside, which each draws at random): no file, one, several,
// names to escape, a content type or none, and files of every size.
func TestMultipartBodyAsDiscordgo(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 60 {
		var files []*discordgo.File
		for i := range n % 4 {
			content := make([]byte, rng.IntN(1<<(2+n%18)))
			for j := range content {
				content[j] = byte(rng.IntN(256))
			}
			f := &discordgo.File{Name: oddString(rng, 3) + `"\.png`, Reader: bytes.NewReader(content)}
			if i%2 == 0 {
				f.ContentType = "image/png"
			}
			files = append(files, f)
		}
		data := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{Content: oddString(rng, 8), Files: files}}
		wantType, wantBody, err := discordgo.MultipartBodyWithJSON(data, whole(files))
		require.NoError(t, err)
		gotType, gotBody, err := multipartBody(data, whole(files))
		require.NoError(t, err)
		wt, wp, wb := withoutBoundary(t, wantType, wantBody)
		gt, gp, gb := withoutBoundary(t, gotType, gotBody)
		require.Equal(t, wt, gt)
		require.Equal(t, wp, gp)
		require.True(t, bytes.Equal(wb, gb), "body %d: %q…", n, strings.ToValidUTF8(string(gb[:min(len(gb), 300)]), "?"))
	}
}

// BenchmarkMultipartBody writes the body of a board's answer: its JSON and
// a 40 KiB picture.
func BenchmarkMultipartBody(b *testing.B) {
	png := make([]byte, 40<<10)
	data := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{Content: "board"}}
	for _, way := range []struct {
		name string
		f    func(any, []*discordgo.File) (string, []byte, error)
	}{{"discordgo", discordgo.MultipartBodyWithJSON}, {"presized", multipartBody}} {
		b.Run(way.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				files := []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)}}
				if _, _, err := way.f(data, whole(files)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzMultipartBody is TestMultipartBodyAsDiscordgo on a file of any name,
// content type and bytes, and a message of any text.
func FuzzMultipartBody(f *testing.F) {
	f.Add(`board "1"\.png`, "image/png", []byte("\x89PNG"), "Bid 7 <b>")
	f.Add("", "", []byte{}, "")
	f.Fuzz(func(t *testing.T, name, ct string, content []byte, text string) {
		files := []*discordgo.File{{Name: name, ContentType: ct, Reader: bytes.NewReader(content)}}
		data := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{Content: text, Files: files}}
		wantType, wantBody, wantErr := discordgo.MultipartBodyWithJSON(data, whole(files))
		gotType, gotBody, err := multipartBody(data, whole(files))
		if wantErr != nil {
			require.Error(t, err)
			return
		}
		require.NoError(t, err)
		wt, wp, wb := withoutBoundary(t, wantType, wantBody)
		gt, gp, gb := withoutBoundary(t, gotType, gotBody)
		require.Equal(t, wt, gt)
		require.Equal(t, wp, gp)
		require.Equal(t, string(wb), string(gb))
	})
}
