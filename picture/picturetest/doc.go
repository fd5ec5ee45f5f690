// Package picturetest holds what the tests of the games' drawings share:
// the golden-image comparison with its -update flag, and the colour maths
// that checks a palette under colour blindness (linear sRGB, the Machado,
// Oliveira & Fernandes simulation, CIELAB, CIEDE2000, WCAG 2 contrast).
//
// Only tests import it. Importing it registers the -update flag on the
// command line, so a test package that imports it defines no flag of that
// name itself.
package picturetest
