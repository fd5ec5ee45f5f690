// Package randfill fills values of any type at random, for tests that
// compare two ways of handling the same data (an encoder and another, a
// copy and the value copied). It depends on nothing of this module.
package randfill
