// Package deck is the Dixxit picture deck (DIXXIT-SPEC X1, section 8): 71
// cards with a picture on each face, every face a square PNG with its title,
// keywords and synonyms in English and French, embedded in the binary.
//
// The pictures are public-domain drawings of the Open Clip Art Library (the
// Debian package openclipart-svg) rendered by scripts/dixxit-deck.sh from
// manifest.json, which names each face's source file, title, keywords,
// synonyms and licence; docs/dixxit-deck.md credits them and tells how to regenerate the
// deck.
//
// A card is 0..Cards()-1; a face is 0 ("a") or 1 ("b"). Out-of-range
// arguments give nil or empty results, never a panic. Every function is safe
// for concurrent use.
package deck

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
)

// Faces is the number of faces of a card: 0 is face "a", 1 is face "b".
const Faces = 2

// Side is the width and height in pixels of every face's picture.
const Side = 256

//go:embed manifest.json png/*.png
var files embed.FS

// Entry is one face as manifest.json describes it.
type Entry struct {
	Card       int      `json:"card"`
	Face       string   `json:"face"` // "a" or "b"
	File       string   `json:"file"` // the PNG, relative to png/
	Source     string   `json:"source"`
	Author     string   `json:"author"`
	Licence    string   `json:"licence"`
	TitleEn    string   `json:"title_en"`
	TitleFr    string   `json:"title_fr"`
	KeywordsEn []string `json:"keywords_en"`
	KeywordsFr []string `json:"keywords_fr"`
	SynonymsEn []string `json:"synonyms_en"`
	SynonymsFr []string `json:"synonyms_fr"`
}

type face struct {
	Entry
	png []byte
}

// faces holds the deck by card then face, loaded at start-up: the embedded
// manifest is part of the binary, so a bad one is a build defect and panics.
var faces = load()

func load() [][Faces]face {
	raw, err := files.ReadFile("manifest.json")
	if err != nil {
		panic(err)
	}
	var es []Entry
	if err := json.Unmarshal(raw, &es); err != nil {
		panic(fmt.Sprintf("deck: manifest.json: %v", err))
	}
	if len(es)%Faces != 0 {
		panic(fmt.Sprintf("deck: manifest.json has %d faces, not a whole number of cards", len(es)))
	}
	out := make([][Faces]face, len(es)/Faces)
	for i, e := range es {
		card, f := i/Faces, i%Faces
		if e.Card != card || e.Face != faceName(f) {
			panic(fmt.Sprintf("deck: manifest.json entry %d is card %d face %q, want card %d face %q", i, e.Card, e.Face, card, faceName(f)))
		}
		b, err := files.ReadFile(path.Join("png", e.File))
		if err != nil {
			panic(fmt.Sprintf("deck: %v", err))
		}
		out[card][f] = face{Entry: e, png: b}
	}
	return out
}

func faceName(f int) string { return string(rune('a' + f)) }

func get(card, f int) *face {
	if card < 0 || card >= len(faces) || f < 0 || f >= Faces {
		return nil
	}
	return &faces[card][f]
}

// Cards is the number of cards in the deck (71 in the full deck).
func Cards() int { return len(faces) }

// Face is the PNG picture of a card's face (Side×Side pixels), or nil if
// card or face is out of range. The bytes are shared: callers must not
// modify them.
func Face(card, f int) []byte {
	if e := get(card, f); e != nil {
		return e.png
	}
	return nil
}

// Keywords are what a card's face shows and evokes, in English and in French
// (lower case; at least five each), or nil if card or face is out of range.
// The slices are fresh copies.
func Keywords(card, f int) (en, fr []string) {
	e := get(card, f)
	if e == nil {
		return nil, nil
	}
	return append([]string(nil), e.KeywordsEn...), append([]string(nil), e.KeywordsFr...)
}

// Synonyms are other words a person may use for a card's face, in English
// and in French: words of the same meaning as its title or keywords and
// close associations ("gloomy", "fangs", "lugubre" for a bat whose keywords
// say "dark", "vampire", "sombre"). They are lower case, at least five in
// each language, none of them one of the face's keywords in either
// language, and say less of the picture than its keywords do. Nil if card
// or face is out of range; the slices are fresh copies.
func Synonyms(card, f int) (en, fr []string) {
	e := get(card, f)
	if e == nil {
		return nil, nil
	}
	return append([]string(nil), e.SynonymsEn...), append([]string(nil), e.SynonymsFr...)
}

// Title is the short title of a card's face in English and in French, or
// empty strings if card or face is out of range.
func Title(card, f int) (en, fr string) {
	if e := get(card, f); e != nil {
		return e.TitleEn, e.TitleFr
	}
	return "", ""
}

// ID names a card's face in the notation of DIXXIT-SPEC section 7: "c017a"
// is card 17, face a. It is empty if card or face is out of range.
func ID(card, f int) string {
	if get(card, f) == nil {
		return ""
	}
	return fmt.Sprintf("c%03d%s", card, faceName(f))
}

// Manifest is the deck's manifest, one entry per face ordered by card then
// face, with fresh keyword and synonym slices.
func Manifest() []Entry {
	out := make([]Entry, 0, len(faces)*Faces)
	for c := range faces {
		for f := range Faces {
			e := faces[c][f].Entry
			e.KeywordsEn = append([]string(nil), e.KeywordsEn...)
			e.KeywordsFr = append([]string(nil), e.KeywordsFr...)
			e.SynonymsEn = append([]string(nil), e.SynonymsEn...)
			e.SynonymsFr = append([]string(nil), e.SynonymsFr...)
			out = append(out, e)
		}
	}
	return out
}
