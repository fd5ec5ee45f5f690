// Package schedule runs work that falls due without anyone clicking: a
// poller asks a Source which keys are due and hands each to a handler.
//
// The package knows nothing of DIX, Discord or a particular store: the
// Source keeps the due times (durably, so work due while no process ran is
// found at start-up), and the handler claims each key atomically (for the
// bot, through the store's compare-and-set Update), so that when several
// processes poll the same Source each piece of work is done by one of them.
// A key the handler could not finish stays due and is offered again.
//
// It depends only on the standard library.
package schedule
