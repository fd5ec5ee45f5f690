package picturetest

import (
	"image/color"
	"math"
)

// Vec is a colour as three components: linear RGB in [0, 1] or CIELAB.
type Vec = [3]float64

// CVD is a colour-vision simulation: a matrix applied to linear RGB.
type CVD struct {
	Name string
	M    [3][3]float64
}

// CVDs are normal vision and the Machado, Oliveira & Fernandes (2009)
// matrices for full-severity (1.0) protanopia, deuteranopia and tritanopia.
var CVDs = []CVD{
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

// Linear is c (sRGB, alpha ignored) as linear RGB.
func Linear(c color.RGBA) Vec {
	f := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return Vec{f(c.R), f(c.G), f(c.B)}
}

// Simulate applies the simulation matrix m to the linear RGB v, clamped to
// [0, 1].
func Simulate(m [3][3]float64, v Vec) Vec {
	var o Vec
	for i := range 3 {
		o[i] = min(1, max(0, m[i][0]*v[0]+m[i][1]*v[1]+m[i][2]*v[2]))
	}
	return o
}

// ToLab is the linear RGB v in CIELAB (D65 white).
func ToLab(v Vec) Vec {
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
	return Vec{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

// Lab is c as seen under the simulation m, in CIELAB.
func Lab(m [3][3]float64, c color.RGBA) Vec {
	return ToLab(Simulate(m, Linear(c)))
}

// Contrast is the WCAG 2 contrast ratio of two linear RGB colours, from 1
// to 21, whichever is lighter.
func Contrast(a, b Vec) float64 {
	l := func(v Vec) float64 { return 0.2126*v[0] + 0.7152*v[1] + 0.0722*v[2] }
	la, lb := l(a), l(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// DeltaE2000 is the CIEDE2000 difference of two CIELAB colours
// (kL = kC = kH = 1), after Sharma, Wu & Dalal (2005).
func DeltaE2000(p, q Vec) float64 {
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
