package rating

// ComputerSigma is the Sigma of every computer level: small, because a
// level's strength is fixed and known (see the package documentation).
const ComputerSigma = 1.0

// Computer levels: the values of computer.Level (easy 1, normal 2,
// strong 3), so a caller passes int(level).
const (
	Easy   = 1
	Normal = 2
	Strong = 3
)

// Computer is the fixed rating of a computer seat of the given level: Mu is
// DefaultMu − 2·Beta, DefaultMu and DefaultMu + 2·Beta for easy, normal and
// strong. An unknown level is rated as normal. Computer seats are passed to
// RateFixed with their fixed flag set, so this rating never changes.
func Computer(level int) Rating {
	mu := DefaultMu
	switch level {
	case Easy:
		mu -= 2 * DefaultBeta
	case Strong:
		mu += 2 * DefaultBeta
	}
	return Rating{Mu: mu, Sigma: ComputerSigma}
}
