//! What is taken from a model's answer: never more than the design file's budget
//! (`token_budgets.design_file_tokens`). A model that rambles — or a provider, or something posing
//! as one, that sends megabytes — cannot fill a design file, an `.aindex` or START_HERE.md with it.
//!
//! The budget is shared in the order the design file shows the model's prose: the description gets
//! at most a quarter of it, the Interface Contract notes what is left, then the Complexity Warning;
//! tags are few and short already (`response::MAX_TAGS`). A field cut short ends with a marker that
//! says so and by how much the answer was over ([`CUT_MARK`]), and the footer's `over_scoped` key
//! keeps the sizes (`engine::update::generate`).

use super::response::Answer;

/// How the end of a cut text reads: `… [cut: the model answer was 5210 tokens, over the design
/// file budget of 400]`.
pub const CUT_MARK: &str = "… [cut: the model answer was";

/// Answers longer than this many bytes per token of budget are not tokenised whole (a 5 MB answer
/// would take seconds): their size is estimated, and they are cut by bytes before anything else.
const BYTES_PER_TOKEN_READ: usize = 64;

/// The raw answer before it is parsed: at most [`BYTES_PER_TOKEN_READ`] bytes per token of
/// `budget`, cut at a line break (every field is cut to the budget afterwards anyway).
pub fn head(text: &str, budget: usize) -> &str {
    let limit = budget.max(64).saturating_mul(BYTES_PER_TOKEN_READ);
    if text.len() <= limit {
        return text;
    }
    let cut = floor_char_boundary(text, limit);
    let at_line = text[..cut].rfind('\n').unwrap_or(cut);
    &text[..at_line]
}

/// The cl100k size of a whole answer: counted when it is small enough to count quickly, estimated
/// otherwise (an answer that large is far over any budget either way).
pub fn answer_tokens(text: &str, budget: usize) -> usize {
    if text.len() > budget.max(64).saturating_mul(BYTES_PER_TOKEN_READ) {
        crate::tokens::estimate(text)
    } else {
        crate::tokens::count(text)
    }
}

/// `answer` with each field within its share of `budget` tokens; `tokens` is the size of the whole
/// answer, for the marker. `None` when nothing had to be cut.
pub fn cap(answer: &Answer, budget: usize, tokens: usize) -> Option<Answer> {
    if budget == 0 {
        return None;
    }
    let mark = format!("{CUT_MARK} {tokens} tokens, over the design file budget of {budget}]");
    let mut left = budget;
    let mut cut_any = false;
    let mut take = |text: &str, share: usize| -> String {
        let (kept, cut) = within(text, share.min(left), &mark);
        left = left.saturating_sub(crate::tokens::count(&kept));
        cut_any |= cut;
        kept
    };
    // The description gets a quarter, but always room for a few words and the marker.
    let description = take(&answer.description, (budget / 4).max(40));
    let contract = answer
        .contract
        .as_deref()
        .map(|text| take(text, usize::MAX));
    let complexity = answer
        .complexity
        .as_deref()
        .map(|text| take(text, usize::MAX));
    let capped = Answer {
        description,
        contract: contract.filter(|text| !text.is_empty()),
        complexity: complexity.filter(|text| !text.is_empty()),
        tags: answer.tags.clone(),
    };
    cut_any.then_some(capped)
}

/// `text` within `limit` tokens: as it is when it fits, else its longest start (at a whitespace)
/// that fits together with `mark`, then the mark. Returns whether it was cut.
fn within(text: &str, limit: usize, mark: &str) -> (String, bool) {
    // A token is at least one byte: a text no longer than the limit in bytes fits.
    if text.len() <= limit || crate::tokens::count(text) <= limit {
        return (text.to_string(), false);
    }
    let Some(room) = limit.checked_sub(crate::tokens::count(mark) + 1) else {
        // No room even for the marker: the field is dropped (the footer says the answer was cut).
        return (String::new(), true);
    };
    // Most text is three to five bytes a token: start from eight, then shrink until it fits.
    let mut end = floor_char_boundary(text, room.saturating_mul(8));
    loop {
        let start = text[..end].trim_end();
        if start.is_empty() || crate::tokens::count(start) <= room {
            let start = match start.rfind(char::is_whitespace) {
                Some(at) if at > start.len() / 2 => start[..at].trim_end(),
                _ => start,
            };
            let kept = if start.is_empty() {
                mark.to_string()
            } else {
                format!("{start} {mark}")
            };
            return (kept, true);
        }
        end = floor_char_boundary(text, end * 3 / 4);
    }
}

/// The largest char boundary of `text` at or below `at`.
fn floor_char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_within_the_budget_is_taken_whole() {
        let answer = Answer {
            description: "Parses configs.".into(),
            contract: Some("Returns `Err` on a bad key.".into()),
            complexity: None,
            tags: vec!["config".into()],
        };
        assert_eq!(cap(&answer, 400, 20), None);
    }

    #[test]
    fn a_long_answer_is_cut_to_the_budget_and_says_so() {
        let long = "The parser reads every key twice. ".repeat(2000);
        let answer = Answer {
            description: long.clone(),
            contract: Some(long.clone()),
            complexity: Some(long.clone()),
            tags: vec!["config".into()],
        };
        let tokens = crate::tokens::count(&long) * 3;
        let capped = cap(&answer, 400, tokens).expect("cut");
        let total = crate::tokens::count(&capped.description)
            + crate::tokens::count(capped.contract.as_deref().unwrap_or(""))
            + crate::tokens::count(capped.complexity.as_deref().unwrap_or(""));
        assert!(total <= 400, "{total}");
        assert!(crate::tokens::count(&capped.description) <= 100);
        assert!(capped
            .description
            .starts_with("The parser reads every key twice."));
        assert!(
            capped.description.ends_with(&format!(
                "{CUT_MARK} {tokens} tokens, over the design file budget of 400]"
            )),
            "{}",
            capped.description
        );
        assert_eq!(capped.tags, ["config"]);
    }

    #[test]
    fn a_huge_raw_answer_is_cut_by_bytes_before_it_is_parsed() {
        let huge = "Description: x.\n".repeat(400_000);
        let head = head(&huge, 400);
        assert!(head.len() <= 400 * 64);
        assert!(head.ends_with("x."));
        assert!(answer_tokens(&huge, 400) > 400);
    }
}
