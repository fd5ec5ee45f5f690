package app

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/internal/discordapi"
	"github.com/dixgame/dixbot/internal/workers"
)

// The interactions endpoint: Discord POSTs each interaction to the URL set
// in the developer portal instead of sending it on the gateway
// (https://discord.com/developers/docs/interactions/receiving-and-responding#receiving-an-interaction).
// Every request is signed with the application's Ed25519 key over the
// timestamp header followed by the body; "If you are not properly validating
// this signature header, we will not allow you to save your interactions
// URL in the Dev Portal", and Discord regularly sends invalid signatures to
// check that they are refused with 401
// (https://discord.com/developers/docs/interactions/overview#setting-up-an-endpoint-validating-security-request-headers).
const (
	// maxInteractionBody bounds a request's body. An interaction is a few
	// kilobytes (a modal's text, a command's resolved users); a megabyte is
	// far more than any, and a body past it is refused with 413 unread.
	maxInteractionBody = 1 << 20
	// maxClockSkew is how far the signed timestamp may be from this
	// machine's clock. An interaction cannot be answered 3 s after it was
	// created, so an older request can only be a replay; a minute leaves
	// room for clocks that disagree.
	maxClockSkew = time.Minute
	// replyWait bounds how long a request waits for the bot's first answer
	// before being replied to anyway: past Discord's 3 s deadline the
	// answer can no longer be given.
	replyWait = 3 * time.Second
)

// pingType and pongType are a PING interaction and its answer.
const (
	pingType = 1
	pongType = 1
)

// endpoint serves the interactions endpoint. It checks each request (size,
// signature, timestamp), answers PING itself, and hands every other
// interaction to handle in a goroutine of its own.
//
// The bot answers through the interaction callback route, exactly as in
// gateway mode, and the HTTP request is replied to with 202 Accepted and no
// body as soon as that answer is sent. The work after the answer (the new
// board, the pings, with the interaction's token) goes on after the reply.
// Answering inline in the HTTP reply would save one request, but the bot
// could not know when Discord has taken that answer, and its follow-ups,
// sent right after, could reach Discord first.
type endpoint struct {
	key ed25519.PublicKey
	// gate drops an interaction this process already took, and counts
	// the handlers running for the shutdown.
	gate *gate
	// handle handles one interaction and calls answered once its first
	// answer is sent (bot.Bot.HandleAnswered).
	handle func(i *discordgo.InteractionCreate, raw []byte, answered func())
	now    func() time.Time
	log    *slog.Logger
}

// parsePublicKey reads the application's public key as the developer
// portal shows it: 64 hexadecimal digits.
func parsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, errors.New("not an Ed25519 public key (64 hexadecimal digits, the application's Public Key in the developer portal)")
	}
	return ed25519.PublicKey(b), nil
}

func (e *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "interactions are POSTed", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxInteractionBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "unreadable body", http.StatusBadRequest)
		return
	}
	if why := e.verify(r.Header, body); why != "" {
		e.log.Warn("interaction request refused", "why", why, "remote", r.RemoteAddr)
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	ic, err := discordapi.DecodeInteraction(body)
	if isPing(ic, err, body) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"type":` + strconv.Itoa(pongType) + `}`))
		return
	}
	if err != nil || ic.Interaction == nil || ic.ID == "" {
		http.Error(w, "not an interaction", http.StatusBadRequest)
		return
	}
	if !e.gate.admit(ic.ID) {
		// Already taken here: its first delivery answers it.
		w.WriteHeader(http.StatusAccepted)
		return
	}
	answered := make(chan struct{})
	go func() {
		defer e.gate.leave()
		workers.GrowStack()
		e.handle(ic, body, func() { close(answered) })
	}()
	timer := time.NewTimer(replyWait)
	defer timer.Stop()
	select {
	case <-answered:
	case <-timer.C:
		e.log.Warn("no answer to the interaction within Discord's deadline", "interaction", ic.ID)
	case <-r.Context().Done():
	}
	w.WriteHeader(http.StatusAccepted)
}

// isPing reports whether body, decoded as ic (err), is a PING. Only its
// type is read: a body that is not an interaction as discordgo decodes one
// is still a PING if its "type" is 1.
func isPing(ic *discordgo.InteractionCreate, err error, body []byte) bool {
	if err == nil && ic.Interaction != nil {
		return ic.Type == pingType
	}
	var kind struct {
		Type int `json:"type"`
	}
	return json.Unmarshal(body, &kind) == nil && kind.Type == pingType
}

// verify checks the request's signature and timestamp and returns why it is
// refused, or "".
func (e *endpoint) verify(h http.Header, body []byte) string {
	sig, err := hex.DecodeString(h.Get("X-Signature-Ed25519"))
	if err != nil || len(sig) != ed25519.SignatureSize {
		return "no valid X-Signature-Ed25519"
	}
	ts := h.Get("X-Signature-Timestamp")
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return "no valid X-Signature-Timestamp"
	}
	msg := make([]byte, 0, len(ts)+len(body))
	msg = append(append(msg, ts...), body...)
	if !ed25519.Verify(e.key, msg, sig) {
		return "signature does not verify"
	}
	// The signature covers the timestamp, so a replayed request keeps
	// its old one.
	if skew := e.now().Sub(time.Unix(secs, 0)); skew > maxClockSkew || skew < -maxClockSkew {
		return "timestamp " + ts + " is too far from now"
	}
	return ""
}
