package bot

import (
	"context"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	computer "github.com/dixgame/dixbot/computer/qwixx"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/internal/tabletest"
)

// boardEdits are the edits of message board among calls, through an
// interaction's token or the bot's.
func boardEdits(calls []tabletest.Call, board string) []*discordgo.MessageEdit {
	var out []*discordgo.MessageEdit
	for _, c := range calls {
		if (c.Op == "followupEdit" || c.Op == "edit" || c.Op == "editOriginal") && c.Edit != nil && c.Edit.ID == board && !c.Refused {
			out = append(out, c.Edit)
		}
	}
	return out
}

// requireUpload checks that ed uploads the Qwixx board's picture and keeps
// no other file.
func requireUpload(t *testing.T, ed *discordgo.MessageEdit, what string) {
	t.Helper()
	require.Len(t, ed.Files, 1, "%s: the picture is uploaded", what)
	assert.Equal(t, "qwixx.png", ed.Files[0].Name)
	require.NotNil(t, ed.Attachments, "%s: the new file replaces the old one", what)
	assert.Len(t, *ed.Attachments, 1)
}

// requireKept checks that ed uploads nothing and lists no attachments, so
// Discord keeps the message's file, which its embed still shows by name.
func requireKept(t *testing.T, ed *discordgo.MessageEdit, what string) {
	t.Helper()
	assert.Empty(t, ed.Files, "%s: nothing uploaded", what)
	assert.Nil(t, ed.Attachments, "%s: no attachments listed (Discord keeps the file)", what)
	require.NotNil(t, ed.Embeds)
	require.Len(t, *ed.Embeds, 1)
	require.NotNil(t, (*ed.Embeds)[0].Image)
	assert.Equal(t, "attachment://qwixx.png", (*ed.Embeds)[0].Image.URL, "%s: the embed shows the kept file", what)
}

// The outbox's edit of a Qwixx board whose picture did not change (a pause,
// a resume) uploads nothing and keeps Discord's file; a click's answer
// always carries the picture; an edit whose picture changed (a decision
// out of time) uploads the new one.
func TestEditKeepsAnUnchangedPicture(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, true)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	lobby := h.qcommand("u1", "start").Shown(nil)
	lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
	board := h.ClickOn("u1", lobby, h.qmust(lobby, verbGo, "")).Shown(lobby)
	_, td, _ := h.qstate()

	pause := func(what string, on bool) *discordgo.MessageEdit {
		t.Helper()
		sub := "pause"
		if !on {
			sub = "resume"
		}
		r := h.qcommand("u1", sub)
		eds := boardEdits(r.Calls, board.ID)
		require.Len(t, eds, 1, "%s: the board is edited once", what)
		return eds[0]
	}
	ed := pause("pause", true)
	if td.Pic == nil || td.Pic.Msg != board.ID {
		// The board's picture was not known: this edit uploads it, and
		// is known from then on.
		requireUpload(t, ed, "first pause")
		ed = pause("resume", false)
		requireKept(t, ed, "resume")
		ed = pause("pause", true)
	}
	requireKept(t, ed, "pause")
	_, td, _ = h.qstate()
	require.NotNil(t, td.Pic)
	assert.Equal(t, board.ID, td.Pic.Msg, "the picture stays known")
	requireKept(t, pause("resume", false), "resume")

	// A click's answer carries the picture, changed or not.
	r := h.ClickOn("u2", h.Rec.Message(board.ID), h.qwixxMove(h.Rec.Message(board.ID)))
	resp := r.Response()
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type)
	require.Len(t, resp.Data.Files, 1, "the answer uploads the picture")
	assert.Empty(t, boardEdits(r.Calls, board.ID), "the answer showed the change")

	// A decision out of time changes the picture: the edit uploads it.
	g, _, v := h.qstate()
	require.NotEmpty(t, g.ToDecide())
	now = now.Add(time.Hour)
	start := h.Rec.Count()
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
	_, td, v2 := h.qstate()
	require.Greater(t, v2, v, "the clock decided")
	eds := boardEdits(h.Rec.Since(start), board.ID)
	require.NotEmpty(t, eds)
	requireUpload(t, eds[0], "a changed picture")
	require.NotNil(t, td.Pic)
	assert.Equal(t, board.ID, td.Pic.Msg, "the new picture is known")
	requireKept(t, pause("pause after the change", true), "pause after the change")
}

// The table data's record of the board's picture: a click on a public
// message forgets it, a command or a click on a private prompt does not;
// old records without it read as not known.
func TestAnswerForgetsThePicture(t *testing.T) {
	t.Parallel()
	td, err := decodeTableData([]byte(`{"v":1,"c":"u1","l":"en","s":[{"u":"u1","n":"Alice"}],"b":"900"}`))
	require.NoError(t, err)
	assert.Nil(t, td.Pic, "an old record: not known")

	click := func(msg *discordgo.Message) *Call {
		return &Call{I: &discordgo.Interaction{ID: "77", Type: discordgo.InteractionMessageComponent, Message: msg}}
	}
	td.Pic = &boardPic{Msg: "900", Key: "k"}
	click(nil).answerPicture(td)
	assert.Equal(t, &boardPic{Msg: "900", Key: "k"}, td.Pic, "a command")
	click(&discordgo.Message{ID: "901", Flags: discordgo.MessageFlagsEphemeral}).answerPicture(td)
	assert.Equal(t, &boardPic{Msg: "900", Key: "k"}, td.Pic, "a private prompt")
	click(&discordgo.Message{ID: "900"}).answerPicture(td)
	assert.Equal(t, &boardPic{Key: "77"}, td.Pic, "a click on the board: forgotten, as of the click")

	b, err := decodeTableData(td.Encode())
	require.NoError(t, err)
	assert.Equal(t, td.Pic, b.Pic)

	x := &cexec{rec: &dixbot.Record{Version: 4}, td: &tableData{Board: "900"}, pic0: &boardPic{Msg: "900", Key: "a"}, pic: &boardPic{Msg: "900", Key: "b"}}
	assert.Equal(t, &boardPic{Msg: "900", Key: "b"}, x.boardPicture(&dixbot.Record{Version: 4}, &tableData{Board: "900", Pic: &boardPic{Msg: "900", Key: "a"}}))
	assert.Equal(t, &boardPic{Msg: "900", Key: "b"}, x.boardPicture(&dixbot.Record{Version: 6}, &tableData{Board: "900", Pic: &boardPic{Msg: "900", Key: "a"}}),
		"a change in between that left the picture alone (a command)")
	assert.Nil(t, x.boardPicture(&dixbot.Record{Version: 5}, &tableData{Board: "900", Pic: &boardPic{Key: "77"}}), "a click in between")
	assert.Nil(t, x.boardPicture(&dixbot.Record{Version: 4}, &tableData{Board: "901", Pic: &boardPic{Msg: "900", Key: "a"}}), "another board")

	board := &tableData{Board: "900", Pic: &boardPic{Key: "77"}}
	assert.Equal(t, &boardPic{Msg: "900", Key: "c"}, board.startPicture(&Via{Orig: "900", Pic: "c"}, true), "the answer's picture")
	assert.Equal(t, &boardPic{Key: "77"}, board.startPicture(&Via{Orig: "900", Pic: "c"}, false), "a change written since the answer")
	assert.Nil(t, board.startPicture(&Via{Orig: "900"}, true), "an answer without a picture")
	board.Pic = &boardPic{Msg: "900", Key: "a"}
	assert.Equal(t, &boardPic{Msg: "900", Key: "a"}, board.startPicture(nil, false), "no answer")

	// A fold records the answer's picture only while Pic is what its batch
	// read.
	fd := &fold{Table: "/900", Version: 3, Done: 2, pic: &boardPic{Msg: "900", Key: "c"}, pic0: &boardPic{Key: "77"}}
	for _, tc := range []struct {
		pic, want *boardPic
		why       string
	}{
		{&boardPic{Key: "77"}, &boardPic{Msg: "900", Key: "c"}, "as read"},
		{&boardPic{Key: "78"}, &boardPic{Key: "78"}, "a click in between"},
		{&boardPic{Msg: "900", Key: "d"}, &boardPic{Msg: "900", Key: "d"}, "an edit in between"},
	} {
		td := &tableData{Board: "900", Outbox: []effect{{ID: 2, Kind: effEdit}}, Pic: tc.pic}
		require.True(t, fd.applyOn(&dixbot.Record{Version: 4}, td, nil, time.Now(), false))
		assert.Equal(t, tc.want, td.Pic, tc.why)
	}
}

// An outdated click on the board is answered with the board as it stands
// and writes no change of its own: when that answer shows another picture
// than the one the table data records, it forgets it first; the same
// picture stays known.
func TestStaleClickForgetsAnotherPicture(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, true)
	lobby := h.qcommand("u1", "start").Shown(nil)
	lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
	board := h.ClickOn("u1", lobby, h.qmust(lobby, verbGo, "")).Shown(lobby)
	h.qcommand("u1", "pause")
	h.qcommand("u1", "resume")
	_, td, _ := h.qstate()
	require.NotNil(t, td.Pic)
	require.Equal(t, board.ID, td.Pic.Msg)
	known := *td.Pic

	// Both pass the white sum: the active seat's colour decision opens
	// at a later version, and its white-sum button is outdated.
	first := buttonID("qwixx", verbMove, 0, "w -")
	for _, u := range []string{"u1", "u2"} {
		board = h.ClickOn(u, board, first).Shown(board)
	}
	_, td, _ = h.qstate()
	active := "u1"
	if td.Open[1] > 0 {
		active = "u2"
	}
	require.Positive(t, td.Open[map[string]int{"u1": 0, "u2": 1}[active]])
	known = *td.Pic
	stale := func() result {
		// Answered by a process that has not shown this board (another
		// replica's, or one started since): it shows the board again.
		b, err := New(Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.Obs,
			Games: []present.Game{botqwixx.Game()}})
		require.NoError(t, err)
		b.workBudget, b.deferAfter = harnessBudget, harnessBudget
		h.b = b
		r := h.ClickOn(active, h.Rec.Message(board.ID), first)
		resp := r.Response()
		require.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type, "the board shown again")
		require.Len(t, resp.Data.Files, 1)
		return r
	}
	stale()
	_, td, _ = h.qstate()
	assert.Equal(t, &known, td.Pic, "the same picture stays known")

	_, err := h.Db.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
		cur, err := decodeTableData(r.Meta)
		require.NoError(t, err)
		cur.Pic = &boardPic{Msg: board.ID, Key: "another"}
		r.Meta = cur.Encode()
		return nil
	})
	require.NoError(t, err)
	stale()
	_, td, _ = h.qstate()
	require.NotNil(t, td.Pic)
	assert.Empty(t, td.Pic.Msg, "forgotten: the answer replaced the picture")
	marker := *td.Pic
	stale()
	_, td, _ = h.qstate()
	require.NotNil(t, td.Pic)
	assert.Empty(t, td.Pic.Msg)
	assert.NotEqual(t, marker, *td.Pic, "an unknown picture is forgotten again, as of this click")
}

// On Redis, a click on the board whose answer shows all it changes has its
// effects recorded done later, with the next change or on their own (a
// fold): the picture the answer put on the board is recorded with them,
// so a pause that follows keeps it.
func TestFoldRecordsTheAnswersPicture(t *testing.T) {
	t.Parallel()
	h, rs, _ := redisHarness(t)
	b, err := New(Options{Store: rs, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.Obs,
		Games: []present.Game{botqwixx.Game()}})
	require.NoError(t, err)
	h.b = b
	h.b.hooks.foldWait = time.Hour
	users := []string{"u1", "u2"}
	board := h.openQwixx(users)
	folded := false
	for step := 0; step < 40 && !folded; step++ {
		g, _, _ := h.qstate()
		seat := g.ToDecide()[0]
		m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), seat, rand.New(rand.NewPCG(uint64(step), 1)))
		require.NoError(t, err)
		res := h.ClickOn(users[seat], board, h.qmust(board, verbMove, string(m)))
		board = res.Shown(board)
		folded = len(res.Calls) == 1 && h.b.folds.Get(h.Channel) != nil
		if folded {
			require.Len(t, res.Response().Data.Files, 1, "the answer carries the picture")
		}
	}
	require.True(t, folded, "no click whose answer showed all it changed")
	_, td, _ := h.qstate()
	require.NotNil(t, td.Pic)
	assert.Empty(t, td.Pic.Msg, "the click forgot the picture")
	fd := h.b.folds.Get(h.Channel)
	require.NotNil(t, fd.read.Load(), "the fold's write takes the table data its batch read")
	h.b.writeFold(context.Background(), h.Channel, fd)
	assert.Nil(t, fd.read.Load(), "taken once")
	_, td, _ = h.qstate()
	assert.Empty(t, td.Outbox, "recorded")
	require.NotNil(t, td.Pic, "the answer's picture recorded with the fold")
	assert.Equal(t, board.ID, td.Pic.Msg)

	r := h.qcommand("u1", "pause")
	eds := boardEdits(r.Calls, board.ID)
	require.Len(t, eds, 1)
	requireKept(t, eds[0], "a pause after the click")
}

// Dixxit: the clue of the first turn, given in the clue-giver's private
// form, changes the board's text and not its grid: the board's edit keeps
// the grid Discord has. The first finger, a click on the board, is
// answered with a new grid.
func TestDixxitClueKeepsTheGrid(t *testing.T) {
	t.Parallel()
	h := newDixxitHarness(t, nil)
	people := []string{"u1", "u2", "u3"}
	board := h.openDixxit("en", people, 0)
	g, td, _ := h.dstate()
	require.NotNil(t, td.Pic)
	require.Equal(t, board.ID, td.Pic.Msg, "the grid the start showed is known")
	_, res := h.giveClue(people[g.Active()], board, "sea")
	eds := boardEdits(res.Calls, board.ID)
	require.Len(t, eds, 1, "the board shows the clue")
	assert.Empty(t, eds[0].Files, "the same grid: nothing uploaded")
	assert.Nil(t, eds[0].Attachments, "Discord keeps the grid")
	require.NotNil(t, eds[0].Embeds)
	require.Len(t, *eds[0].Embeds, 1)
	assert.Equal(t, "attachment://dixxit.png", (*eds[0].Embeds)[0].Image.URL)
	assert.Contains(t, *eds[0].Content, "sea")

	g, _, _ = h.dstate()
	guesser := (g.Active() + 1) % len(people)
	board = h.Rec.Message(board.ID)
	r := h.dclick(people[guesser], board, h.squareID(board, g, 1))
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	assert.NotEmpty(t, r.Response().Data.Files, "a finger: the answer uploads the new grid")
}

// Where an interaction's app_permissions show no Attach Files, the board
// carries no picture, in the answer and in what the outbox edits: no
// request is refused with 403 (each one counts towards Discord's invalid
// request limit). An interaction showing Attach Files again brings the
// pictures back.
func TestNoAttachFilesPermission(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, true)
	board := h.openQwixx([]string{"u1", "u2"})
	require.NotEmpty(t, board.Embeds)
	require.NotNil(t, board.Embeds[0].Image, "a picture while nothing says otherwise")
	files := func(res result) int {
		n := 0
		for _, c := range res.Calls {
			switch {
			case c.Resp != nil && c.Resp.Data != nil:
				n += len(c.Resp.Data.Files)
			case c.Edit != nil:
				n += len(c.Edit.Files)
			case c.Params != nil:
				n += len(c.Params.Files)
			}
		}
		return n
	}
	const noFiles = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages | discordgo.PermissionEmbedLinks
	h.AppPerm = noFiles
	res := h.qcommand("u1", "board")
	assert.Zero(t, files(res), "no file where the bot may not attach one: %s", res.Describe())
	shown := res.Shown(nil)
	require.NotNil(t, shown)
	for _, e := range shown.Embeds {
		assert.Nil(t, e.Image, "the board as text")
	}

	h.AppPerm = noFiles | discordgo.PermissionAttachFiles
	res = h.qcommand("u1", "board")
	assert.Positive(t, files(res), "the picture is back: %s", res.Describe())
}

// Discord refusing the board's picture for a missing Attach Files, which
// no interaction foretold, is learnt: the board is edited as text at once,
// and the next boards carry no file, so no request is refused again.
func TestRefusedPictureLearnt(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, true)
	users := []string{"u1", "u2"}
	board, prompt, sel, val := toActivePrompt(t, h, users, h.openQwixx(users))
	g, _, _ := h.qstate()
	noFiles := &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusForbidden},
		Message: &discordgo.APIErrorMessage{Code: discordgo.ErrCodeMissingPermissions}}
	refusals := 0
	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Edit != nil && len(c.Edit.Files) > 0 {
			refusals++
			return noFiles
		}
		return nil
	}
	h.Rec.Mu.Unlock()
	h.ClickOn(users[g.Active], prompt, sel, val) // the board's edit is owed
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, r.Due))
	_, td, _ := h.qstate()
	assert.Empty(t, td.Outbox, "the board was edited")
	assert.True(t, boardShows(t, h, board.ID), "the board shows the game")
	h.Rec.Mu.Lock()
	n := refusals
	h.Rec.Mu.Unlock()
	assert.Positive(t, n, "the picture was tried once")
	assert.LessOrEqual(t, n, 2, "at most once through the interaction and once with the bot token")

	// The next decision's board carries no file.
	_, prompt, sel, val = toActivePrompt(t, h, users, h.Rec.Message(board.ID))
	g, _, _ = h.qstate()
	h.ClickOn(users[g.Active], prompt, sel, val)
	r, err = h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, r.Due))
	h.Rec.Mu.Lock()
	assert.Equal(t, n, refusals, "no picture tried again")
	h.Rec.Mu.Unlock()
}
