// Command dixcompare measures the bot of this tree against the bot of an
// earlier commit, the way docs/PERFORMANCE.md compares them: each built
// from the repository with its own load tool (cmd/dixload at that
// commit), run one after the other, alternating which goes first, on the
// same game, table count and pace. It prints each run and a table of the
// CPU each bot spent per interaction, with the ratio of this tree's to the
// other's.
//
//	go run ./cmd/dixcompare -against b0f6735 -games 1000
//	go run ./cmd/dixcompare -against 33d6b8c -game qwixx -games 450
//
// The commit is checked out in a temporary worktree (git worktree add
// --detach), built there, and the worktree removed. Run it from the
// repository, on a machine with nothing else running: the report gives
// the cores other processes used during each run.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/dixgame/dixbot/internal/loadtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "dixcompare:", err)
		os.Exit(1)
	}
}

// options are the command line's.
type options struct {
	against  string
	game     string
	games    int
	think    time.Duration
	duration time.Duration
	pairs    int
	// hereSocket runs this tree's bot on its private Redis's Unix socket
	// (dixload -redis-socket); the commit's bot stays on the TCP port.
	hereSocket bool
}

func parse(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("dixcompare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.against, "against", "b0f6735", "the commit whose bot this tree's is measured against")
	fs.StringVar(&o.game, "game", "dix", "the game played: dix, qwixx or dixxit")
	fs.IntVar(&o.games, "games", 1000, "concurrent games of each run")
	fs.DurationVar(&o.think, "think", 3*time.Second, "a player's time before each interaction")
	fs.DurationVar(&o.duration, "duration", 90*time.Second, "each run's length after its ramp")
	fs.IntVar(&o.pairs, "pairs", 2, "pairs of runs, the commit's bot first in odd pairs, this tree's in even ones")
	fs.BoolVar(&o.hereSocket, "here-socket", false, "this tree's bot reaches its Redis by the Unix socket (dixload -redis-socket), the commit's by the TCP port")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case fs.NArg() > 0:
		return o, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	case o.against == "":
		return o, errors.New("-against: a commit is needed")
	case o.game != "dix" && o.game != "qwixx" && o.game != "dixxit":
		return o, fmt.Errorf("-game %q: dix, qwixx or dixxit", o.game)
	case o.games < 1 || o.pairs < 1 || o.think < 0 || o.duration <= 0:
		return o, errors.New("-games and -pairs must be positive, -duration too, -think not negative")
	}
	return o, nil
}

// side is one of the two bots: its load tool and its binary.
type side struct {
	name  string // "this tree" or the commit
	load  string
	bot   string
	extra []string // more of dixload's flags
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parse(args, stderr)
	if err != nil {
		return err
	}
	root, err := gitOut(ctx, "", "rev-parse", "--show-toplevel")
	if err != nil {
		return fmt.Errorf("not in the repository: %w", err)
	}
	head, err := gitOut(ctx, root, "rev-parse", "--short", "HEAD")
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "dixcompare-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	here := side{name: "this tree (" + head + ")"}
	if o.hereSocket {
		here.name = "this tree (" + head + ", Redis by its socket)"
		here.extra = []string{"-redis-socket"}
	}
	if here.load, here.bot, err = build(ctx, root, filepath.Join(dir, "here"), stderr); err != nil {
		return err
	}
	wt := filepath.Join(dir, "worktree")
	if _, err := gitOut(ctx, root, "worktree", "add", "--detach", wt, o.against); err != nil {
		return fmt.Errorf("checking out %s: %w", o.against, err)
	}
	defer func() { _, _ = gitOut(context.WithoutCancel(ctx), root, "worktree", "remove", "--force", wt) }()
	other := side{name: o.against}
	if other.load, other.bot, err = build(ctx, wt, filepath.Join(dir, "other"), stderr); err != nil {
		return err
	}

	var runs []result
	for pair := 1; pair <= o.pairs; pair++ {
		for _, s := range order(pair, other, here) {
			fmt.Fprintf(stderr, "pair %d: %s…\n", pair, s.name)
			rep, err := measure(ctx, s, o, dir)
			if err != nil {
				return fmt.Errorf("pair %d, %s: %w", pair, s.name, err)
			}
			r := result{pair: pair, side: s.name, report: rep}
			fmt.Fprintln(stderr, "  "+r.line())
			runs = append(runs, r)
		}
	}
	fmt.Fprint(stdout, table(o, other.name, here.name, runs))
	return nil
}

// order is the pair's two runs: the commit's bot first in odd pairs.
func order(pair int, other, here side) []side {
	if pair%2 == 1 {
		return []side{other, here}
	}
	return []side{here, other}
}

// build builds cmd/dixload and cmd/dixbot of the tree at src into out.
func build(ctx context.Context, src, out string, stderr io.Writer) (load, bot string, err error) {
	load, bot = filepath.Join(out, "dixload"), filepath.Join(out, "dixbot")
	for _, b := range [][2]string{{load, "./cmd/dixload"}, {bot, "./cmd/dixbot"}} {
		cmd := exec.CommandContext(ctx, "go", "build", "-o", b[0], b[1])
		cmd.Dir = src
		cmd.Stdout, cmd.Stderr = stderr, stderr
		if err := cmd.Run(); err != nil {
			return "", "", fmt.Errorf("building %s in %s: %w", b[1], src, err)
		}
	}
	return load, bot, nil
}

// measure runs s's load tool against s's bot once.
func measure(ctx context.Context, s side, o options, dir string) (loadtest.Report, error) {
	args := []string{"-bot", s.bot, "-games", fmt.Sprint(o.games), "-think", o.think.String(),
		"-duration", o.duration.String(), "-q", "-json"}
	if o.game != "dix" {
		args = append(args, "-game", o.game) // the earliest load tools know DIX alone, without the flag
	}
	args = append(args, s.extra...)
	cmd := exec.CommandContext(ctx, s.load, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return loadtest.Report{}, fmt.Errorf("%w: %s", err, lastLine(errb.String()))
	}
	return decodeReport(out.Bytes())
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// decodeReport reads dixload's -json report (loadtest.Report; the
// earliest load tools write fewer of its fields, and count no uploads).
func decodeReport(b []byte) (loadtest.Report, error) {
	var r loadtest.Report
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("the load tool's report: %w", err)
	}
	if !r.Bot.Measured || r.Answers.Answered == 0 {
		return r, errors.New("the load tool measured no interaction of the bot")
	}
	return r, nil
}

// late is the interactions of r not answered within Discord's 3 s, those
// never answered included.
func late(r loadtest.Report) int { return r.Answers.Dispatched - r.Answers.InTime }

// result is one run.
type result struct {
	pair   int
	side   string
	report loadtest.Report
}

func (r result) line() string {
	d := r.report.Discord
	up := "—" // none counted: the earliest load tools count no uploads
	if d.Uploads > 0 {
		up = fmt.Sprintf("%.1f KiB", d.UploadedBytesPerTurn/1024)
	}
	return fmt.Sprintf("%.2f ms an interaction; p99 %.1f ms; %d answered, %d late; %d bot-token requests; %s uploaded a turn; others %.2f cores",
		r.report.Bot.CPUPerInteractionMS, r.report.Answers.Latency.P99, r.report.Answers.Answered, late(r.report),
		d.BotToken, up, r.report.Machine.OthersCores)
}

// table is the runs pair by pair, as Markdown, with the ratio of this
// tree's CPU per interaction to the commit's.
func table(o options, other, here string, runs []result) string {
	var b strings.Builder
	cmd := fmt.Sprintf("dixload -bot <bin> -games %d -think %s -duration %s -q", o.games, o.think, o.duration)
	if o.game != "dix" {
		cmd += " -game " + o.game
	}
	fmt.Fprintf(&b, "`%s`, each bot with its own load tool", cmd)
	if o.hereSocket {
		b.WriteString(", this tree's with `-redis-socket`")
	}
	b.WriteString(":\n\n")
	fmt.Fprintf(&b, "| pair | first | %s | %s | ratio |\n|---|---|---|---|---|\n", other, here)
	for pair := 1; pair <= o.pairs; pair++ {
		var them, us *result
		for i := range runs {
			switch {
			case runs[i].pair != pair:
			case runs[i].side == here:
				us = &runs[i]
			default:
				them = &runs[i]
			}
		}
		if them == nil || us == nil {
			continue
		}
		first := other
		if pair%2 == 0 {
			first = here
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %.2f |\n", pair, first, cell(them.report), cell(us.report), us.report.Bot.CPUPerInteractionMS/them.report.Bot.CPUPerInteractionMS)
	}
	return b.String()
}

func cell(r loadtest.Report) string {
	return fmt.Sprintf("%.2f ms; p99 %.1f ms; %d late; others %.2f cores", r.Bot.CPUPerInteractionMS, r.Answers.Latency.P99, late(r), r.Machine.OthersCores)
}

// gitOut runs git in dir ("": the current directory) and returns its
// output, trimmed.
func gitOut(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, lastLine(errb.String()))
	}
	return strings.TrimSpace(out.String()), nil
}
