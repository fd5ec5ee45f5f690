package qwixx

import (
	"fmt"
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	rules "github.com/dixgame/dixbot/engine/qwixx"
)

// Colour-vision check of the four rows, with the method of picture/dix
// (palette_test.go there): each face (sRGB) is linearised, multiplied by
// the Machado, Oliveira & Fernandes (2009) simulation matrix for
// full-severity protanopia, deuteranopia and tritanopia, clamped, and
// converted to CIELAB (D65); every pair of rows must then differ by at
// least minDeltaE00 in CIEDE2000. The rows are told apart by position and
// direction too (red and yellow run 2 to 12, green and blue 12 to 2). The
// numbers must read on every face: a WCAG 2 contrast of at least 4.5:1
// between a face and its ink.
const (
	minDeltaE00     = 20.0
	minTextContrast = 4.5
)

var cvdMatrices = []struct {
	name string
	m    [3][3]float64
}{
	{"normal", [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}},
	{"protanopia", [3][3]float64{
		{0.152286, 1.052583, -0.204868},
		{0.114503, 0.786281, 0.099216},
		{-0.003882, -0.048116, 1.051998}}},
	{"deuteranopia", [3][3]float64{
		{0.367322, 0.860646, -0.227968},
		{0.280085, 0.672501, 0.047413},
		{-0.011820, 0.042940, 0.968881}}},
	{"tritanopia", [3][3]float64{
		{1.255528, -0.076749, -0.178779},
		{-0.078411, 0.930809, 0.147602},
		{0.004733, 0.691367, 0.303900}}},
}

func TestRowsApartUnderColourBlindness(t *testing.T) {
	for _, sim := range cvdMatrices {
		t.Run(sim.name, func(t *testing.T) {
			var labs [4][3]float64
			for i, col := range rules.Colors {
				labs[i] = toLab(simulate(sim.m, linear(faceOf(col))))
			}
			for i := range 4 {
				for j := i + 1; j < 4; j++ {
					d := deltaE2000(labs[i], labs[j])
					assert.GreaterOrEqual(t, d, minDeltaE00, "%s vs %s", rules.Colors[i], rules.Colors[j])
					t.Logf("%s vs %s: ΔE00 %.1f", rules.Colors[i], rules.Colors[j], d)
				}
			}
		})
	}
}

func TestNumbersReadOnRows(t *testing.T) {
	for _, col := range rules.Colors {
		c := contrast(linear(inkOf(col)), linear(faceOf(col)))
		assert.GreaterOrEqual(t, c, minTextContrast, "ink on %s", col)
		t.Logf("ink on %s: %.2f:1", col, c)
	}
}

// TestDeltaE2000 checks the formula against pairs from Sharma, Wu & Dalal
// (2005), "The CIEDE2000 color-difference formula: implementation notes".
func TestDeltaE2000(t *testing.T) {
	cases := []struct {
		a, b [3]float64
		want float64
	}{
		{[3]float64{50, 2.6772, -79.7751}, [3]float64{50, 0, -82.7485}, 2.0425},
		{[3]float64{50, -1.3802, -84.2814}, [3]float64{50, 0, -82.7485}, 1.0000},
		{[3]float64{50, 2.5, 0}, [3]float64{73, 25, -18}, 27.1492},
		{[3]float64{60.2574, -34.0099, 36.2677}, [3]float64{60.4626, -34.1751, 39.4387}, 1.2644},
		{[3]float64{22.7233, 20.0904, -46.6940}, [3]float64{23.0331, 14.9730, -42.5619}, 2.0373},
	}
	for i, tc := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			assert.InDelta(t, tc.want, deltaE2000(tc.a, tc.b), 1e-4)
		})
	}
}

func linear(c color.RGBA) [3]float64 {
	f := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return [3]float64{f(c.R), f(c.G), f(c.B)}
}

func simulate(m [3][3]float64, v [3]float64) [3]float64 {
	var o [3]float64
	for i := range 3 {
		o[i] = min(1, max(0, m[i][0]*v[0]+m[i][1]*v[1]+m[i][2]*v[2]))
	}
	return o
}

func toLab(v [3]float64) [3]float64 {
	x := 0.4124564*v[0] + 0.3575761*v[1] + 0.1804375*v[2]
	y := 0.2126729*v[0] + 0.7151522*v[1] + 0.0721750*v[2]
	z := 0.0193339*v[0] + 0.1191920*v[1] + 0.9503041*v[2]
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	fx, fy, fz := f(x/0.95047), f(y), f(z/1.08883)
	return [3]float64{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

func contrast(a, b [3]float64) float64 {
	l := func(v [3]float64) float64 { return 0.2126*v[0] + 0.7152*v[1] + 0.0722*v[2] }
	la, lb := l(a), l(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// deltaE2000 is the CIEDE2000 difference of two CIELAB colours (kL=kC=kH=1).
func deltaE2000(p, q [3]float64) float64 {
	const d2r = math.Pi / 180
	L1, a1, b1 := p[0], p[1], p[2]
	L2, a2, b2 := q[0], q[1], q[2]
	C1, C2 := math.Hypot(a1, b1), math.Hypot(a2, b2)
	Cb := (C1 + C2) / 2
	G := 0.5 * (1 - math.Sqrt(math.Pow(Cb, 7)/(math.Pow(Cb, 7)+math.Pow(25, 7))))
	a1p, a2p := (1+G)*a1, (1+G)*a2
	C1p, C2p := math.Hypot(a1p, b1), math.Hypot(a2p, b2)
	hue := func(b, a float64) float64 {
		if a == 0 && b == 0 {
			return 0
		}
		h := math.Atan2(b, a) / d2r
		if h < 0 {
			h += 360
		}
		return h
	}
	h1p, h2p := hue(b1, a1p), hue(b2, a2p)
	dLp, dCp := L2-L1, C2p-C1p
	var dhp float64
	if C1p*C2p != 0 {
		dhp = h2p - h1p
		if dhp > 180 {
			dhp -= 360
		} else if dhp < -180 {
			dhp += 360
		}
	}
	dHp := 2 * math.Sqrt(C1p*C2p) * math.Sin(dhp/2*d2r)
	Lbp, Cbp := (L1+L2)/2, (C1p+C2p)/2
	hbp := h1p + h2p
	if C1p*C2p != 0 {
		switch {
		case math.Abs(h1p-h2p) <= 180:
			hbp = (h1p + h2p) / 2
		case h1p+h2p < 360:
			hbp = (h1p + h2p + 360) / 2
		default:
			hbp = (h1p + h2p - 360) / 2
		}
	}
	T := 1 - 0.17*math.Cos((hbp-30)*d2r) + 0.24*math.Cos(2*hbp*d2r) + 0.32*math.Cos((3*hbp+6)*d2r) - 0.20*math.Cos((4*hbp-63)*d2r)
	dTheta := 30 * math.Exp(-math.Pow((hbp-275)/25, 2))
	RC := 2 * math.Sqrt(math.Pow(Cbp, 7)/(math.Pow(Cbp, 7)+math.Pow(25, 7)))
	SL := 1 + 0.015*math.Pow(Lbp-50, 2)/math.Sqrt(20+math.Pow(Lbp-50, 2))
	SC := 1 + 0.045*Cbp
	SH := 1 + 0.015*Cbp*T
	RT := -math.Sin(2*dTheta*d2r) * RC
	return math.Sqrt(math.Pow(dLp/SL, 2) + math.Pow(dCp/SC, 2) + math.Pow(dHp/SH, 2) + RT*(dCp/SC)*(dHp/SH))
}
