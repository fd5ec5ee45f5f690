package loadtest

import (
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

// Report is what a run measured. Times are in milliseconds or seconds as
// their JSON names say.
type Report struct {
	Machine Machine        `json:"machine"`
	Config  RunConfig      `json:"config"`
	Elapsed float64        `json:"elapsed_s"` // from the first game's start to the last table's end
	Games   GameFigures    `json:"games"`
	Answers AnswerFigures  `json:"answers"`
	Bot     BotFigures     `json:"bot"`
	Load    LoadFigures    `json:"load"`
	Redis   RedisFigures   `json:"redis"`
	Discord DiscordFigures `json:"discord"`
	// Violations are the stand-in's records of broken Discord rules
	// (a refused request, an interaction unanswered in 3 s), the first 10.
	Violations     []string `json:"violations,omitempty"`
	ViolationCount int      `json:"violation_count"`
	// TableErrors are the tables that stopped before the end, the first 10
	// of TableErrorCount.
	TableErrors     []string `json:"table_errors,omitempty"`
	TableErrorCount int      `json:"table_error_count"`
}

// RunConfig is the run's settings.
type RunConfig struct {
	Games      int      `json:"games"`
	Players    int      `json:"players"`
	Computers  int      `json:"computers,omitempty"` // of the players
	ThinkMS    float64  `json:"think_ms"`
	Jitter     float64  `json:"jitter"`
	RampS      float64  `json:"ramp_s"`
	DurationS  float64  `json:"duration_s"` // 0: every game played to its end
	Start      string   `json:"start"`
	RateLimits bool     `json:"rate_limits"`
	APILatMS   float64  `json:"api_latency_ms"`
	BotEnv     []string `json:"bot_env,omitempty"`
	// RedisSocket: the bot reached the private Redis by its Unix socket.
	RedisSocket bool `json:"redis_socket,omitempty"`
}

func reportConfig(c Config) RunConfig {
	return RunConfig{Games: c.Games, Players: c.Players, Computers: c.Computers, ThinkMS: ms(c.Think), Jitter: c.Jitter, RampS: c.Ramp.Seconds(),
		DurationS: c.Duration.Seconds(), Start: c.Start, RateLimits: c.RateLimits, APILatMS: ms(c.APILatency), BotEnv: c.BotEnv,
		RedisSocket: c.RedisSocket}
}

// GameFigures count what the players did.
type GameFigures struct {
	Opened    int `json:"opened"`
	Finished  int `json:"finished"`  // reached the scoreboard
	Turns     int `json:"turns"`     // turns (Qwixx: rolls) the boards showed
	Decisions int `json:"decisions"` // applied
	Refusals  int `json:"refusals"`  // decisions the bot refused (stale board, card too dear...)
	Gone      int `json:"gone"`      // clicks on a button that had just disappeared
}

// AnswerFigures describe the answers to the interactions.
type AnswerFigures struct {
	Answered   int     `json:"answered"`
	PerSecond  float64 `json:"per_second"`
	Unanswered int     `json:"unanswered"` // not answered within Discord's 3 s (the stand-in refuses a later answer)
	// Latency is from the interaction's creation to its answer, as the
	// stand-in saw it; ByKind splits it by command, button and select.
	Latency Percentiles            `json:"latency"`
	ByKind  map[string]Percentiles `json:"latency_by_kind"`
	// Dispatched, Responded and InTime are the stand-in's own count of
	// the run's interactions (fakediscord.Server.Interactions).
	Dispatched int `json:"dispatched"`
	Responded  int `json:"responded"`
	InTime     int `json:"in_time"`
}

// Percentiles of latencies, in milliseconds (nearest rank).
type Percentiles struct {
	Count int     `json:"count"`
	P50   float64 `json:"p50_ms"`
	P90   float64 `json:"p90_ms"`
	P99   float64 `json:"p99_ms"`
	Max   float64 `json:"max_ms"`
}

func percentiles(sorted []time.Duration) Percentiles {
	n := len(sorted)
	if n == 0 {
		return Percentiles{}
	}
	rank := func(p float64) float64 {
		i := int(math.Ceil(p*float64(n))) - 1
		return ms(sorted[max(i, 0)])
	}
	return Percentiles{Count: n, P50: rank(0.50), P90: rank(0.90), P99: rank(0.99), Max: ms(sorted[n-1])}
}

// BotFigures are the bot process's resources.
type BotFigures struct {
	Runs     string `json:"runs"`
	Measured bool   `json:"measured"` // false when the bot ran in this process
	// CPUS is its user + system time over the run, CPUPerInteractionMS
	// that over the interactions answered, Cores that over the run's time.
	CPUS                float64 `json:"cpu_s"`
	CPUPerInteractionMS float64 `json:"cpu_per_interaction_ms"`
	Cores               float64 `json:"cores"`
	PeakRSSMiB          float64 `json:"peak_rss_mib"`
	// RunDelayS is how long the bot's threads waited for a CPU while
	// ready to run, RunDelayPerInteractionMS that over the interactions:
	// time lost to the other processes on the machine.
	RunDelayS                float64 `json:"run_delay_s"`
	RunDelayPerInteractionMS float64 `json:"run_delay_per_interaction_ms"`
	// Handling is the bot's own measure of its handling time, nil when
	// its /metrics could not be read.
	Handling *HandlingFigures `json:"handling,omitempty"`
	Stop     string           `json:"stop_error,omitempty"`
	Log      *LogProblems     `json:"log,omitempty"`
	// Profile is the file of the bot's CPU profile (Config.BotProfile),
	// or why there is none.
	Profile string `json:"profile,omitempty"`
}

// HandlingFigures are the bot's dix_interaction_duration_seconds over the
// run: from an interaction's arrival in the bot to its answer sent. Its
// quantiles are interpolated within the histogram's buckets (5, 10, 25,
// 50, 100, 250 ms...), so they are estimates.
type HandlingFigures struct {
	Count    uint64  `json:"count"`
	MeanMS   float64 `json:"mean_ms"`
	P50MS    float64 `json:"p50_ms"`
	P99MS    float64 `json:"p99_ms"`
	Over50MS uint64  `json:"over_50ms"`
}

// LoadFigures are the load process's own resources: the stand-in (REST,
// gateway, rate limits, transcripts) and the scripted players, which share
// the machine with the bot and Redis.
type LoadFigures struct {
	CPUS       float64 `json:"cpu_s"`
	Cores      float64 `json:"cores"`
	PeakRSSMiB float64 `json:"peak_rss_mib"`
}

// RedisFigures are what Redis says of the run.
type RedisFigures struct {
	Private                bool    `json:"private"` // a redis-server started for the run
	Commands               int64   `json:"commands"`
	CommandsPerInteraction float64 `json:"commands_per_interaction"`
	// Sent counts what the bot's store sent, as it counts it itself
	// (store.Redis.Sent): Commands above also counts the commands its
	// scripts run on the server, and the load tool's own few. Nil when
	// the bot does not export the counters.
	Sent      *RedisSentFigures `json:"sent,omitempty"`
	CPUS      float64           `json:"cpu_s"`
	MemoryMiB float64           `json:"memory_mib"`
}

// RedisSentFigures are the commands the bot's store sent to Redis and the
// round trips they took (a pipeline is one).
type RedisSentFigures struct {
	Commands                 uint64  `json:"commands"`
	CommandsPerInteraction   float64 `json:"commands_per_interaction"`
	RoundTrips               uint64  `json:"round_trips"`
	RoundTripsPerInteraction float64 `json:"round_trips_per_interaction"`
}

// DiscordFigures count the bot's requests to the stand-in.
type DiscordFigures struct {
	// BotToken requests count against Discord's global limit of 50 per
	// second; InteractionToken ones (answers, follow-ups, their edits) do not.
	BotToken          int     `json:"bot_token"`
	BotTokenPerTurn   float64 `json:"bot_token_per_turn"`
	BotTokenPerSecond float64 `json:"bot_token_per_second"`
	InteractionToken  int     `json:"interaction_token"`
	// RateLimited counts 429 answers, by token class.
	// Uploads are the files the bot uploaded, UploadedBytes their bytes.
	Uploads                int           `json:"uploads"`
	UploadedBytes          int64         `json:"uploaded_bytes"`
	UploadedBytesPerTurn   float64       `json:"uploaded_bytes_per_turn"`
	RateLimitedBot         int           `json:"rate_limited_bot"`
	RateLimitedInteraction int           `json:"rate_limited_interaction"`
	Routes                 []RouteFigure `json:"routes"`
}

// RouteFigure is one route's requests.
type RouteFigure struct {
	Route       string `json:"route"`
	Class       string `json:"class"`
	Requests    int    `json:"requests"`
	RateLimited int    `json:"rate_limited"`
	Errors      int    `json:"errors"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// fill computes the figures from the tables, the stand-in and the
// readings before and after.
func (r *Report) fill(tables []*table, fake *fakediscord.Server, before, after reading, played time.Duration) {
	r.Elapsed = played.Seconds()
	window := after.at.Sub(before.at).Seconds()
	for _, t := range tables {
		g := &r.Games
		g.Opened += t.games
		g.Finished += int(t.finished.Load())
		g.Turns += t.turns
		g.Decisions += t.decisions
		g.Refusals += t.refusals
		g.Gone += t.gone
		r.Answers.Unanswered += t.unanswered
		if t.err != nil {
			if r.TableErrorCount++; len(r.TableErrors) < 10 {
				r.TableErrors = append(r.TableErrors, t.err.Error())
			}
		}
	}
	all := latencies(tables, kindCommand, kindButton, kindSelect, kindModal)
	r.Answers.Answered = len(all)
	r.Answers.PerSecond = float64(len(all)) / played.Seconds()
	r.Answers.Latency = percentiles(all)
	r.Answers.ByKind = map[string]Percentiles{}
	for k := range numKinds {
		r.Answers.ByKind[k.String()] = percentiles(latencies(tables, k))
	}
	for _, ix := range fake.Interactions() {
		r.Answers.Dispatched++
		if ix.Responded {
			r.Answers.Responded++
		}
		if ix.InTime {
			r.Answers.InTime++
		}
	}

	r.Bot.Measured = before.botOK && after.botOK
	if r.Bot.Measured {
		cpu := after.bot.CPU - before.bot.CPU
		r.Bot.CPUS = cpu.Seconds()
		r.Bot.Cores = cpu.Seconds() / window
		if n := r.Answers.Answered; n > 0 {
			r.Bot.CPUPerInteractionMS = ms(cpu) / float64(n)
		}
		r.Bot.PeakRSSMiB = mib(after.bot.PeakRSS)
		wait := after.bot.RunDelay - before.bot.RunDelay
		r.Bot.RunDelayS = wait.Seconds()
		if n := r.Answers.Answered; n > 0 {
			r.Bot.RunDelayPerInteractionMS = ms(wait) / float64(n)
		}
	}
	if len(before.hist.bounds) > 0 && len(after.hist.bounds) > 0 {
		h := after.hist.minus(before.hist)
		hf := &HandlingFigures{Count: h.count, P50MS: 1000 * h.quantile(0.5), P99MS: 1000 * h.quantile(0.99), Over50MS: h.over(0.05)}
		if h.count > 0 {
			hf.MeanMS = 1000 * h.sum / float64(h.count)
		}
		r.Bot.Handling = hf
	}
	r.Load.CPUS = (after.self - before.self).Seconds()
	r.Load.Cores = r.Load.CPUS / window
	if st, err := procStatus(os.Getpid()); err == nil {
		r.Load.PeakRSSMiB = mib(st["VmHWM"])
	}
	r.Machine.Busy = busyFraction(before.machine, after.machine)

	r.Redis.Commands = after.redis.commands - before.redis.commands
	if n := r.Answers.Answered; n > 0 {
		r.Redis.CommandsPerInteraction = float64(r.Redis.Commands) / float64(n)
	}
	if before.sent.known && after.sent.known {
		sf := &RedisSentFigures{Commands: after.sent.commands - before.sent.commands, RoundTrips: after.sent.roundTrips - before.sent.roundTrips}
		if n := r.Answers.Answered; n > 0 {
			sf.CommandsPerInteraction = float64(sf.Commands) / float64(n)
			sf.RoundTripsPerInteraction = float64(sf.RoundTrips) / float64(n)
		}
		r.Redis.Sent = sf
	}
	r.Redis.CPUS = (after.redis.cpu - before.redis.cpu).Seconds()
	r.Redis.MemoryMiB = mib(after.redis.memory)
	ours := r.Bot.Cores + r.Load.Cores + r.Redis.CPUS/window
	r.Machine.OthersCores = max(0, r.Machine.Busy*float64(r.Machine.CPUs)-ours)

	st := fake.Stats()
	d := &r.Discord
	d.BotToken, d.InteractionToken = st.BotToken, st.InteractionToken
	d.Uploads, d.UploadedBytes = st.Uploads, st.UploadedBytes
	if r.Games.Turns > 0 {
		d.BotTokenPerTurn = float64(st.BotToken) / float64(r.Games.Turns)
		d.UploadedBytesPerTurn = float64(st.UploadedBytes) / float64(r.Games.Turns)
	}
	d.BotTokenPerSecond = float64(st.BotToken) / window
	for _, name := range st.RouteNames() {
		rs := st.Routes[name]
		d.Routes = append(d.Routes, RouteFigure{Route: name, Class: rs.Class, Requests: rs.Requests, RateLimited: rs.RateLimited, Errors: rs.Errors})
		if rs.Class == "bot" {
			d.RateLimitedBot += rs.RateLimited
		} else {
			d.RateLimitedInteraction += rs.RateLimited
		}
	}
	sort.SliceStable(d.Routes, func(i, j int) bool { return d.Routes[i].Requests > d.Routes[j].Requests })

	vs := fake.Violations()
	r.ViolationCount = len(vs)
	for _, v := range vs[:min(len(vs), 10)] {
		r.Violations = append(r.Violations, v.Error())
	}
}

// Print writes the report as text, for people.
func (r *Report) Print(w io.Writer) {
	line := func(name, format string, args ...any) {
		fmt.Fprintf(w, "  %-20s %s\n", name, fmt.Sprintf(format, args...))
	}
	m, c := r.Machine, r.Config
	fmt.Fprintln(w, "machine")
	line("cpus", "%d (GOMAXPROCS %d), %s, %d MiB, %s", m.CPUs, m.GOMAXPROCS, m.CPUModel, m.MemoryMiB, m.GoVersion)
	line("load average", "%s before; during the run all CPUs %.0f%% busy, other processes using %.2f cores", m.LoadAvg, 100*m.Busy, m.OthersCores)
	fmt.Fprintln(w, "run")
	line("games", "%d of %d players (%d computers), opened with %q over %.0fs", c.Games, c.Players, c.Computers, c.Start, c.RampS)
	think := "0 (a click as soon as the answer is in)"
	if c.ThinkMS > 0 {
		think = fmt.Sprintf("%s ±%.0f%% before each interaction", time.Duration(c.ThinkMS*float64(time.Millisecond)), 100*c.Jitter)
	}
	line("think", "%s", think)
	dur := "every game to its end"
	if c.DurationS > 0 {
		dur = fmt.Sprintf("%.0fs, a new game where one ended", c.DurationS)
	}
	line("duration", "%s; played %.1fs", dur, r.Elapsed)
	line("stand-in", "rate limits %s; REST answers delayed %v", onOff(c.RateLimits), time.Duration(c.APILatMS*float64(time.Millisecond)))
	if len(c.BotEnv) > 0 {
		line("bot env", "%s", strings.Join(c.BotEnv, " "))
	}
	g := r.Games
	line("played", "%d games opened, %d finished; %d turns, %d decisions, %d refused, %d clicks on a vanished button", g.Opened, g.Finished, g.Turns, g.Decisions, g.Refusals, g.Gone)
	a := r.Answers
	fmt.Fprintln(w, "answers, as the stand-in sees them")
	line("answered", "%d, %.1f/s", a.Answered, a.PerSecond)
	line("not within 3 s", "%d (the stand-in: %d dispatched, %d answered, %d in time)", a.Unanswered, a.Dispatched, a.Responded, a.InTime)
	line("latency", "%s", a.Latency)
	for k := range numKinds {
		if p := a.ByKind[k.String()]; p.Count > 0 {
			line("  "+k.String(), "%s", p)
		}
	}
	b := r.Bot
	fmt.Fprintln(w, "bot")
	line("runs", "%s", b.Runs)
	if b.Measured {
		line("cpu", "%.1fs: %.2f ms per interaction, %.2f cores", b.CPUS, b.CPUPerInteractionMS, b.Cores)
		line("waited for a CPU", "%.1fs summed over its threads, %.2f ms per interaction (ready to run, every CPU taken)", b.RunDelayS, b.RunDelayPerInteractionMS)
		line("memory", "%.0f MiB peak RSS", b.PeakRSSMiB)
	} else {
		line("cpu", "not told apart from the load's")
	}
	if h := b.Handling; h != nil {
		line("handling", "mean %.1f ms, p50 ≈%.1f ms, p99 ≈%.1f ms, %d over 50 ms (%d, the bot's own clock: arrival to answer sent)", h.MeanMS, h.P50MS, h.P99MS, h.Over50MS, h.Count)
	}
	if b.Log != nil {
		line("log", "%d warnings, %d errors", b.Log.Warnings, b.Log.Errors)
		for _, l := range b.Log.First {
			line("", "%s", l)
		}
	}
	if b.Profile != "" {
		line("bot profile", "%s", b.Profile)
	}
	if b.Stop != "" {
		line("stop", "%s", b.Stop)
	}
	fmt.Fprintln(w, "others on the machine")
	line("load tool", "%.1fs CPU, %.2f cores, %.0f MiB peak RSS (the stand-in and the players)", r.Load.CPUS, r.Load.Cores, r.Load.PeakRSSMiB)
	rd := r.Redis
	line("redis", "%d commands run (%.1f per interaction, the scripts' own included), %.1fs CPU, %.0f MiB", rd.Commands, rd.CommandsPerInteraction, rd.CPUS, rd.MemoryMiB)
	if r.Config.RedisSocket {
		line("redis socket", "the bot reached it by its Unix socket")
	}
	if sf := rd.Sent; sf != nil {
		line("redis sent", "%d commands sent by the bot (%.2f per interaction) in %d round trips (%.2f per interaction)", sf.Commands, sf.CommandsPerInteraction, sf.RoundTrips, sf.RoundTripsPerInteraction)
	}
	d := r.Discord
	fmt.Fprintln(w, "discord requests")
	line("bot token", "%d: %.3f per turn, %.2f/s (Discord's global limit: 50/s)", d.BotToken, d.BotTokenPerTurn, d.BotTokenPerSecond)
	line("uploaded", "%d files, %.1f MiB, %.1f KiB per turn", d.Uploads, float64(d.UploadedBytes)/(1<<20), d.UploadedBytesPerTurn/1024)
	line("interaction token", "%d", d.InteractionToken)
	line("429 answers", "%d to the bot token, %d to interaction tokens", d.RateLimitedBot, d.RateLimitedInteraction)
	for _, rt := range d.Routes {
		fmt.Fprintf(w, "    %-44s %-11s %8d  429: %d  errors: %d\n", rt.Route, rt.Class, rt.Requests, rt.RateLimited, rt.Errors)
	}
	fmt.Fprintf(w, "violations %d\n", r.ViolationCount)
	for _, v := range r.Violations {
		fmt.Fprintf(w, "  %s\n", v)
	}
	fmt.Fprintf(w, "table errors %d\n", r.TableErrorCount)
	for _, e := range r.TableErrors {
		fmt.Fprintf(w, "  %s\n", e)
	}
}

func (p Percentiles) String() string {
	return fmt.Sprintf("p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms (%d)", p.P50, p.P90, p.P99, p.Max, p.Count)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
