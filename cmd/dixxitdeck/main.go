// Command dixxitdeck prepares the pictures of the Dixxit deck
// (picture/dixxit/deck) and draws contact sheets of them.
//
//	dixxitdeck build [-svgroot /usr/share/openclipart/svg] DECKDIR
//	    render every face of DECKDIR/manifest.json from its source SVG into
//	    DECKDIR/png/FILE: rsvg-convert, fit (below), then pngquant to a
//	    palette of at most 256 colours
//	dixxitdeck contact [-cols 12] [-cell 128] DECKDIR OUT.png
//	    draw every face of the deck in a grid labelled card and face (17a)
//	dixxitdeck fit [-size 256] [-pad 14] [-bg f7f3ea] IN.png OUT.png
//	    crop IN (a transparent rendering of a drawing) to its ink, scale it to
//	    fit a square of side size-2*pad, centre it on a square of side size
//	    filled with bg, and write OUT (RGBA; scripts/dixxit-deck.sh quantises it)
//	dixxitdeck sheet [-cols 12] [-cell 128] OUT.png LABEL=FILE.png...
//	    draw the pictures in a grid, each with its label under it
//
// scripts/dixxit-deck.sh calls it to regenerate the deck from its manifest.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

const usage = "usage: dixxitdeck build DECKDIR | contact DECKDIR OUT.png | fit [-size N] [-pad N] [-bg RRGGBB] IN.png OUT.png | sheet [-cols N] [-cell N] OUT.png LABEL=FILE.png..."

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// run runs one subcommand and returns the exit code: 0 success, 1 failure,
// 2 bad usage.
func run(args []string, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "build":
		err = runBuild(args[1:])
	case "contact":
		err = runContact(args[1:])
	case "fit":
		err = runFit(args[1:])
	case "sheet":
		err = runSheet(args[1:])
	default:
		err = errUsage
	}
	if errors.Is(err, errUsage) {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "dixxitdeck:", err)
		return 1
	}
	return 0
}

var errUsage = errors.New("bad usage")

func runFit(args []string) error {
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	size := fs.Int("size", 256, "side of the square picture")
	pad := fs.Int("pad", 14, "margin around the drawing")
	bg := fs.String("bg", "f7f3ea", "background colour RRGGBB")
	if err := fs.Parse(args); err != nil || fs.NArg() != 2 || *size < 16 || *pad < 0 || 2**pad >= *size {
		return errUsage
	}
	col, err := parseRGB(*bg)
	if err != nil {
		return err
	}
	src, err := readPNG(fs.Arg(0))
	if err != nil {
		return err
	}
	out, err := fit(src, *size, *pad, col)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	return writePNG(fs.Arg(1), out)
}

// fit crops src to the box of its visible pixels, scales that box to fit a
// square of side size-2*pad and centres it on a size×size square of bg.
func fit(src image.Image, size, pad int, bg color.RGBA) (*image.RGBA, error) {
	box := inkBox(src)
	if box.Empty() {
		return nil, errors.New("nothing drawn")
	}
	inner := float64(size - 2*pad)
	scale := inner / float64(max(box.Dx(), box.Dy()))
	w := max(1, int(float64(box.Dx())*scale+0.5))
	h := max(1, int(float64(box.Dy())*scale+0.5))
	dst := image.NewRGBA(image.Rect(0, 0, size, size))
	draw.Draw(dst, dst.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	x0, y0 := (size-w)/2, (size-h)/2
	xdraw.CatmullRom.Scale(dst, image.Rect(x0, y0, x0+w, y0+h), src, box, draw.Over, nil)
	return dst, nil
}

// inkBox is the smallest rectangle holding every pixel of src that is not
// (almost) transparent.
func inkBox(src image.Image) image.Rectangle {
	b := src.Bounds()
	box := image.Rectangle{}
	first := true
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := src.At(x, y).RGBA(); a < 0x0800 {
				continue
			}
			p := image.Rect(x, y, x+1, y+1)
			if first {
				box, first = p, false
			} else {
				box = box.Union(p)
			}
		}
	}
	return box
}

func runSheet(args []string) error {
	fs := flag.NewFlagSet("sheet", flag.ContinueOnError)
	cols := fs.Int("cols", 12, "pictures per row")
	cell := fs.Int("cell", 128, "side of each picture in the sheet")
	if err := fs.Parse(args); err != nil || fs.NArg() < 2 || *cols < 1 || *cell < 16 {
		return errUsage
	}
	items := fs.Args()[1:]
	f, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return err
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 13, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return err
	}
	const gap, labelH = 6, 18
	rows := (len(items) + *cols - 1) / *cols
	cw, ch := *cell+gap, *cell+labelH+gap
	sheet := image.NewRGBA(image.Rect(0, 0, *cols*cw+gap, rows*ch+gap))
	draw.Draw(sheet, sheet.Bounds(), image.NewUniform(color.RGBA{0x40, 0x40, 0x48, 0xff}), image.Point{}, draw.Src)
	for i, it := range items {
		label, file, ok := strings.Cut(it, "=")
		if !ok {
			label, file = it, it
		}
		x, y := gap+(i%*cols)*cw, gap+(i / *cols)*ch
		img, err := readPNG(file)
		if err != nil {
			return err
		}
		r := image.Rect(x, y, x+*cell, y+*cell)
		xdraw.CatmullRom.Scale(sheet, r, img, img.Bounds(), draw.Over, nil)
		d := font.Drawer{Dst: sheet, Src: image.NewUniform(color.White), Face: face,
			Dot: fixed.P(x+2, y+*cell+labelH-5)}
		d.DrawString(label)
	}
	return writePNG(fs.Arg(0), sheet)
}

func parseRGB(s string) (color.RGBA, error) {
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "#"), 16, 32)
	if err != nil || len(strings.TrimPrefix(s, "#")) != 6 {
		return color.RGBA{}, fmt.Errorf("colour %q: want RRGGBB", s)
	}
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}, nil
}

func readPNG(name string) (image.Image, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return img, nil
}

func writePNG(name string, img image.Image) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// entry is the part of a face's manifest entry the build reads (the full
// record is deck.Entry in picture/dixxit/deck, which cannot be imported
// here: it embeds the PNGs this command makes).
type entry struct {
	Card   int    `json:"card"`
	Face   string `json:"face"`
	File   string `json:"file"`
	Source string `json:"source"`
}

func readManifest(dir string) ([]entry, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, err
	}
	var es []entry
	if err := json.Unmarshal(raw, &es); err != nil {
		return nil, fmt.Errorf("manifest.json: %w", err)
	}
	return es, nil
}

func runBuild(args []string) error {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	root := fs.String("svgroot", "/usr/share/openclipart/svg", "where openclipart-svg installs its drawings; manifest sources under /usr/share/openclipart/svg are looked up here")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		return errUsage
	}
	dir := fs.Arg(0)
	es, err := readManifest(dir)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "dixxitdeck")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.MkdirAll(filepath.Join(dir, "png"), 0o755); err != nil {
		return err
	}
	for _, e := range es {
		src := e.Source
		if rel, ok := strings.CutPrefix(src, "/usr/share/openclipart/svg/"); ok {
			src = filepath.Join(*root, rel)
		}
		if err := buildFace(src, filepath.Join(dir, "png", e.File), tmp); err != nil {
			return fmt.Errorf("card %d face %s: %w", e.Card, e.Face, err)
		}
	}
	return nil
}

// buildFace renders src (an SVG) into out: once small to find where the
// drawing lies on its page, again large enough for the drawing itself to be
// about 768 pixels across, then fitted to the square and quantised.
func buildFace(src, out, tmp string) error {
	const probe, want = 512, 768
	raw := filepath.Join(tmp, "raw.png")
	if err := render(src, raw, probe); err != nil {
		return err
	}
	img, err := readPNG(raw)
	if err != nil {
		return err
	}
	box := inkBox(img)
	if box.Empty() {
		return errors.New("nothing drawn")
	}
	side := min(8192, probe*want/max(box.Dx(), box.Dy(), 1))
	if side > probe {
		if err := render(src, raw, side); err != nil {
			return err
		}
		if img, err = readPNG(raw); err != nil {
			return err
		}
	}
	sq, err := fit(img, 256, 14, color.RGBA{0xf7, 0xf3, 0xea, 0xff})
	if err != nil {
		return err
	}
	full := filepath.Join(tmp, "full.png")
	if err := writePNG(full, sq); err != nil {
		return err
	}
	cmd := exec.Command("pngquant", "--force", "--strip", "--speed", "1", "--output", out, "256", "--", full)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pngquant: %v: %s", err, b)
	}
	return nil
}

// render draws the SVG src into a PNG of at most side×side pixels keeping
// its proportions, transparent where nothing is drawn.
func render(src, out string, side int) error {
	n := strconv.Itoa(side)
	cmd := exec.Command("rsvg-convert", "-w", n, "-h", n, "-a", "-o", out, src)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("rsvg-convert %s: %v: %s", src, err, b)
	}
	return nil
}

func runContact(args []string) error {
	fs := flag.NewFlagSet("contact", flag.ContinueOnError)
	cols := fs.String("cols", "12", "pictures per row")
	cell := fs.String("cell", "128", "side of each picture in the sheet")
	if err := fs.Parse(args); err != nil || fs.NArg() != 2 {
		return errUsage
	}
	es, err := readManifest(fs.Arg(0))
	if err != nil {
		return err
	}
	items := make([]string, len(es))
	for i, e := range es {
		items[i] = fmt.Sprintf("%d%s=%s", e.Card, e.Face, filepath.Join(fs.Arg(0), "png", e.File))
	}
	return runSheet(append([]string{"-cols", *cols, "-cell", *cell, fs.Arg(1)}, items...))
}
