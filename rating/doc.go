// Package rating is the Weng–Lin Bayesian online rating model with the
// Plackett–Luce likelihood: R. C. Weng and C.-J. Lin, "A Bayesian
// Approximation Method for Online Ranking", Journal of Machine Learning
// Research 12 (2011) 267–300, Algorithm 4, as implemented by the OpenSkill
// libraries (openskill.py, github.com/OpenDebates/openskill.py, file
// openskill/models/weng_lin/plackett_luce.py; openskill.js,
// github.com/philihp/openskill.js, files src/models/plackett-luce.ts,
// src/util.ts and src/rate.ts). It is pure computation: no I/O, no storage.
//
// A player's skill is a normal distribution N(Mu, Sigma²). After a game, Rate
// moves every player's Mu toward what the result says and shrinks Sigma by the
// information the game carried. The value shown to people is Ordinal,
// Mu − 3·Sigma: a skill the player is very likely (≈ 99.87 %, one-sided) to be
// above, so a newcomer starts at 0 and climbs as games remove uncertainty.
//
// # Constants
//
// Every default is the one of both reference implementations
// (openskill.py PlackettLuce.__init__, openskill.js src/constants.ts):
//
//   - DefaultMu = 25: the prior mean of a new player.
//   - DefaultSigma = 25/3: the prior standard deviation, Mu/3, so that a new
//     player's Ordinal is 0.
//   - DefaultBeta = 25/6 = DefaultSigma/2: the standard deviation of one
//     game's performance around a player's skill (the noise of a single game).
//   - DefaultKappa = 0.0001: the floor of the factor that scales Sigma² down
//     in one update (Weng & Lin, Algorithm 4, κ), so Sigma stays positive.
//   - DefaultTau = 25/300 = DefaultMu/300: the additive dynamics. Before each
//     update every Sigma becomes sqrt(Sigma² + Tau²), the skill drift between
//     games, so Sigma never freezes at 0 and a player who improves can still
//     move. Both references apply it in rate() by default.
//   - Z = 3 in Ordinal (openskill.js src/ordinal.ts, z = 3).
//
// # Ties
//
// Ranks are compared, not used as numbers: teams with the same rank tie. As in
// the references, a team's update sums over every team ranked at or ahead of
// it, and each term is divided by the number of teams sharing that rank (A_q
// in Algorithm 4), so tied teams with equal ratings get equal updates.
//
// # Computer seats: fixed-strength players
//
// A computer seat of a given level plays the same program in every game, on
// every server: its strength does not change and is not unknown in the way a
// person's is. It is therefore rated as a fixed-strength player: Computer(level)
// is a constant Rating that is an opponent in the update of the people it
// plays with, and RateFixed never changes it (the seat's own update is
// discarded). This has three effects:
//
//   - The computer is an anchor of the scale: beating the strong level moves a
//     person up more than beating the easy level, exactly as beating a strong
//     or a weak person would, and losing to the easy level costs more.
//   - Its Sigma is small (ComputerSigma = 1, against 25/3 for a new person):
//     it says the strength is known, so it adds little to the game's total
//     uncertainty c (1 + β² ≈ 18.4 against 69.4 + β² ≈ 86.8 for a new
//     person) and a person's update is driven by the person's own uncertainty.
//     It is not 0, so that Ordinal stays below Mu and the same formulas hold.
//   - Nobody can farm it: a level's rating does not fall when people beat it,
//     and a person's gain against it shrinks as the person's Mu rises above it.
//
// The levels' Mu are spaced by about one β around the default prior: easy
// DefaultMu − 2β, normal DefaultMu, strong DefaultMu + 2β. They are the
// scale's assumptions, and can be calibrated from recorded games (a level's Mu
// is the value that makes its predicted win rate against rated people match
// the observed one).
package rating
