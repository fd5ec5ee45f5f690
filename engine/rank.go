package engine

import "sort"

// Rank orders res best first and gives each entry its rank, the standard
// competition ranking (1, 2, 2, 4): before(a, b) reports whether a ranks
// strictly ahead of b (a strict weak order); entries neither of which is
// before the other keep their order in res and share a rank, the place of
// the first of them; rank returns where an entry's rank is stored.
func Rank[T any](res []T, before func(a, b *T) bool, rank func(r *T) *int) {
	sort.SliceStable(res, func(a, b int) bool { return before(&res[a], &res[b]) })
	for i := range res {
		if i > 0 && !before(&res[i-1], &res[i]) {
			*rank(&res[i]) = *rank(&res[i-1])
		} else {
			*rank(&res[i]) = i + 1
		}
	}
}
