package loadtest

// BuildDixbot builds cmd/dixbot for the tests of package loadtest_test.
var BuildDixbot = buildDixbot
