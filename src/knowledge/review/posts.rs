//! Stack posts in a review: what changed in a post between the two ends (status, score, answers,
//! comments) and the events its history in the notes recorded meanwhile.

use super::*;
use crate::library::stack::PostBody;

impl Reviewer<'_> {
    /// A post added, changed, renamed or removed.
    pub(super) fn post_change(&self, touch: &Touched) -> anyhow::Result<PostChange> {
        let base = self.at_base(touch.from.as_deref())?;
        let head = self.at_head(touch.to.as_deref())?;
        let path = touch.path().to_string();
        let base_post = parse_post(touch.from.as_deref(), &base).and_then(Result::ok);
        let (head_post, error) = match parse_post(touch.to.as_deref(), &head) {
            Some(Ok(post)) => (Some(post), None),
            Some(Err(err)) => (None, Some(err)),
            None => (None, None),
        };
        let posts = PostEnds::new(base_post.as_ref(), head_post.as_ref());
        let latest = posts.head.or(posts.base);
        let id = latest
            .map(|post| post.meta.id.clone())
            .or_else(|| id_from_file_name(file_name(&path)))
            .unwrap_or_default();
        let history = if self.has_stack_notes && !id.is_empty() {
            Some(self.history(&id, posts.base, posts.head)?)
        } else {
            None
        };
        let accepted_answer = posts.delta(|p| p.meta.accepted_answer);
        Ok(PostChange {
            title: latest.map(|p| p.meta.title.clone()).unwrap_or_default(),
            status: posts.delta(|p| Some(p.meta.status.as_str().to_string())),
            votes: posts.delta(|p| Some(p.meta.votes)),
            accepted_author: posts.accepted_author(accepted_answer.head),
            accepted_answer,
            answers_added: posts.answers_added(),
            comments_added: posts.comments_added(),
            answer_votes: posts.answer_votes(),
            history,
            error,
            id,
            path,
            change: touch.kind(),
            from: touch.renamed_from(),
        })
    }

    /// The post's events recorded during the range, oldest first. Events are placed by time; the
    /// ones in the same second as the base or head commit (timestamps there have second precision)
    /// go before or after that commit so that replaying the history reproduces the score and status
    /// its frontmatter records. A post new in the range takes every event up to the head.
    pub(super) fn history(
        &self,
        id: &str,
        base_post: Option<&Post>,
        head_post: Option<&Post>,
    ) -> anyhow::Result<PostHistory> {
        let (events, _) = crate::knowledge::stack::recorded_events(self.git, id)?;
        let mut all: Vec<(i64, StackEvent)> = events
            .into_iter()
            .filter(|event| event.post == id)
            .filter_map(|event| ts_millis(&event.ts).map(|ms| (ms, event)))
            .collect();
        all.sort_by_key(|(ms, _)| *ms);
        let states = replay(all.iter().map(|(_, event)| event));
        let split = |second: i64, post: Option<&Post>| {
            let count_before = |ms: i64| all.iter().take_while(|(at, _)| *at < ms).count();
            let low = count_before(second.saturating_mul(1000));
            let high = count_before(second.saturating_add(1).saturating_mul(1000));
            post.map(PostState::of)
                .and_then(|target| (low..=high).find(|k| states[*k] == target))
                .unwrap_or(high)
        };
        let start = match base_post {
            Some(post) => split(self.base_time, Some(post)),
            None => 0,
        };
        let end = split(self.head_time, head_post).max(start);
        let events: Vec<StackEvent> = all[start..end]
            .iter()
            .map(|(_, event)| event.clone())
            .collect();
        let mut net_votes = 0;
        let mut answer_net_votes = BTreeMap::new();
        for event in events
            .iter()
            .filter(|event| event.kind == StackEventKind::Vote)
        {
            let delta = event.delta.unwrap_or(0);
            match event.answer {
                None => net_votes += delta,
                Some(answer) => *answer_net_votes.entry(answer).or_insert(0) += delta,
            }
        }
        Ok(PostHistory {
            events,
            net_votes,
            answer_net_votes,
        })
    }
}

/// The post in `file` (at `rel`), when both are there: parsed, or why it does not parse.
fn parse_post(rel: Option<&str>, file: &Option<FileAt>) -> Option<Result<Post, String>> {
    let (rel, file) = (rel?, file.as_ref()?);
    Some(
        as_text(&file.data)
            .ok_or_else(|| format!("{rel}: not UTF-8 text"))
            .and_then(|text| Post::parse(rel, &text).map_err(|err| err.to_string())),
    )
}

fn file_name(path: &str) -> &str {
    Path::new(path)
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or("")
}

/// A Stack post at the two ends of the review (either may be missing), with its bodies read.
struct PostEnds<'p> {
    base: Option<&'p Post>,
    head: Option<&'p Post>,
    base_body: PostBody,
    head_body: PostBody,
}

impl<'p> PostEnds<'p> {
    fn new(base: Option<&'p Post>, head: Option<&'p Post>) -> PostEnds<'p> {
        PostEnds {
            base,
            head,
            base_body: base.map(Post::read_body).unwrap_or_default(),
            head_body: head.map(Post::read_body).unwrap_or_default(),
        }
    }

    /// A frontmatter value at both ends.
    fn delta<T>(&self, value: impl Fn(&Post) -> Option<T>) -> Delta<T> {
        Delta {
            base: self.base.and_then(&value),
            head: self.head.and_then(&value),
        }
    }

    /// Answers at the head whose number is not at the base.
    fn answers_added(&self) -> Vec<AnswerRef> {
        let base: BTreeSet<u32> = self.base_body.answers.iter().map(|a| a.number).collect();
        self.head_body
            .answers
            .iter()
            .filter(|answer| !base.contains(&answer.number))
            .map(|answer| AnswerRef {
                number: answer.number,
                author: answer.author.clone(),
            })
            .collect()
    }

    /// How many more comments (on the post and its answers) the head has.
    fn comments_added(&self) -> usize {
        let count = |body: &PostBody| {
            body.comments.len()
                + body
                    .answers
                    .iter()
                    .map(|answer| answer.comments.len())
                    .sum::<usize>()
        };
        count(&self.head_body).saturating_sub(count(&self.base_body))
    }

    /// The author of answer `accepted` at the head.
    fn accepted_author(&self, accepted: Option<u32>) -> Option<String> {
        let number = accepted?;
        self.head_body
            .answers
            .iter()
            .find(|answer| answer.number == number)
            .map(|answer| answer.author.clone())
    }

    /// The answers whose net score differs between the two ends (a missing score is 0).
    fn answer_votes(&self) -> Vec<AnswerVotes> {
        let empty = BTreeMap::new();
        let base_scores = self.base.map_or(&empty, |p| &p.meta.answer_votes);
        let head_scores = self.head.map_or(&empty, |p| &p.meta.answer_votes);
        let numbers: BTreeSet<u32> = base_scores
            .keys()
            .chain(head_scores.keys())
            .copied()
            .collect();
        numbers
            .into_iter()
            .filter_map(|answer| {
                let base = base_scores.get(&answer).copied().unwrap_or(0);
                let head = head_scores.get(&answer).copied().unwrap_or(0);
                (base != head).then_some(AnswerVotes { answer, base, head })
            })
            .collect()
    }
}
