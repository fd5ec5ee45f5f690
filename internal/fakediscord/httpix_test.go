package fakediscord_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

// endpoint is a minimal interactions endpoint: it checks the signature
// (unless lax), answers PING, and answers commands inline with a message.
func endpoint(t *testing.T, pubHex string, lax bool, served *atomic.Int64) *httptest.Server {
	pub, err := hex.DecodeString(pubHex)
	require.NoError(t, err)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		sig, _ := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
		msg := append([]byte(r.Header.Get("X-Signature-Timestamp")), body...)
		if !lax && (len(sig) != ed25519.SignatureSize || !ed25519.Verify(pub, msg, sig)) {
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		var ix struct {
			Type int `json:"type"`
		}
		_ = json.Unmarshal(body, &ix)
		w.Header().Set("Content-Type", "application/json")
		if ix.Type == 1 {
			_, _ = w.Write([]byte(`{"type":1}`))
			return
		}
		if served != nil {
			served.Add(1)
		}
		_, _ = w.Write([]byte(`{"type":4,"data":{"content":"answered over HTTP"}}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func registerDix(t *testing.T, w *world) {
	t.Helper()
	status, body := call(t, w.srv, http.MethodPut, "/applications/"+w.srv.ApplicationID()+"/guilds/"+w.guild.ID+"/commands", []obj{{"name": "dix", "description": "Play"}})
	require.Equal(t, http.StatusOK, status, "%v", body)
}

// TestInteractionsEndpointCheck: like Discord when the URL is saved, a
// PING must be answered {"type":1} and a bad signature refused with 401.
// https://discord.com/developers/docs/interactions/overview#setting-up-an-endpoint
func TestInteractionsEndpointCheck(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tests := []struct {
		name string
		url  string
		ok   bool
	}{
		{"verifies signatures", endpoint(t, w.srv.PublicKey(), false, nil).URL, true},
		{"accepts any signature", endpoint(t, w.srv.PublicKey(), true, nil).URL, false},
		{"not a PONG", httptest.NewServer(http.NotFoundHandler()).URL, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := w.srv.SetInteractionsEndpoints(ctxT(t), tc.url)
			if tc.ok {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, fakediscord.ErrEndpointCheck)
			}
		})
	}
}

// TestHTTPInteractionsRoundRobinAndFailover: interactions go to the
// endpoints in turn, the reply is the initial response, and a dead replica
// is skipped so no interaction goes unanswered.
func TestHTTPInteractionsRoundRobinAndFailover(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	registerDix(t, w)
	var counts [3]atomic.Int64
	var urls []string
	var replicas []*httptest.Server
	for i := range counts {
		e := endpoint(t, w.srv.PublicKey(), false, &counts[i])
		replicas = append(replicas, e)
		urls = append(urls, e.URL)
	}
	require.NoError(t, w.srv.SetInteractionsEndpoints(ctxT(t), urls...))
	assert.False(t, w.srv.Connected(), "no gateway needed")

	run := func(n int) {
		for i := 0; i < n; i++ {
			ix, err := w.srv.RunCommand(ctxT(t), w.alice.ID, w.channel.ID, "/dix")
			require.NoError(t, err)
			resp, err := ix.Wait(ctxT(t))
			require.NoError(t, err)
			assert.Equal(t, "answered over HTTP", resp.Message.Content)
			assert.Equal(t, fakediscord.CallbackChannelMessage, resp.Type)
		}
	}
	run(6)
	for i := range counts {
		assert.Equal(t, int64(2), counts[i].Load(), "replica %d", i)
	}
	replicas[1].Close() // killed mid-game
	run(6)
	assert.Equal(t, int64(0), counts[1].Load()-2)
	assert.Equal(t, int64(12), counts[0].Load()+counts[1].Load()+counts[2].Load())
	st := w.srv.Stats()
	assert.Equal(t, 12, st.HTTPDeliveries)
	assert.Equal(t, 2, st.HTTPFailovers, "the dead replica's turns went to the next one")
	for _, r := range w.srv.Interactions() {
		assert.True(t, r.InTime, "interaction %s", r.ID)
	}
	assert.Empty(t, w.srv.Violations())
}

// TestHTTPInteractionsDeferredToREST: a 202 reply leaves the answer to the
// callback route, as Discord documents.
func TestHTTPInteractionsDeferredToREST(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	registerDix(t, w)
	pub, _ := hex.DecodeString(w.srv.PublicKey())
	srv := w.srv
	e := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		sig, _ := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
		if !ed25519.Verify(pub, append([]byte(r.Header.Get("X-Signature-Timestamp")), body...), sig) {
			rw.WriteHeader(http.StatusUnauthorized)
			return
		}
		var ix struct {
			ID, Token string
			Type      int
		}
		_ = json.Unmarshal(body, &ix)
		if ix.Type == 1 {
			_, _ = rw.Write([]byte(`{"type":1}`))
			return
		}
		b, _ := json.Marshal(obj{"type": 4, "data": obj{"content": "via REST"}})
		resp, err := http.Post(srv.URL()+"api/v10/interactions/"+ix.ID+"/"+ix.Token+"/callback", "application/json", bytes.NewReader(b))
		if err == nil {
			resp.Body.Close()
		}
		rw.WriteHeader(http.StatusAccepted)
	}))
	t.Cleanup(e.Close)
	require.NoError(t, w.srv.SetInteractionsEndpoints(ctxT(t), e.URL))
	ix, err := w.srv.RunCommand(ctxT(t), w.alice.ID, w.channel.ID, "/dix")
	require.NoError(t, err)
	resp, err := ix.Wait(ctxT(t))
	require.NoError(t, err)
	assert.Equal(t, "via REST", resp.Message.Content)
	assert.Empty(t, w.srv.Violations())
}

// TestSharding: IDENTIFY's shard pair decides which guilds' events a
// session receives: shard_id = (guild_id >> 22) % num_shards.
// https://discord.com/developers/docs/events/gateway#sharding
func TestSharding(t *testing.T) {
	t.Parallel()
	srv := fakediscord.Start(t, fakediscord.Options{RecommendedShards: 2})
	r := callH(t, srv, srv.Token(), http.MethodGet, "/gateway/bot", nil)
	assert.Equal(t, float64(2), r.body["shards"])

	// Guilds until both shards have one.
	var guilds [2][]fakediscord.Guild
	for len(guilds[0]) == 0 || len(guilds[1]) == 0 {
		g := srv.AddGuild(fakediscord.GuildSpec{Name: "g"})
		var id uint64
		_, _ = fmt.Sscan(g.ID, &id)
		guilds[(id>>22)%2] = append(guilds[(id>>22)%2], g)
	}
	for shard := 0; shard < 2; shard++ {
		ws := dial(t, srv)
		require.NoError(t, ws.WriteJSON(obj{"op": 2, "d": obj{"token": srv.Token(), "intents": 0, "properties": obj{}, "shard": []int{shard, 2}}}))
		ready := read(t, ws)
		require.Equal(t, "READY", ready.T)
		var d struct {
			Guilds []struct{ ID string } `json:"guilds"`
			Shard  []int                 `json:"shard"`
		}
		require.NoError(t, json.Unmarshal(ready.D, &d))
		assert.Equal(t, []int{shard, 2}, d.Shard)
		var got []string
		for _, g := range d.Guilds {
			got = append(got, g.ID)
		}
		var want []string
		for _, g := range guilds[shard] {
			want = append(want, g.ID)
		}
		assert.ElementsMatch(t, want, got, "shard %d", shard)
	}
	bad := dial(t, srv)
	require.NoError(t, bad.WriteJSON(obj{"op": 2, "d": obj{"token": srv.Token(), "shard": []int{2, 2}}}))
	assert.Equal(t, 4010, closeCode(t, bad))
}

// pngOf returns a small PNG.
func pngOf(t *testing.T, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

type file struct {
	name string
	data []byte
}

// multipartCall sends payload_json and files[n] as Discord takes them.
func multipartCall(t *testing.T, srv *fakediscord.Server, token, method, path string, payload any, files ...file) reply {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="payload_json"`)
	h.Set("Content-Type", "application/json")
	pw, _ := mw.CreatePart(h)
	require.NoError(t, json.NewEncoder(pw).Encode(payload))
	for i, f := range files {
		fw, err := mw.CreateFormFile(fmt.Sprintf("files[%d]", i), f.name)
		require.NoError(t, err)
		_, _ = fw.Write(f.data)
	}
	require.NoError(t, mw.Close())
	req, err := http.NewRequest(method, srv.URL()+"api/v10"+path, &b)
	require.NoError(t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if token != "" {
		req.Header.Set("Authorization", "Bot "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out obj
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return reply{resp.StatusCode, out, resp.Header}
}

// TestAttachments: files in multipart bodies, with Discord's limits (10
// files, 10 MiB per file, Attach Files), listed on the message, served by
// the stand-in and referenced from embeds as attachment://name.
// https://discord.com/developers/docs/reference#uploading-files
func TestAttachments(t *testing.T) {
	t.Parallel()
	board := file{"board.png", pngOf(t, 40, 20)}
	withImage := obj{"embeds": []obj{{"title": "Board", "image": obj{"url": "attachment://board.png"}}}, "attachments": []obj{{"id": 0, "description": "the board"}}}
	many := func(n int) []file {
		out := make([]file, n)
		for i := range out {
			out[i] = file{fmt.Sprintf("f%d.png", i), board.data}
		}
		return out
	}
	tests := []struct {
		name     string
		perms    int64
		files    []file
		wantCode float64 // 0: accepted
	}{
		{"one image in an embed", allBot, []file{board}, 0},
		{"10 files", allBot, many(10), 0},
		{"11 files", allBot, many(11), 30015},
		{"a file of 10 MiB", allBot, []file{{"big.bin", make([]byte, 10<<20)}}, 0},
		{"a file over 10 MiB", allBot, []file{{"big.bin", make([]byte, 10<<20+1)}}, 40005},
		{"no Attach Files", allBot &^ fakediscord.PermAttachFiles, []file{board}, 50013},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			require.NoError(t, w.srv.SetBotPermissions(w.channel.ID, tc.perms))
			r := multipartCall(t, w.srv, w.srv.Token(), http.MethodPost, "/channels/"+w.channel.ID+"/messages", withImage, tc.files...)
			if tc.wantCode != 0 {
				assert.Equal(t, tc.wantCode, r.body["code"], "%v", r.body)
				assert.Empty(t, w.srv.Transcript(w.channel.ID))
				return
			}
			require.Equal(t, http.StatusOK, r.status, "%v", r.body)
			m, ok := w.srv.Message(r.body["id"].(string))
			require.True(t, ok)
			require.Len(t, m.Attachments, len(tc.files))
			st, size := w.srv.Stats(), 0
			for _, f := range tc.files {
				size += len(f.data)
			}
			assert.Equal(t, len(tc.files), st.Uploads, "files counted")
			assert.Equal(t, int64(size), st.UploadedBytes, "bytes counted")
			a := m.Attachments[0]
			assert.Equal(t, tc.files[0].name, a.Filename)
			assert.Equal(t, len(tc.files[0].data), a.Size)
			resp, err := http.Get(a.URL)
			require.NoError(t, err)
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			assert.Equal(t, tc.files[0].data, got, "served by the stand-in")
			if tc.files[0].name == "board.png" {
				assert.Equal(t, a.URL, m.Embeds[0].Image.URL, "attachment:// resolved")
				assert.Equal(t, 40, m.Embeds[0].Image.Width)
			}
		})
	}
}

// TestAttachmentsInInteractionAnswers: the picture goes with the answer
// that updates the clicked message (callback type 7), and an edit keeps
// only the attachments it lists.
func TestAttachmentsInInteractionAnswers(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rawBot(t, w.srv)
	ix := interactionFor(t, w)
	board := file{"board.png", pngOf(t, 8, 8)}
	r := multipartCall(t, w.srv, "", http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback",
		obj{"type": 4, "data": obj{"embeds": []obj{{"image": obj{"url": "attachment://board.png"}}}, "components": []obj{row(button("go"))}}}, board)
	require.Equal(t, http.StatusNoContent, r.status, "%v", r.body)
	resp, err := ix.Wait(ctxT(t))
	require.NoError(t, err)
	require.Len(t, resp.Message.Attachments, 1)

	click, err := w.srv.Click(ctxT(t), w.bruno.ID, resp.Message.ID, "go")
	require.NoError(t, err)
	next := file{"board.png", pngOf(t, 16, 8)}
	r = multipartCall(t, w.srv, "", http.MethodPost, "/interactions/"+click.ID+"/"+click.Token+"/callback",
		obj{"type": 7, "data": obj{"embeds": []obj{{"image": obj{"url": "attachment://board.png"}}}, "attachments": []obj{{"id": 0}}}}, next)
	require.Equal(t, http.StatusNoContent, r.status, "%v", r.body)
	m, _ := w.srv.Message(resp.Message.ID)
	require.Len(t, m.Attachments, 1, "the old picture was not listed: replaced")
	assert.Equal(t, 16, m.Embeds[0].Image.Width)
	assert.NotEqual(t, resp.Message.Attachments[0].ID, m.Attachments[0].ID)

	r = multipartCall(t, w.srv, "", http.MethodPatch, "/webhooks/"+w.srv.ApplicationID()+"/"+click.Token+"/messages/@original",
		obj{"content": "kept", "attachments": []obj{{"id": m.Attachments[0].ID}}})
	require.Equal(t, http.StatusOK, r.status, "%v", r.body)
	m, _ = w.srv.Message(resp.Message.ID)
	require.Len(t, m.Attachments, 1, "listed: kept")
	assert.Empty(t, w.srv.Violations())
}

// TestAttachmentsKeptOrRefused: an edit without files and without
// "attachments" keeps the message's picture, which its new embed shows
// again by name, on each route that edits (an interaction's answer, the
// interaction's token, the bot token), and uploads nothing; an
// "attachments" entry naming neither a file of the message nor a files[n]
// of the request is refused, and the message is left as it was
// (https://discord.com/developers/docs/reference#editing-message-attachments).
func TestAttachmentsKeptOrRefused(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rawBot(t, w.srv)
	ix := interactionFor(t, w)
	board := file{"board.png", pngOf(t, 8, 8)}
	shown := func(title string) obj {
		return obj{"embeds": []obj{{"title": title, "image": obj{"url": "attachment://board.png"}}}, "components": []obj{row(button("go"))}}
	}
	r := multipartCall(t, w.srv, "", http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback", obj{"type": 4, "data": shown("first")}, board)
	require.Equal(t, http.StatusNoContent, r.status, "%v", r.body)
	resp, err := ix.Wait(ctxT(t))
	require.NoError(t, err)
	msg := resp.Message.ID
	first, _ := w.srv.Message(msg)
	require.Len(t, first.Attachments, 1)
	att := first.Attachments[0]
	uploads := w.srv.Stats().Uploads
	kept := func(title string) {
		t.Helper()
		m, _ := w.srv.Message(msg)
		require.Len(t, m.Attachments, 1, title)
		assert.Equal(t, att.ID, m.Attachments[0].ID, "%s: the same file", title)
		assert.Equal(t, title, m.Embeds[0].Title)
		assert.Equal(t, att.URL, m.Embeds[0].Image.URL, "%s: the embed shows the kept file", title)
		assert.Empty(t, m.Loose(), title)
		assert.Equal(t, uploads, w.srv.Stats().Uploads, "%s: nothing uploaded", title)
	}

	click, err := w.srv.Click(ctxT(t), w.bruno.ID, msg, "go")
	require.NoError(t, err)
	r = multipartCall(t, w.srv, "", http.MethodPost, "/interactions/"+click.ID+"/"+click.Token+"/callback", obj{"type": 7, "data": shown("answer")})
	require.Equal(t, http.StatusNoContent, r.status, "%v", r.body)
	kept("answer")

	// An answer that lists the message's file by its id, uploading
	// nothing, keeps it: the same file, shown by the new embed.
	click, err = w.srv.Click(ctxT(t), w.bruno.ID, msg, "go")
	require.NoError(t, err)
	listed := shown("listed answer")
	listed["attachments"] = []obj{{"id": att.ID}}
	r = multipartCall(t, w.srv, "", http.MethodPost, "/interactions/"+click.ID+"/"+click.Token+"/callback", obj{"type": 7, "data": listed})
	require.Equal(t, http.StatusNoContent, r.status, "%v", r.body)
	kept("listed answer")

	r = multipartCall(t, w.srv, "", http.MethodPatch, "/webhooks/"+w.srv.ApplicationID()+"/"+click.Token+"/messages/@original", shown("token edit"))
	require.Equal(t, http.StatusOK, r.status, "%v", r.body)
	kept("token edit")

	r = multipartCall(t, w.srv, w.srv.Token(), http.MethodPatch, "/channels/"+w.channel.ID+"/messages/"+msg, shown("bot edit"))
	require.Equal(t, http.StatusOK, r.status, "%v", r.body)
	kept("bot edit")

	for _, atts := range [][]obj{{{"id": "12345"}}, {{"id": att.ID}, {"id": 0}}} {
		edit := shown("refused")
		edit["attachments"] = atts
		r = multipartCall(t, w.srv, w.srv.Token(), http.MethodPatch, "/channels/"+w.channel.ID+"/messages/"+msg, edit)
		assert.Equal(t, http.StatusBadRequest, r.status, "%v", r.body)
		assert.Equal(t, float64(50035), r.body["code"], "%v", r.body)
		kept("bot edit")
	}
	click, err = w.srv.Click(ctxT(t), w.bruno.ID, msg, "go")
	require.NoError(t, err)
	edit := shown("refused")
	edit["attachments"] = []obj{{"id": "12345"}}
	r = multipartCall(t, w.srv, "", http.MethodPost, "/interactions/"+click.ID+"/"+click.Token+"/callback", obj{"type": 7, "data": edit})
	assert.Equal(t, http.StatusBadRequest, r.status, "%v", r.body)
	kept("bot edit")
	assert.Len(t, w.srv.Violations(), 3, "each id the message never held is a breach")

	// Another request replaces the file; an answer listing the file the
	// message held when it was clicked is refused the same way, but the
	// request was right when it was made: no breach. Listing a file the
	// message never held still is one.
	replace := shown("replaced")
	replace["attachments"] = []obj{{"id": 0}}
	r = multipartCall(t, w.srv, w.srv.Token(), http.MethodPatch, "/channels/"+w.channel.ID+"/messages/"+msg, replace, board)
	require.Equal(t, http.StatusOK, r.status, "%v", r.body)
	now, _ := w.srv.Message(msg)
	require.Len(t, now.Attachments, 1)
	require.NotEqual(t, att.ID, now.Attachments[0].ID, "a new file")
	click, err = w.srv.Click(ctxT(t), w.bruno.ID, msg, "go")
	require.NoError(t, err)
	for _, tc := range []struct {
		id     string
		breach bool
	}{{att.ID, false}, {"12345", true}} {
		before := len(w.srv.Violations())
		stale := shown("stale")
		stale["attachments"] = []obj{{"id": tc.id}}
		r = multipartCall(t, w.srv, "", http.MethodPost, "/interactions/"+click.ID+"/"+click.Token+"/callback", obj{"type": 7, "data": stale})
		assert.Equal(t, http.StatusBadRequest, r.status, "%v", r.body)
		assert.Equal(t, float64(50035), r.body["code"], "%v", r.body)
		if tc.breach {
			assert.Len(t, w.srv.Violations(), before+1, "id %s: a breach", tc.id)
		} else {
			assert.Len(t, w.srv.Violations(), before, "id %s: overtaken, no breach", tc.id)
		}
	}
	assert.Equal(t, 1, w.srv.Stats().Overtaken, "the overtaken answer is counted")
	// The answer that uploads the picture again is taken.
	r = multipartCall(t, w.srv, "", http.MethodPost, "/interactions/"+click.ID+"/"+click.Token+"/callback", obj{"type": 7, "data": shown("uploaded again")}, board)
	assert.Equal(t, http.StatusNoContent, r.status, "%v", r.body)
}

// TestEmptyUpload: a files[n] part of no bytes on each route that takes
// files. Discord documents no refusal of it (a part carries "the file
// contents", https://discord.com/developers/docs/reference#uploading-files):
// it keeps a 0-byte file, whose picture shows nothing. The stand-in takes
// the request as Discord does and records a Violation naming the part,
// so a bot that sends a reader already read to its end fails its tests.
func TestEmptyUpload(t *testing.T) {
	t.Parallel()
	board := file{"board.png", pngOf(t, 8, 8)}
	empty := file{"board.png", nil}
	withImage := obj{"embeds": []obj{{"image": obj{"url": "attachment://board.png"}}}}
	routes := []struct {
		name string
		call func(t *testing.T, w *world, f file) reply
		ok   int
	}{
		{"create message", func(t *testing.T, w *world, f file) reply {
			return multipartCall(t, w.srv, w.srv.Token(), http.MethodPost, "/channels/"+w.channel.ID+"/messages", withImage, f)
		}, http.StatusOK},
		{"edit message", func(t *testing.T, w *world, f file) reply {
			r := multipartCall(t, w.srv, w.srv.Token(), http.MethodPost, "/channels/"+w.channel.ID+"/messages", obj{"content": "board"})
			require.Equal(t, http.StatusOK, r.status, "%v", r.body)
			// An edit that uploads says which files stay (msgFilesKept).
			listed := obj{"embeds": withImage["embeds"], "attachments": []obj{{"id": 0}}}
			return multipartCall(t, w.srv, w.srv.Token(), http.MethodPatch, "/channels/"+w.channel.ID+"/messages/"+r.body["id"].(string), listed, f)
		}, http.StatusOK},
		{"interaction answer", func(t *testing.T, w *world, f file) reply {
			rawBot(t, w.srv)
			ix := interactionFor(t, w)
			return multipartCall(t, w.srv, "", http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback", obj{"type": 4, "data": withImage}, f)
		}, http.StatusNoContent},
		{"follow-up", func(t *testing.T, w *world, f file) reply {
			rawBot(t, w.srv)
			ix := interactionFor(t, w)
			r := multipartCall(t, w.srv, "", http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback", obj{"type": 5})
			require.Equal(t, http.StatusNoContent, r.status, "%v", r.body)
			return multipartCall(t, w.srv, "", http.MethodPost, "/webhooks/"+w.srv.ApplicationID()+"/"+ix.Token, withImage, f)
		}, http.StatusOK},
	}
	for _, rt := range routes {
		for _, tc := range []struct {
			name  string
			f     file
			wrong bool
		}{{"a picture", board, false}, {"no bytes", empty, true}} {
			t.Run(rt.name+"/"+tc.name, func(t *testing.T) {
				w := newWorld(t)
				r := rt.call(t, w, tc.f)
				require.Equal(t, rt.ok, r.status, "taken, as Discord takes it: %v", r.body)
				vs := w.srv.Violations()
				if !tc.wrong {
					assert.Empty(t, vs)
					return
				}
				require.Len(t, vs, 1)
				var v *fakediscord.Violation
				require.ErrorAs(t, vs[0], &v)
				assert.Contains(t, v.Message, "empty file upload")
				assert.Contains(t, v.Details, "files[0] (board.png)")
				assert.Equal(t, rt.ok, v.Status)
			})
		}
	}
}

// TestAttachmentsListing: a message's "attachments", as the API returns
// it, lists only the files no embed shows by reference (attachment://name):
// Discord shows those in the embed alone
// (https://discord.com/developers/docs/reference#uploading-files,
// https://discord.com/developers/docs/resources/message#message-object;
// https://github.com/discord/discord-api-docs/issues/1340). An edit that
// sets embeds again decides anew: without the picture, or with the CDN URL
// a GET returned instead of attachment://name
// (https://github.com/discord/discord-api-docs/issues/5675), the file is
// shown on its own; attachment://name again keeps it in the embed; an edit
// that leaves the embeds alone changes nothing.
func TestAttachmentsListing(t *testing.T) {
	t.Parallel()
	board := file{"board.png", pngOf(t, 8, 8)}
	ref := obj{"title": "Board", "image": obj{"url": "attachment://board.png"}}
	tests := []struct {
		name     string
		create   obj
		edit     func(got obj) obj // nil: no edit
		listed   int               // files in "attachments"
		held     int               // files the message holds
		embedded bool              // the embed shows the file
	}{
		{"shown by the embed", obj{"embeds": []obj{ref}}, nil, 0, 1, true},
		{"no embed shows it", obj{"content": "a file"}, nil, 1, 1, false},
		{"an embed showing another file", obj{"embeds": []obj{{"image": obj{"url": "attachment://other.png"}}}}, nil, 1, 1, false},
		{"edit leaving the embeds alone", obj{"embeds": []obj{ref}}, func(obj) obj { return obj{"content": "new text"} }, 0, 1, true},
		{"edit to an embed without picture", obj{"embeds": []obj{ref}}, func(obj) obj {
			return obj{"embeds": []obj{{"title": "Bought"}}}
		}, 1, 1, false},
		{"edit to no embed", obj{"embeds": []obj{ref}}, func(obj) obj { return obj{"content": "Bought", "embeds": []obj{}} }, 1, 1, false},
		{"edit re-sending the embed with its CDN URL", obj{"embeds": []obj{ref}}, func(got obj) obj {
			return obj{"embeds": got["embeds"], "content": "refused"}
		}, 1, 1, true},
		{"edit re-sending the embed with attachment://name", obj{"embeds": []obj{ref}}, func(obj) obj {
			return obj{"embeds": []obj{ref}, "content": "refused"}
		}, 0, 1, true},
		{"edit to no picture with attachments []", obj{"embeds": []obj{ref}}, func(obj) obj {
			return obj{"content": "Bought", "embeds": []obj{}, "attachments": []obj{}}
		}, 0, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			base := "/channels/" + w.channel.ID + "/messages"
			r := multipartCall(t, w.srv, w.srv.Token(), http.MethodPost, base, tc.create, board)
			require.Equal(t, http.StatusOK, r.status, "%v", r.body)
			id := r.body["id"].(string)
			if tc.edit != nil {
				got := callH(t, w.srv, w.srv.Token(), http.MethodGet, base+"/"+id, nil)
				require.Equal(t, http.StatusOK, got.status)
				r = callH(t, w.srv, w.srv.Token(), http.MethodPatch, base+"/"+id, tc.edit(got.body))
				require.Equal(t, http.StatusOK, r.status, "%v", r.body)
			}
			listed, _ := r.body["attachments"].([]any)
			assert.Len(t, listed, tc.listed, "attachments in the answer")
			get := callH(t, w.srv, w.srv.Token(), http.MethodGet, base+"/"+id, nil)
			listed, _ = get.body["attachments"].([]any)
			assert.Len(t, listed, tc.listed, "attachments in a GET")
			m, ok := w.srv.Message(id)
			require.True(t, ok)
			assert.Len(t, m.Attachments, tc.held, "files held")
			assert.Len(t, m.Loose(), tc.listed, "files shown on their own")
			if tc.embedded {
				require.NotEmpty(t, m.Embeds)
				require.NotNil(t, m.Embeds[0].Image)
				assert.Equal(t, m.Attachments[0].URL, m.Embeds[0].Image.URL, "the embed shows the file")
			}
			if tc.held > 0 {
				_, data, ok := w.srv.File(m.Attachments[0].ID)
				require.True(t, ok)
				assert.Equal(t, board.data, data)
			}
		})
	}
}

// TestAttachmentsAddedWithoutList: an edit that uploads a file without an
// "attachments" list keeps the message's old file beside the new one, on
// the interaction's token and on the bot token, as Discord does, and is
// recorded as a violation; the same edit listing the files to keep is not.
func TestAttachmentsAddedWithoutList(t *testing.T) {
	t.Parallel()
	for _, route := range []string{"token", "bot"} {
		t.Run(route, func(t *testing.T) {
			w := newWorld(t)
			rawBot(t, w.srv)
			ix := interactionFor(t, w)
			shown := obj{"embeds": []obj{{"title": "board", "image": obj{"url": "attachment://board.png"}}}}
			r := multipartCall(t, w.srv, "", http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback",
				obj{"type": 4, "data": shown}, file{"board.png", pngOf(t, 8, 8)})
			require.Equal(t, http.StatusNoContent, r.status, "%v", r.body)
			resp, err := ix.Wait(ctxT(t))
			require.NoError(t, err)
			msg := resp.Message.ID
			path, token := "/webhooks/"+w.srv.ApplicationID()+"/"+ix.Token+"/messages/@original", ""
			if route == "bot" {
				path, token = "/channels/"+w.channel.ID+"/messages/"+msg, w.srv.Token()
			}

			r = multipartCall(t, w.srv, token, http.MethodPatch, path, shown, file{"board.png", pngOf(t, 16, 8)})
			require.Equal(t, http.StatusOK, r.status, "%v", r.body)
			m, _ := w.srv.Message(msg)
			assert.Len(t, m.Attachments, 2, "the old file stays beside the new one")
			v := w.srv.Violations()
			require.Len(t, v, 1)
			assert.Contains(t, v[0].Error(), "without an attachments list")

			listed := obj{"embeds": shown["embeds"], "attachments": []obj{{"id": 0}}}
			r = multipartCall(t, w.srv, token, http.MethodPatch, path, listed, file{"board.png", pngOf(t, 24, 8)})
			require.Equal(t, http.StatusOK, r.status, "%v", r.body)
			m, _ = w.srv.Message(msg)
			assert.Len(t, m.Attachments, 1, "listed: only the new file")
			assert.Len(t, w.srv.Violations(), 1, "no second violation")
		})
	}
}
