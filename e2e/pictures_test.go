package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/browsertest"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// maxUpload is Discord's default limit on one uploaded file
// (https://discord.com/developers/docs/reference#uploading-files).
const maxUpload = 10 << 20

// TestPictures plays a whole game with pictures through the stand-in and
// the real discordgo client: every board (each answer that updates it,
// each fresh board, each edit), /dix hand and the final scoreboard carry
// exactly one PNG within Discord's limits, which their embed shows; a
// message whose embed shows no picture keeps none (the old board's
// picture is replaced, not piled up, and goes when the board becomes its
// turn's summary). A game started with pictures:off attaches nothing.
func TestPictures(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false)

	t.Run("on", func(t *testing.T) {
		tb := w.table(t, "en-US", "Alice", "Bob")
		tb.lobby("/dix start")
		hand := tb.command(tb.users[0], "/dix hand")
		require.True(t, hand.Ephemeral(), describe(hand))
		checkPicture(t, w.fake, *hand.Message, "hand.png")
		tb.playToEnd()
		score := tb.checkScoreboard([]string{"Alice", "Bob"})
		checkPicture(t, w.fake, score, "scores.png")
		boards := checkPictures(t, w.fake, tb.channel.ID, true)
		assert.Greater(t, boards, 10, "board versions with their picture")
	})

	t.Run("off", func(t *testing.T) {
		tb := w.table(t, "en-US", "Chloe", "Dan")
		tb.lobby("/dix start pictures:off")
		for range 20 {
			if !tb.decide() {
				break
			}
		}
		rec := tb.record()
		actor := tb.user(seats(t, rec)[dixOf(rec).ToAct()])
		hand := tb.command(actor, "/dix hand")
		require.True(t, hand.Ephemeral(), describe(hand))
		assert.Empty(t, hand.Message.Attachments)
		checkPictures(t, w.fake, tb.channel.ID, false)
	})
}

// TestPicturesKeptWhenUnchanged: an edit of the board that leaves its
// picture as it is (a pause, a resume: the text changes, not what the
// picture shows) uploads no file, and the board still shows its picture,
// the very file it had; a click that changes what the picture shows
// uploads a new one.
func TestPicturesKeptWhenUnchanged(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false)
	tb := w.table(t, "en-US", "Alice", "Bob")
	tb.lobby("/dix start")
	// The bot knows the picture the board has once a click's work is done
	// with nothing else written meanwhile (the first board's own work may
	// cross the first click: then the next click's work tells).
	var board fakediscord.Message
	known := false
	for range 6 {
		require.True(t, tb.decide())
		type tableData struct {
			Board  string            `json:"b"`
			Outbox []json.RawMessage `json:"ob"`
			Pic    *struct {
				Msg string `json:"m"`
			} `json:"bp"`
		}
		var meta tableData
		err := waitUntil(waitCtx(t), w.fake, func() bool {
			meta = tableData{}
			require.NoError(t, json.Unmarshal(tb.record().Meta, &meta))
			return len(meta.Outbox) == 0
		})
		require.NoError(t, err, "%s", tb.record().Meta)
		if known = meta.Pic != nil && meta.Pic.Msg == meta.Board; known {
			board, _ = w.fake.Message(meta.Board)
			break
		}
	}
	require.True(t, known, "the bot knows the board's picture")
	checkPicture(t, w.fake, board, "board.png")
	att := board.Attachments[0]
	uploads := w.fake.Stats().Uploads

	for _, step := range []struct{ command, shows, gone string }{
		{"/dix pause", "Paused by", "resumed the game"},
		{"/dix resume", "resumed the game", "Paused by"},
	} {
		require.True(t, tb.command(tb.users[0], step.command).Ephemeral(), step.command)
		require.NoError(t, waitUntil(waitCtx(t), w.fake, func() bool {
			m, ok := w.fake.Message(board.ID)
			board = m
			return ok && strings.Contains(boardText(m), step.shows) && !strings.Contains(boardText(m), step.gone)
		}), step.command)
		checkPicture(t, w.fake, board, "board.png")
		assert.Equal(t, att.ID, board.Attachments[0].ID, "%s: the board keeps its file", step.command)
		assert.Equal(t, uploads, w.fake.Stats().Uploads, "%s: no file uploaded", step.command)
	}

	require.True(t, tb.decide())
	require.NoError(t, waitUntil(waitCtx(t), w.fake, func() bool { return w.fake.Stats().Uploads > uploads }))
	rec := tb.record()
	now, _ := tb.boardFor(rec)
	checkPicture(t, w.fake, now, "board.png")
	assert.NotEqual(t, att.ID, now.Attachments[0].ID, "a changed picture is a new file")
	checkPictures(t, w.fake, tb.channel.ID, true)
}

// checkPicture checks that m shows exactly one attached PNG, named name,
// in its embed.
func checkPicture(t *testing.T, fake *fakediscord.Server, m fakediscord.Message, name string) {
	t.Helper()
	require.Len(t, m.Attachments, 1, "message %s: one picture", m.ID)
	a := m.Attachments[0]
	assert.Equal(t, name, a.Filename)
	require.NotEmpty(t, m.Embeds)
	require.NotNil(t, m.Embeds[0].Image, "the embed shows the picture")
	assert.Equal(t, a.URL, m.Embeds[0].Image.URL, "attachment://%s resolved to the file", name)
	_, data, ok := fake.File(a.ID)
	require.True(t, ok)
	_, err := png.DecodeConfig(bytes.NewReader(data))
	assert.NoError(t, err)
}

// checkPictures checks every version of every message of a channel: with
// pictures, a version whose embed shows an image has exactly that one
// attachment, a PNG within Discord's limits, and a version without has
// none; without pictures, nothing is attached. It returns how many
// versions of boards (messages with buttons) showed a picture.
func checkPictures(t *testing.T, fake *fakediscord.Server, channel string, pictures bool) int {
	t.Helper()
	boards, largest := 0, 0
	for _, m := range fake.Transcript(channel) {
		versions := append([]fakediscord.Revision(nil), m.History...)
		versions = append(versions, fakediscord.Revision{Embeds: m.Embeds, Components: m.Components, Attachments: m.Attachments, Embedded: m.Embedded})
		for k, v := range versions {
			where := fmt.Sprintf("message %s version %d", m.ID, k)
			var images []string
			for _, e := range v.Embeds {
				if e.Image != nil {
					images = append(images, e.Image.URL)
					assert.False(t, strings.HasPrefix(e.Image.URL, "attachment://"), "%s: unresolved %s", where, e.Image.URL)
				}
			}
			if !pictures {
				assert.Empty(t, v.Attachments, where)
				assert.Empty(t, images, where)
				continue
			}
			if len(images) == 0 {
				assert.Empty(t, v.Attachments, "%s: a picture left behind", where)
				continue
			}
			require.Len(t, v.Attachments, 1, "%s: exactly one picture", where)
			a := v.Attachments[0]
			assert.Equal(t, []string{a.URL}, images, "%s: the embed shows it", where)
			assert.Empty(t, v.Loose(), "%s: the picture shown in the embed only, not a second time on its own", where)
			assert.Equal(t, "image/png", a.ContentType, where)
			assert.LessOrEqual(t, a.Size, maxUpload, where)
			assert.Positive(t, a.Width, "%s: an image the stand-in could read", where)
			largest = max(largest, a.Size)
			if len(v.Components) > 0 && !m.Ephemeral() {
				boards++
			}
		}
	}
	t.Logf("%d board versions with a picture; largest picture %d bytes", boards, largest)
	return boards
}

// TestBoardPictureInTheBrowser renders the stand-in's web view of a board
// with its picture in headless Chromium: the picture is loaded, shown in
// the embed only (not a second time as a bare attachment), and a
// screenshot of the board is written to the test's directory (and to
// $DIX_SCREENSHOT_PICTURE when set).
func TestBoardPictureInTheBrowser(t *testing.T) {
	t.Parallel()
	fake := fakediscord.Start(t)
	t.Cleanup(func() { noViolations(t, fake) })
	w := &world{fake: fake, cfg: baseConfig(t, fake, "")}
	w.bot = startApp(t, w.cfg)
	tb := w.table(t, "en-US", "Alice", "Bruno", "Chloé")
	tb.lobby("/dix start")
	for range 40 {
		if !tb.decide() {
			break
		}
	}
	rec := tb.record()
	board, _ := tb.boardFor(rec)
	require.Len(t, board.Attachments, 1)
	viewer := tb.users[0].ID

	ctx := browsertest.Start(t, 1280, 1600, 90*time.Second)
	sel := `[data-id="` + board.ID + `"] img.embed-image`
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(fake.URL()+"?channel="+tb.channel.ID+"&user="+viewer),
		chromedp.WaitVisible(chromedp.CSS(`#status.ok`)),
		chromedp.WaitVisible(chromedp.CSS(sel)),
	))
	loaded, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(async () => {
		const img = document.querySelector('`+sel+`');
		img.scrollIntoView({block: "start"});
		if (!img.complete) await new Promise((ok) => img.addEventListener("load", ok, {once: true}));
		return img.naturalWidth;
	})()`, chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	assert.Equal(t, 600, loaded, "the picture is loaded at its size")
	bare, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-id="`+board.ID+`"] img.attachment-image').length`))
	require.NoError(t, err)
	assert.Zero(t, bare, "the picture is shown once, in the embed")

	shot, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(`[data-id="`+board.ID+`"]`), chromedp.NodeVisible))
	require.NoError(t, err)
	require.Greater(t, len(shot), 10000, "a board was drawn")
	path := filepath.Join(t.TempDir(), "board-picture.png")
	require.NoError(t, os.WriteFile(path, shot, 0o644))
	t.Logf("screenshot: %s (%d bytes)", path, len(shot))
	if p := os.Getenv("DIX_SCREENSHOT_PICTURE"); p != "" {
		require.NoError(t, os.WriteFile(p, shot, 0o644))
	}
}
