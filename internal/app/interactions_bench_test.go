package app

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// BenchmarkEndpointClick serves a click on a board (one of the stand-in's
// interactions, a fresh id each time) at the interactions endpoint: the
// checks, the signature and the decoding, to the handler's answer.
func BenchmarkEndpointClick(b *testing.B) {
	raw, err := os.ReadFile("../discordapi/testdata/interactions/button-dix-11.json")
	if err != nil {
		b.Fatal(err)
	}
	var ix struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(raw, &ix); err != nil || ix.ID == "" {
		b.Fatal("the payload's id", err)
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	e := &endpoint{
		key:    pub,
		gate:   newGate(nil, slog.New(slog.DiscardHandler)),
		handle: func(_ *discordgo.InteractionCreate, _ []byte, answered func()) { answered() },
		now:    func() time.Time { return now },
		log:    slog.New(slog.DiscardHandler),
	}
	s := signer{pub, priv}
	reqs := make([]*http.Request, b.N)
	for i := range reqs {
		body := strings.ReplaceAll(string(raw), `"`+ix.ID+`"`, fmt.Sprintf(`"%019d"`, i+1))
		reqs[i] = s.request([]byte(body), now)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for _, r := range reqs {
		if w := serve(e, r); w.Code != http.StatusAccepted {
			b.Fatal(w.Code, w.Body.String())
		}
	}
}
