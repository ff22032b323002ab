//! Stack history in a review: replaying a post's notes events to place them before or after a
//! commit, and reading event timestamps.

use super::*;

/// What a post's frontmatter says that its history also records: net score, answer scores, status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PostState {
    pub(super) votes: i64,
    pub(super) answers: BTreeMap<u32, i64>,
    pub(super) status: String,
}

impl PostState {
    pub(super) fn of(post: &Post) -> PostState {
        PostState {
            votes: post.meta.votes,
            answers: post
                .meta
                .answer_votes
                .iter()
                .filter(|(_, score)| **score != 0)
                .map(|(answer, score)| (*answer, *score))
                .collect(),
            status: post.meta.status.as_str().to_string(),
        }
    }
}

/// The state after each prefix of `events`: `[k]` is the state after the first `k` events.
pub(super) fn replay<'e>(events: impl Iterator<Item = &'e StackEvent>) -> Vec<PostState> {
    let mut state = PostState {
        votes: 0,
        answers: BTreeMap::new(),
        status: "open".to_string(),
    };
    let mut states = vec![state.clone()];
    for event in events {
        match event.kind {
            StackEventKind::Vote => {
                let delta = event.delta.unwrap_or(0);
                match event.answer {
                    None => state.votes += delta,
                    Some(answer) => {
                        let score = state.answers.entry(answer).or_insert(0);
                        *score += delta;
                        if *score == 0 {
                            state.answers.remove(&answer);
                        }
                    }
                }
            }
            StackEventKind::Status | StackEventKind::Accept => {
                if let Some(status) = &event.status {
                    state.status = status.clone();
                }
            }
            _ => {}
        }
        states.push(state.clone());
    }
    states
}

/// Milliseconds since the Unix epoch of an RFC 3339 UTC time (`2026-01-15T10:30:00Z`, optionally with
/// a fraction), or `None` if it is not one.
pub(super) fn ts_millis(ts: &str) -> Option<i64> {
    let ts = ts.trim().strip_suffix('Z')?;
    let (date, time) = ts.split_once('T')?;
    let mut date_parts = date.splitn(3, '-').map(str::parse::<i64>);
    let (year, month, day) = (
        date_parts.next()?.ok()?,
        date_parts.next()?.ok()?,
        date_parts.next()?.ok()?,
    );
    let (clock, fraction) = time.split_once('.').unwrap_or((time, ""));
    let mut clock_parts = clock.splitn(3, ':').map(str::parse::<i64>);
    let (hour, minute, second) = (
        clock_parts.next()?.ok()?,
        clock_parts.next()?.ok()?,
        clock_parts.next()?.ok()?,
    );
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 {
        return None;
    }
    let millis = if fraction.is_empty() {
        0
    } else {
        let digits: String = fraction.chars().take(3).collect();
        format!("{digits:0<3}").parse::<i64>().ok()?
    };
    // Howard Hinnant's days-from-civil.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 86_400 + hour * 3600 + minute * 60 + second) * 1000) + millis)
}
