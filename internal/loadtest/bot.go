package loadtest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// BotSettings is what the bot under load is pointed at.
type BotSettings struct {
	Token       string // the stand-in's bot token
	APIURL      string // the stand-in's base URL (DISCORD_API_URL)
	RedisURL    string
	RedisPrefix string
	// Env is more of the bot's environment, e.g. "DIX_PICTURES=off".
	Env []string
}

// Environ is s as cmd/dixbot's environment variables.
func (s BotSettings) Environ() []string {
	return append([]string{
		"DISCORD_TOKEN=" + s.Token,
		"DISCORD_API_URL=" + s.APIURL,
		"REDIS_URL=" + s.RedisURL,
		"REDIS_PREFIX=" + s.RedisPrefix,
	}, s.Env...)
}

// Usage is the resources the bot has used so far.
type Usage struct {
	CPU     time.Duration // user + system time
	PeakRSS int64         // bytes, the peak resident set (VmHWM)
	// RunDelay is how long its threads waited for a CPU while ready to
	// run (schedstat); 0 when unknown.
	RunDelay time.Duration
}

// Bot is the bot under load.
type Bot interface {
	// Start starts the bot with s. It returns once the bot is started;
	// Run then waits until it has registered its commands and connected.
	Start(ctx context.Context, s BotSettings) error
	// Exited is closed if the bot stops by itself.
	Exited() <-chan struct{}
	// Usage reads the bot's resource use; ok is false when it cannot be
	// told apart from the load's own (a bot in this process).
	Usage() (u Usage, ok bool, err error)
	// Stop stops the bot and waits for it; a clean stop returns nil.
	Stop(ctx context.Context) error
	// Describe says what runs the bot, for the report.
	Describe() string
}

// Child runs a cmd/dixbot binary as a child process, with a clean
// environment (PATH, HOME and GOMAXPROCS when set, then the settings),
// its JSON log written to LogFile. It is not safe for concurrent use,
// except Exited and Usage.
type Child struct {
	Path    string // the dixbot binary
	Dir     string // working directory
	LogFile string // where the bot's log goes

	cmd    *exec.Cmd
	log    *os.File
	exited chan struct{}
	err    error // the exit error, set before exited closes
}

// Start starts the binary.
func (c *Child) Start(_ context.Context, s BotSettings) error {
	if c.log != nil {
		_ = c.log.Close() // the log of an earlier start that failed
	}
	log, err := os.Create(c.LogFile)
	if err != nil {
		return fmt.Errorf("loadtest: bot log: %w", err)
	}
	var env []string
	for _, name := range []string{"PATH", "HOME", "GOMAXPROCS", "GOGC", "GOMEMLIMIT"} {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	// The production container's settings (docker-compose.yml): JSON logs
	// at info.
	env = append(env, "LOG_FORMAT=json", "LOG_LEVEL=info")
	c.cmd = exec.Command(c.Path)
	c.cmd.Dir = c.Dir
	c.cmd.Env = append(env, s.Environ()...)
	c.cmd.Stdout, c.cmd.Stderr = log, log
	if err := c.cmd.Start(); err != nil {
		_ = log.Close()
		return fmt.Errorf("loadtest: starting %s: %w", c.Path, err)
	}
	c.log = log
	c.exited = make(chan struct{})
	go func() {
		c.err = c.cmd.Wait()
		close(c.exited)
	}()
	return nil
}

// Exited is closed once the process has exited.
func (c *Child) Exited() <-chan struct{} { return c.exited }

// Usage reads utime and stime from /proc/<pid>/stat, VmHWM from
// /proc/<pid>/status and the threads' run delay from their schedstat.
func (c *Child) Usage() (Usage, bool, error) {
	pid := c.cmd.Process.Pid
	cpu, err := procCPU(pid)
	if err != nil {
		return Usage{}, false, err
	}
	st, err := procStatus(pid)
	if err != nil {
		return Usage{}, false, err
	}
	delay, _ := procRunDelay(pid) // schedstat may be missing: then 0
	return Usage{CPU: cpu, PeakRSS: st["VmHWM"], RunDelay: delay}, true, nil
}

// Stop sends SIGTERM (the bot finishes the interactions in flight) and
// waits; past ctx's end it kills the process.
func (c *Child) Stop(ctx context.Context) error {
	defer func() { _ = c.log.Close() }()
	select {
	case <-c.exited:
		return fmt.Errorf("loadtest: the bot had exited: %w", c.err)
	default:
	}
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.exited:
		return c.err
	case <-ctx.Done():
		_ = c.cmd.Process.Kill()
		<-c.exited
		return fmt.Errorf("loadtest: the bot did not stop after SIGTERM: %w", ctx.Err())
	}
}

// Describe names the binary and its process id.
func (c *Child) Describe() string {
	return fmt.Sprintf("child process %s (pid %d)", filepath.Base(c.Path), c.cmd.Process.Pid)
}

// LogProblems counts the warnings and errors in the bot's JSON log and
// returns the first few distinct messages.
func (c *Child) LogProblems() (LogProblems, error) {
	return readLogProblems(c.LogFile)
}

// LogProblems summarises a bot log's warnings and errors.
type LogProblems struct {
	Warnings int      `json:"warnings"`
	Errors   int      `json:"errors"`
	First    []string `json:"first,omitempty"` // up to 5 distinct "LEVEL msg: err"
}

func readLogProblems(path string) (LogProblems, error) {
	var p LogProblems
	f, err := os.Open(path)
	if err != nil {
		return p, err
	}
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var line struct {
			Level string `json:"level"`
			Msg   string `json:"msg"`
			Err   string `json:"err"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		switch line.Level {
		case "WARN":
			p.Warnings++
		case "ERROR":
			p.Errors++
		default:
			continue
		}
		key := line.Level + " " + line.Msg
		if line.Err != "" {
			key += ": " + line.Err
		}
		if !seen[key] && len(p.First) < 5 {
			seen[key] = true
			p.First = append(p.First, key)
		}
	}
	return p, sc.Err()
}

// logReader is a Bot whose log can be summarised.
type logReader interface {
	LogProblems() (LogProblems, error)
}

// InProcess adapts a function that runs the bot in this process until its
// context ends (app.Run in cmd/dixload): for profiling, since the bot's
// CPU time is then not told apart from the load's.
type InProcess struct {
	Run func(ctx context.Context, s BotSettings) error
	// LogFile, when set, is the JSON log Run writes, for LogProblems.
	LogFile string

	cancel context.CancelFunc
	exited chan struct{}
	mu     sync.Mutex
	err    error
}

// Start runs the bot in a goroutine.
func (p *InProcess) Start(_ context.Context, s BotSettings) error {
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel, p.exited = cancel, make(chan struct{})
	go func() {
		err := p.Run(ctx, s)
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(p.exited)
	}()
	return nil
}

// Exited is closed once Run has returned.
func (p *InProcess) Exited() <-chan struct{} { return p.exited }

// Usage is not known apart from the process's.
func (p *InProcess) Usage() (Usage, bool, error) { return Usage{}, false, nil }

// Stop cancels Run's context and waits for it.
func (p *InProcess) Stop(ctx context.Context) error {
	p.cancel()
	select {
	case <-p.exited:
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.err
	case <-ctx.Done():
		return errors.New("loadtest: the bot did not stop")
	}
}

// LogProblems summarises LogFile.
func (p *InProcess) LogProblems() (LogProblems, error) {
	if p.LogFile == "" {
		return LogProblems{}, errors.New("loadtest: no log file")
	}
	return readLogProblems(p.LogFile)
}

// Describe says the bot runs in this process.
func (p *InProcess) Describe() string { return "in this process (its CPU is not told apart)" }

// errExited is returned when the bot stops by itself, at its start or
// during the run.
var errExited = errors.New("loadtest: the bot exited")

// errAddrTaken is returned with errExited when the bot stopped at its
// start because the address of its /metrics (HTTP_ADDR) was taken.
var errAddrTaken = errors.New("its HTTP_ADDR was taken")

// stopReason is a Bot that can say why it stopped.
type stopReason interface {
	StopReason() string
}

// logTailLines is how many of the log's last lines StopReason quotes.
const logTailLines = 5

// StopReason returns the last lines of LogFile ("" when unreadable).
func (c *Child) StopReason() string {
	b, err := os.ReadFile(c.LogFile)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(len(lines)-logTailLines, 0):], "\n")
}

// StopReason returns the error Run returned ("" while it runs, or when
// it returned none).
func (p *InProcess) StopReason() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err == nil {
		return ""
	}
	return p.err.Error()
}
