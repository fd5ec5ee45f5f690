package loadtest

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The bot's own view of its handling time: dix_interaction_duration_seconds
// on its /metrics (HTTP_ADDR), from the interaction's arrival to its
// answer sent. Against the stand-in's latency it tells the time spent in
// the bot's handler from the time spent reaching it (the gateway, the
// event loop, a CPU taken by others).
const durationMetric = "dix_interaction_duration_seconds"

// histogram is a Prometheus histogram: cumulative counts per upper bound.
type histogram struct {
	bounds []float64 // seconds, +Inf last
	cum    []uint64
	sum    float64
	count  uint64
}

// The commands the bot's store sent to Redis and its round trips, counted
// by the store itself (store.Redis.Sent): INFO commandstats counts the
// commands its scripts run on the server too.
const (
	sentMetric  = "dix_redis_commands_sent_total"
	tripsMetric = "dix_redis_round_trips_total"
)

// redisSent is what the bot's store says it sent to Redis.
type redisSent struct {
	known                bool // the bot exports the counters
	commands, roundTrips uint64
}

// scrapeHistogram reads the duration histogram from the bot at addr.
func scrapeHistogram(ctx context.Context, addr string) (histogram, error) {
	h, _, err := scrapeMetrics(ctx, addr)
	return h, err
}

// scrapeMetrics reads the duration histogram and the Redis counters from
// the bot at addr.
func scrapeMetrics(ctx context.Context, addr string) (histogram, redisSent, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/metrics", nil)
	if err != nil {
		return histogram{}, redisSent{}, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return histogram{}, redisSent{}, fmt.Errorf("loadtest: the bot's /metrics: %w", err)
	}
	defer resp.Body.Close()
	var (
		h    histogram
		sent redisSent
	)
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if ok && (name == sentMetric || name == tripsMetric) {
			if n, err := strconv.ParseUint(value, 10, 64); err == nil {
				sent.known = true
				if name == sentMetric {
					sent.commands = n
				} else {
					sent.roundTrips = n
				}
			}
			continue
		}
		if !ok || !strings.HasPrefix(name, durationMetric) {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			continue
		}
		switch {
		case strings.HasPrefix(name, durationMetric+`_bucket{le="`):
			le := strings.TrimSuffix(strings.TrimPrefix(name, durationMetric+`_bucket{le="`), `"}`)
			bound, err := strconv.ParseFloat(le, 64) // "+Inf" parses as +Inf
			if err != nil {
				continue
			}
			h.bounds = append(h.bounds, bound)
			h.cum = append(h.cum, uint64(v))
		case name == durationMetric+"_sum":
			h.sum = v
		case name == durationMetric+"_count":
			h.count = uint64(v)
		}
	}
	if err := sc.Err(); err != nil {
		return histogram{}, redisSent{}, err
	}
	if len(h.bounds) == 0 {
		return histogram{}, redisSent{}, fmt.Errorf("loadtest: no %s on the bot's /metrics", durationMetric)
	}
	return h, sent, nil
}

// minus is h's observations since before.
func (h histogram) minus(before histogram) histogram {
	out := histogram{bounds: h.bounds, cum: make([]uint64, len(h.cum)), sum: h.sum - before.sum, count: h.count - before.count}
	for i := range h.cum {
		out.cum[i] = h.cum[i]
		if i < len(before.cum) {
			out.cum[i] -= before.cum[i]
		}
	}
	return out
}

// quantile estimates the q-quantile in seconds by linear interpolation in
// its bucket, as Prometheus's histogram_quantile does; past the last
// finite bound it returns that bound.
func (h histogram) quantile(q float64) float64 {
	if h.count == 0 || len(h.cum) == 0 {
		return 0
	}
	rank := q * float64(h.cum[len(h.cum)-1])
	lower, below := 0.0, uint64(0)
	for i, c := range h.cum {
		if float64(c) >= rank {
			upper := h.bounds[i]
			if upper > 1e300 { // +Inf
				return lower
			}
			if c == below {
				return upper
			}
			return lower + (upper-lower)*(rank-float64(below))/float64(c-below)
		}
		lower, below = h.bounds[i], c
	}
	return lower
}

// over counts the observations above bound seconds (a bucket bound).
func (h histogram) over(bound float64) uint64 {
	for i, b := range h.bounds {
		if b >= bound {
			return h.cum[len(h.cum)-1] - h.cum[i]
		}
	}
	return 0
}

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
