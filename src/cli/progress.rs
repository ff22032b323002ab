//! How a long command shows its progress on stderr: the [`Bar`] (only on a terminal, never on a
//! pipe) and, on request, the wall time of each phase ([`Timings`], `lexictl update --timings`).
//! Both are [`Progress`] sinks of the update engine; [`Shown`] sends each event to both.

use std::io::IsTerminal as _;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::engine::update::Progress;

/// A progress bar on stderr, only when stderr is a terminal (never on a pipe): the phase of the
/// run (planning, scanning, deciding, recording provenance, writing, asking the model, indexing,
/// saving), its count when it has one, the model's failures so far, and the time.
pub struct Bar {
    bar: indicatif::ProgressBar,
    /// The current phase's name and how many of its items failed.
    phase: std::sync::Mutex<(&'static str, usize)>,
}

impl Bar {
    pub fn new() -> Option<Bar> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        let bar = indicatif::ProgressBar::new(0);
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        Some(Bar {
            bar,
            phase: std::sync::Mutex::new(("", 0)),
        })
    }

    fn style(counted: bool) -> indicatif::ProgressStyle {
        let template = match counted {
            true => "{spinner} {msg:<24} {bar:30} {pos}/{len} {elapsed}",
            false => "{spinner} {msg:<24} {elapsed}",
        };
        indicatif::ProgressStyle::with_template(template)
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
    }
}

impl Progress for Bar {
    fn phase(&self, name: &'static str, total: usize) {
        if let Ok(mut phase) = self.phase.lock() {
            *phase = (name, 0);
        }
        self.bar.set_style(Bar::style(total > 0));
        self.bar.set_length(total as u64);
        self.bar.set_position(0);
        self.bar.set_message(name);
    }
    fn advance(&self) {
        self.bar.inc(1);
    }
    fn failed(&self) {
        if let Ok(mut phase) = self.phase.lock() {
            phase.1 += 1;
            self.bar
                .set_message(format!("{} ({} failed)", phase.0, phase.1));
        }
    }
    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The wall time of each phase of a run, printed to stderr when the run is over: where a slow
/// update spends its time, without a profiler.
pub struct Timings {
    /// The phases begun so far, each with the moment it began.
    phases: Mutex<Vec<(&'static str, Instant)>>,
}

impl Timings {
    pub fn new() -> Timings {
        Timings {
            phases: Mutex::new(Vec::new()),
        }
    }

    /// One line per phase — its name and milliseconds — then the total, measured up to `end`.
    pub fn lines(&self, end: Instant) -> String {
        let Ok(phases) = self.phases.lock() else {
            return String::new();
        };
        let mut out = String::new();
        let mut total = Duration::ZERO;
        for (at, (name, started)) in phases.iter().enumerate() {
            let ended = phases.get(at + 1).map_or(end, |(_, next)| *next);
            let took = ended.saturating_duration_since(*started);
            total += took;
            out.push_str(&format!("{name:<22} {:>8.1} ms\n", millis(took)));
        }
        out.push_str(&format!("{:<22} {:>8.1} ms\n", "total", millis(total)));
        out
    }
}

impl Default for Timings {
    fn default() -> Self {
        Timings::new()
    }
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

impl Progress for Timings {
    fn phase(&self, name: &'static str, _total: usize) {
        if let Ok(mut phases) = self.phases.lock() {
            phases.push((name, Instant::now()));
        }
    }
}

/// Progress shown on the bar (when there is one) and timed (when asked).
pub struct Shown<'a> {
    pub bar: Option<&'a Bar>,
    pub timings: Option<&'a Timings>,
}

impl Shown<'_> {
    fn each(&self, event: impl Fn(&dyn Progress)) {
        if let Some(bar) = self.bar {
            event(bar);
        }
        if let Some(timings) = self.timings {
            event(timings);
        }
    }
}

impl Progress for Shown<'_> {
    fn phase(&self, name: &'static str, total: usize) {
        self.each(|sink| sink.phase(name, total));
    }
    fn advance(&self) {
        self.each(|sink| sink.advance());
    }
    fn failed(&self) {
        self.each(|sink| sink.failed());
    }
    fn finish(&self) {
        self.each(|sink| sink.finish());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_phase_lasts_until_the_next_begins() {
        let timings = Timings::new();
        timings.phase("scanning", 10);
        timings.phase("writing", 10);
        let lines = timings.lines(Instant::now());
        let names: Vec<&str> = lines
            .lines()
            .filter_map(|line| line.split_whitespace().next())
            .collect();
        assert_eq!(names, ["scanning", "writing", "total"]);
        assert!(lines.ends_with(" ms\n"), "{lines}");
    }
}
