package clock

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

var tenMin = Pace{Name: "test", Bank: 10 * time.Minute, Increment: time.Minute}

func TestBankAndIncrement(t *testing.T) {
	c := New(tenMin, 2)
	c.Start(0, at(0))
	assert.Equal(t, at(10*time.Minute), c.Deadline())
	assert.Equal(t, 7*time.Minute, c.Remaining(0, at(3*time.Minute)))
	assert.Equal(t, 10*time.Minute, c.Remaining(1, at(3*time.Minute)), "only the player to act spends")
	c.Stop(at(4 * time.Minute))
	assert.Equal(t, 7*time.Minute, c.Banks[0], "10 − 4 + 1")
	assert.True(t, c.Deadline().IsZero(), "no decision runs")

	c.Start(1, at(4*time.Minute))
	c.Stop(at(20 * time.Minute)) // late by 6 minutes: the bank stops at zero
	assert.Equal(t, time.Minute, c.Banks[1], "0 + the increment")

	c.Start(0, at(20*time.Minute))
	assert.False(t, c.Expired(at(26*time.Minute+59*time.Second)))
	assert.True(t, c.Expired(at(27*time.Minute)), "7 minutes left")
}

func TestStartingAnotherSeatCharges(t *testing.T) {
	c := New(tenMin, 3)
	c.Start(0, at(0))
	c.Start(2, at(2*time.Minute)) // the decision passes without being "made"
	assert.Equal(t, 8*time.Minute, c.Banks[0], "charged, no increment")
	assert.Equal(t, 2, c.Seat)
	c.Start(2, at(3*time.Minute)) // already running: nothing changes
	assert.Equal(t, at(12*time.Minute), c.Deadline())
}

func TestRemindersAtHalfAndNineTenths(t *testing.T) {
	c := New(tenMin, 2)
	c.Start(0, at(0))
	assert.Equal(t, at(5*time.Minute), c.NextReminder())
	assert.Equal(t, at(5*time.Minute), c.Wake())
	assert.False(t, c.Remind(at(4*time.Minute)))
	assert.True(t, c.Remind(at(5*time.Minute)))
	assert.False(t, c.Remind(at(5*time.Minute)), "never twice for one moment")
	assert.Equal(t, at(9*time.Minute), c.NextReminder())
	assert.True(t, c.Remind(at(9*time.Minute)))
	assert.True(t, c.NextReminder().IsZero(), "two reminders at most")
	assert.False(t, c.Remind(at(9*time.Minute+59*time.Second)))
	assert.Equal(t, at(10*time.Minute), c.Wake(), "then the deadline")

	// A new decision gets its own two.
	c.Stop(at(9*time.Minute + 30*time.Second))
	c.Start(1, at(10*time.Minute))
	assert.Equal(t, at(15*time.Minute), c.NextReminder())
}

func TestLateWakeSendsOneReminder(t *testing.T) {
	c := New(tenMin, 1)
	c.Start(0, at(0))
	// Woken only after both moments (the bot was down): one reminder.
	assert.True(t, c.Remind(at(9*time.Minute+30*time.Second)))
	assert.False(t, c.Remind(at(9*time.Minute+40*time.Second)))
	assert.Equal(t, MaxReminders, c.Reminded)
}

func TestPauseStopsTheClock(t *testing.T) {
	c := New(tenMin, 2)
	c.Start(0, at(0))
	c.Pause(at(3 * time.Minute))
	assert.True(t, c.Paused())
	assert.True(t, c.Deadline().IsZero(), "no deadline while paused")
	assert.True(t, c.Wake().IsZero())
	assert.Equal(t, 7*time.Minute, c.Remaining(0, at(2*time.Hour)), "no time runs")
	assert.False(t, c.Remind(at(2*time.Hour)))
	c.Resume(at(2 * time.Hour))
	assert.Equal(t, at(2*time.Hour+7*time.Minute), c.Deadline())
	assert.Equal(t, at(2*time.Hour+210*time.Second), c.NextReminder(), "half of the 7 minutes left")

	// A decision started while paused starts counting at Resume.
	c.Stop(at(2*time.Hour + time.Minute))
	c.Pause(at(3 * time.Hour))
	c.Start(1, at(3*time.Hour))
	assert.True(t, c.Deadline().IsZero())
	c.Resume(at(5 * time.Hour))
	assert.Equal(t, at(5*time.Hour+10*time.Minute), c.Deadline())
}

func TestClockRoundTripsAsJSON(t *testing.T) {
	c := New(Evening, 3)
	c.Start(1, at(0))
	c.Remind(at(2 * time.Hour))
	b, err := json.Marshal(c)
	require.NoError(t, err)
	var back Clock
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, c.Deadline(), back.Deadline())
	assert.Equal(t, c.NextReminder(), back.NextReminder())
	assert.Less(t, len(b), 200, "small enough to keep with every game")
}

func TestParsePaces(t *testing.T) {
	got, err := ParsePaces("")
	require.NoError(t, err)
	assert.Equal(t, Defaults, got)

	got, err = ParsePaces("live=3s+1s, Evening=10s+2s")
	require.NoError(t, err)
	live, _ := Find(got, "live")
	assert.Equal(t, Pace{Name: "live", Bank: 3 * time.Second, Increment: time.Second}, live)
	ev, _ := Find(got, "evening")
	assert.Equal(t, 10*time.Second, ev.Bank)
	rel, _ := Find(got, "relaxed")
	assert.Equal(t, Relaxed, rel, "not named: its default")

	for _, bad := range []string{"live", "live=3s", "fast=1m+1m", "live=soon+1m", "live=0s+1m", "live=1m+-1s"} {
		_, err := ParsePaces(bad)
		assert.ErrorIs(t, err, ErrPaces, bad)
	}
	_, ok := Find(Defaults, DefaultPace)
	assert.True(t, ok)
}

func TestHaltChargesWithoutIncrement(t *testing.T) {
	c := New(tenMin, 2)
	c.Start(0, at(0))
	c.Halt(at(3 * time.Minute))
	assert.Equal(t, 7*time.Minute, c.Banks[0], "the time used, and no increment: no decision was made")
	assert.Equal(t, -1, c.Seat)
	assert.True(t, c.Wake().IsZero(), "nothing to wake for")
	var none *Clock
	assert.True(t, none.Wake().IsZero(), "a game without a clock never wakes")
}

func TestBankNeverGrowsBeyondItsStart(t *testing.T) {
	c := New(tenMin, 2)
	for i := range 50 { // fast decisions, each earning the increment
		c.Start(0, at(time.Duration(i)*time.Second))
		c.Stop(at(time.Duration(i)*time.Second + time.Second))
	}
	assert.Equal(t, tenMin.Bank, c.Banks[0], "capped at the starting bank")
	c.Start(0, at(time.Hour))
	c.Stop(at(time.Hour + 4*time.Minute))
	assert.Equal(t, 7*time.Minute, c.Banks[0], "10 − 4 + 1: below the cap the increment is whole")
	c.Start(0, at(2*time.Hour))
	c.Stop(at(2*time.Hour + 30*time.Second))
	assert.Equal(t, 7*time.Minute+30*time.Second, c.Banks[0])
	c.Start(0, at(3*time.Hour))
	c.Stop(at(3 * time.Hour))
	assert.Equal(t, 8*time.Minute+30*time.Second, c.Banks[0])
	c.Start(0, at(4*time.Hour))
	c.Stop(at(4 * time.Hour))
	c.Start(0, at(5*time.Hour))
	c.Stop(at(5 * time.Hour))
	assert.Equal(t, tenMin.Bank, c.Banks[0], "9.5 + 1 stops at 10")
}
