package bot

import (
	"context"
	"net/http"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	"github.com/dixgame/dixbot/internal/tabletest"
)

func TestAttachmentOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url, id, name string
		ok            bool
	}{
		{"https://cdn.discordapp.com/attachments/111/222/board.png?ex=1&is=2&hm=3", "222", "board.png", true},
		{"https://media.discordapp.net/attachments/111/222/qwixx.png", "222", "qwixx.png", true},
		{"http://127.0.0.1:4000/attachments/111/222/grid.png", "222", "grid.png", true},
		{"attachment://board.png", "", "", false},
		{"https://cdn.discordapp.com/attachments/111/222", "", "", false},
		{"https://example.com/board.png", "", "", false},
		{"%zz", "", "", false},
	} {
		id, name, ok := attachmentOf(tc.url)
		assert.Equal(t, tc.ok, ok, tc.url)
		assert.Equal(t, tc.id, id, tc.url)
		assert.Equal(t, tc.name, name, tc.url)
	}
}

// keptClick is a Call of a click on board message 900, whose embed shows
// file 222, qwixx.png, answered with the pictures answer when the table
// data td records them.
func keptClick(td *tableData, answer string) *Call {
	msg := &discordgo.Message{ID: "900", Embeds: []*discordgo.MessageEmbed{{
		Image: &discordgo.MessageEmbedImage{URL: "https://cdn.discordapp.com/attachments/111/222/qwixx.png"}}}}
	c := &Call{I: &discordgo.Interaction{ID: "77", Type: discordgo.InteractionMessageComponent, Message: msg}}
	c.noteBoardPicture(td)
	c.answerPic = answer
	return c
}

// A click's answer keeps the pictures of the message clicked, by their
// ids, only when they are the ones it shows and the table data is sure
// the message has them: recorded for this board, and no edit of the board
// owed from before (it may be on its way with other pictures).
func TestKeptAnswerPictures(t *testing.T) {
	t.Parallel()
	files := []*discordgo.File{{Name: "qwixx.png"}}
	known := func() *tableData { return &tableData{Board: "900", Pic: &boardPic{Msg: "900", Key: "k"}} }

	got := keptClick(known(), "k").keptAnswerPictures(files)
	require.NotNil(t, got)
	assert.Equal(t, []*discordgo.MessageAttachment{{ID: "222"}}, *got)

	for _, tc := range []struct {
		name   string
		td     *tableData
		answer string
		files  []*discordgo.File
	}{
		{"other pictures", known(), "other", files},
		{"no pictures in the answer", known(), "k", nil},
		{"not known", &tableData{Board: "900", Pic: &boardPic{Key: "76"}}, "k", files},
		{"known for another message", &tableData{Board: "900", Pic: &boardPic{Msg: "899", Key: "k"}}, "k", files},
		{"the message is not the board", &tableData{Board: "901", Pic: &boardPic{Msg: "901", Key: "k"}}, "k", files},
		{"an edit owed", func() *tableData {
			td := known()
			td.Outbox = []effect{{ID: 3, Kind: effEdit}}
			return td
		}(), "k", files},
		{"a file the message does not have", known(), "k", []*discordgo.File{{Name: "other.png"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Nil(t, keptClick(tc.td, tc.answer).keptAnswerPictures(tc.files))
		})
	}

	loose := keptClick(known(), "k")
	loose.I.Message.Embeds = nil
	loose.I.Message.Attachments = []*discordgo.MessageAttachment{{ID: "333", Filename: "qwixx.png"}}
	got = loose.keptAnswerPictures(files)
	require.NotNil(t, got, "a loose file of the message")
	assert.Equal(t, []*discordgo.MessageAttachment{{ID: "333"}}, *got)
}

// withFile is msg as Discord shows it to a click: its embed's image is
// the URL of its file id, name.
func withFile(msg *tabletest.Message, id, name string) *tabletest.Message {
	c := *msg
	c.Embeds = make([]*discordgo.MessageEmbed, len(msg.Embeds))
	for i, e := range msg.Embeds {
		ec := *e
		if ec.Image != nil {
			ec.Image = &discordgo.MessageEmbedImage{URL: "https://cdn.discordapp.com/attachments/111/" + id + "/" + name}
		}
		c.Embeds[i] = &ec
	}
	return &c
}

// An outdated click on the board, answered with the board as it stands,
// lists the message's picture in its "attachments" instead of uploading it
// again when the table data says the message has it; it uploads it when
// the message may have another (TestKeptAnswerPictures for the other
// cases).
func TestAnswerKeepsTheBoardsPicture(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, true)
	lobby := h.qcommand("u1", "start").Shown(nil)
	lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
	board := h.ClickOn("u1", lobby, h.qmust(lobby, verbGo, "")).Shown(lobby)
	h.qcommand("u1", "pause")
	h.qcommand("u1", "resume")
	first := buttonID("qwixx", verbMove, 0, "w -")
	for _, u := range []string{"u1", "u2"} {
		board = h.ClickOn(u, board, first).Shown(board)
	}
	h.qcommand("u1", "pause")
	h.qcommand("u1", "resume")
	_, td, _ := h.qstate()
	require.NotNil(t, td.Pic)
	require.Equal(t, board.ID, td.Pic.Msg, "the picture is known")
	require.Empty(t, td.Outbox)
	known := td.Pic.Key
	active := "u1"
	if td.Open[1] > 0 {
		active = "u2"
	}
	stale := func() *discordgo.InteractionResponse {
		t.Helper()
		// Answered by a process that has not shown this board: it shows
		// the board again.
		b, err := New(Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.Obs,
			Games: []present.Game{botqwixx.Game()}})
		require.NoError(t, err)
		b.workBudget, b.deferAfter = harnessBudget, harnessBudget
		h.b = b
		resp := h.ClickOn(active, withFile(h.Rec.Message(board.ID), "222", "qwixx.png"), first).Response()
		require.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type, "the board shown again")
		require.Len(t, resp.Data.Embeds, 1)
		require.NotNil(t, resp.Data.Embeds[0].Image)
		assert.Equal(t, "attachment://qwixx.png", resp.Data.Embeds[0].Image.URL)
		return resp
	}
	resp := stale()
	assert.Empty(t, resp.Data.Files, "nothing uploaded")
	require.NotNil(t, resp.Data.Attachments)
	assert.Equal(t, []*discordgo.MessageAttachment{{ID: "222"}}, *resp.Data.Attachments, "the message's file kept")

	setTable := func(change func(td *tableData)) {
		t.Helper()
		_, err := h.Db.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
			cur, err := decodeTableData(r.Meta)
			require.NoError(t, err)
			change(cur)
			r.Meta = cur.Encode()
			return nil
		})
		require.NoError(t, err)
	}
	setTable(func(td *tableData) { td.Pic = &boardPic{Msg: board.ID, Key: "another"} })
	resp = stale()
	assert.Len(t, resp.Data.Files, 1, "another picture recorded: uploaded")

	// Discord refuses the list of kept files (a file of the message
	// replaced since the click: 400 50035): the answer uploads the
	// picture after all.
	setTable(func(td *tableData) { td.Pic = &boardPic{Msg: board.ID, Key: known} })
	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Op == "respond" && c.Resp.Data != nil && c.Resp.Data.Attachments != nil && len(c.Resp.Data.Files) == 0 {
			return &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusBadRequest},
				Message: &discordgo.APIErrorMessage{Code: discordgo.ErrCodeInvalidFormBody, Message: "Invalid Form Body"}}
		}
		return nil
	}
	h.Rec.Mu.Unlock()
	b, err := New(Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.Obs,
		Games: []present.Game{botqwixx.Game()}})
	require.NoError(t, err)
	b.workBudget, b.deferAfter = harnessBudget, harnessBudget
	h.b = b
	res := h.ClickOn(active, withFile(h.Rec.Message(board.ID), "333", "qwixx.png"), first)
	var refused, answers []*discordgo.InteractionResponse
	for _, c := range res.Calls {
		switch {
		case c.Op == "respond" && c.Refused:
			refused = append(refused, c.Resp)
		case c.Op == "respond":
			answers = append(answers, c.Resp)
		}
	}
	require.Len(t, refused, 1, "the list refused: %s", res.Describe())
	require.Len(t, answers, 1, "one answer: %s", res.Describe())
	assert.Len(t, answers[0].Data.Files, 1, "the picture uploaded after all")
}
