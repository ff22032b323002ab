//! Vote counts against their history: when the `votes` of a Stack post (or of one of its answers)
//! may be recomputed from the vote events in git notes, and when it must be left alone.
//!
//! The frontmatter travels with the branch; the history travels with the notes, which a fresh clone
//! does not have and which other clones share only when they sync. So the history a clone holds may
//! be *incomplete*, and a score must never be lowered from an incomplete history (a clone without the
//! notes would turn `votes: 3` into `votes: 1` on its first vote). Every vote event records the score
//! its voter saw (`before`), which makes missing events visible: a history is **complete** when
//!
//! - every recorded vote's `before` can be made of the other recorded votes (at most their
//!   upvotes, at least minus their downvotes — a voter can only have seen votes that exist), and
//! - the frontmatter's count can be made of the recorded votes too (it counts no vote the history
//!   lacks).
//!
//! A complete history is the truth: its net replaces the count (two clones voting at once from
//! `votes: 3` both write `votes: 4`, a merge keeps one line, the history says 5). An incomplete one
//! leaves the count as it is; the next vote adds its delta to it. Events written before `before`
//! existed constrain nothing.

use super::events::{StackEvent, StackEventKind};

/// What the history says about one count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "history")]
pub enum Tally {
    /// Every vote the count can have seen is recorded: `net` is the score.
    Complete { net: i64 },
    /// Votes are missing (cast in clones whose notes are not here): `net` of those recorded.
    Incomplete { net: i64 },
}

impl Tally {
    /// The net of the recorded votes.
    pub fn net(self) -> i64 {
        match self {
            Tally::Complete { net } | Tally::Incomplete { net } => net,
        }
    }

    /// The score to use for a count that reads `count`: the history's net when it is complete,
    /// else the count as it is (never lowered, nor raised, from a partial history).
    pub fn reconcile(self, count: i64) -> i64 {
        match self {
            Tally::Complete { net } => net,
            Tally::Incomplete { .. } => count,
        }
    }
}

/// Tally the vote events on the post (`answer: None`) or on one answer, for a frontmatter that
/// reads `count`.
pub fn tally(events: &[StackEvent], answer: Option<u32>, count: i64) -> Tally {
    let votes: Vec<&StackEvent> = events
        .iter()
        .filter(|event| event.kind == StackEventKind::Vote && event.answer == answer)
        .collect();
    let delta = |event: &StackEvent| event.delta.unwrap_or(0);
    let ups = votes.iter().filter(|event| delta(event) > 0).count() as i64;
    let downs = votes.iter().filter(|event| delta(event) < 0).count() as i64;
    let net: i64 = votes.iter().map(|event| delta(event)).sum();
    let seen_exists = votes.iter().all(|event| {
        let Some(before) = event.before else {
            return true;
        };
        let others_up = ups - i64::from(delta(event) > 0);
        let others_down = downs - i64::from(delta(event) < 0);
        (-others_down..=others_up).contains(&before)
    });
    if seen_exists && (-downs..=ups).contains(&count) {
        Tally::Complete { net }
    } else {
        Tally::Incomplete { net }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vote(delta: i64, before: Option<i64>) -> StackEvent {
        let mut event = StackEvent::new(
            "2026-01-15T10:30:00.000Z".into(),
            format!("{delta}{before:?}"),
            StackEventKind::Vote,
            "ST-001",
            "ana",
        );
        event.delta = Some(delta);
        event.before = before;
        event
    }

    #[test]
    fn a_clone_without_the_notes_never_lowers_a_score() {
        // votes: 3, nothing recorded here.
        assert_eq!(tally(&[], None, 3), Tally::Incomplete { net: 0 });
        assert_eq!(tally(&[], None, 3).reconcile(3), 3);
        // It votes from 3: its own event alone still shows votes it has not got.
        let mine = [vote(1, Some(3))];
        assert_eq!(tally(&mine, None, 4), Tally::Incomplete { net: 1 });
        // With the other clones' notes the history is complete and agrees.
        let all = [
            vote(1, Some(0)),
            vote(1, Some(1)),
            vote(1, Some(2)),
            vote(1, Some(3)),
        ];
        assert_eq!(tally(&all, None, 4), Tally::Complete { net: 4 });
    }

    #[test]
    fn concurrent_votes_merged_as_one_are_restored() {
        // Two clones vote from 3; the merge keeps one `votes: 4` line.
        let history = [
            vote(1, Some(0)),
            vote(1, Some(1)),
            vote(1, Some(2)),
            vote(1, Some(3)),
            vote(1, Some(3)),
        ];
        assert_eq!(tally(&history, None, 4).reconcile(4), 5);
        // The same with downvotes: a count that is too high is lowered when the history is complete.
        let history = [
            vote(1, Some(0)),
            vote(1, Some(1)),
            vote(1, Some(2)),
            vote(-1, Some(3)),
            vote(-1, Some(3)),
        ];
        assert_eq!(tally(&history, None, 2).reconcile(2), 1);
    }

    #[test]
    fn a_count_the_history_cannot_explain_is_left_alone() {
        // A vote counted in the frontmatter but recorded only in a clone that has not synced.
        let history = [vote(1, Some(0)), vote(1, Some(1)), vote(1, Some(2))];
        assert_eq!(tally(&history, None, 4), Tally::Incomplete { net: 3 });
        assert_eq!(tally(&history, None, 4).reconcile(4), 4);
        // Answers are counted apart, and old events without `before` constrain nothing.
        let mut on_answer = vote(1, None);
        on_answer.answer = Some(1);
        assert_eq!(
            tally(&[on_answer.clone()], Some(1), 1),
            Tally::Complete { net: 1 }
        );
        assert_eq!(tally(&[on_answer], None, 0), Tally::Complete { net: 0 });
    }
}
