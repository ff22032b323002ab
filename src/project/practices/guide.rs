//! What a contributor is asked to do, from the files GitHub shows them: the pull-request template
//! (`pull_request_template.md` in `.github/`, `docs/` or the root, any case, or the files of
//! `.github/PULL_REQUEST_TEMPLATE/`) — its checklist items (`- [ ] …`), imperative bullets ("Add
//! tests…", even inside `<!-- -->`) and "should"/"must" sentences — and the contribution guide
//! (`CONTRIBUTING*` in the root, `.github/` or `docs/`, plus the local contributing page it links
//! to): its sections, the check commands in its code blocks, and its imperative bullets.

use super::commands::is_check_command;
use super::{push, push_items, Detail, Practice, Sources};
use crate::relpath::RelPath;

/// Where GitHub looks for a pull-request template, in its order.
const TEMPLATE_DIRS: &[&str] = &[".github", "", "docs"];
/// The most characters of one rule.
const RULE_CHARS: usize = 120;

/// Verbs an instruction starts with ("Add tests…", "Run `pytest`…").
const VERBS: &[&str] = &[
    "add",
    "always",
    "avoid",
    "bump",
    "check",
    "commit",
    "confirm",
    "consider",
    "create",
    "describe",
    "disclose",
    "do",
    "document",
    "don't",
    "ensure",
    "explain",
    "fill",
    "follow",
    "format",
    "include",
    "install",
    "keep",
    "link",
    "lint",
    "make",
    "mark",
    "mention",
    "never",
    "note",
    "open",
    "prefer",
    "provide",
    "put",
    "read",
    "rebase",
    "reference",
    "remove",
    "review",
    "run",
    "search",
    "sign",
    "squash",
    "state",
    "summarize",
    "summarise",
    "test",
    "update",
    "use",
    "verify",
    "write",
];

/// The pull-request template's checklist: one practice per item, in file order.
pub fn checklist(sources: &Sources, found: &mut Vec<Practice>) {
    for file in templates(sources) {
        let Some(text) = sources.text(&file) else {
            continue;
        };
        for rule in rules(&text, true, sources.detail) {
            push(found, "checklist", format!("Before a PR: {rule}"), &file);
        }
    }
}

/// The template files, in the order GitHub would pick them.
fn templates(sources: &Sources) -> Vec<String> {
    let mut files = Vec::new();
    for dir in TEMPLATE_DIRS {
        for name in sources.file_names(dir) {
            if name.eq_ignore_ascii_case("pull_request_template.md") {
                files.push(RelPath::new(dir).join(&name).into_string());
            }
        }
    }
    for dir in [
        ".github/PULL_REQUEST_TEMPLATE",
        ".github/pull_request_template",
    ] {
        for name in sources
            .file_names(dir)
            .into_iter()
            .filter(|n| n.ends_with(".md"))
        {
            files.push(RelPath::new(dir).join(&name).into_string());
        }
    }
    files
}

/// The contribution guide: where it is, its sections, its commands and its rules.
pub fn contributing(sources: &Sources, found: &mut Vec<Practice>) {
    let Some(file) = guide_file(sources) else {
        readme_contributing(sources, found);
        return;
    };
    let Some(text) = sources.text(&file) else {
        return;
    };
    let pages = with_linked_pages(sources, file.clone(), text);
    let headings: Vec<String> = pages.iter().flat_map(|(_, t)| headings(t)).collect();
    let mut practice = format!("The contribution guide is {file}");
    if pages.len() > 1 {
        let linked: Vec<&str> = pages[1..].iter().map(|(rel, _)| rel.as_str()).collect();
        practice.push_str(&format!(" (and {}, which it links)", linked.join(", ")));
    }
    if !headings.is_empty() {
        practice.push_str(&format!(
            "; sections: {}",
            sources.detail.list(&headings, 6)
        ));
    } else if let Some(url) = first_url(&pages[0].1) {
        practice.push_str(&format!("; it points to {url}"));
    } else {
        practice.push_str(": read it before a change");
    }
    practice.push('.');
    push_items(found, "guide", practice, &file, headings);
    for (source, text) in &pages {
        let commands: Vec<String> = commands(text, sources.detail);
        if !commands.is_empty() {
            let quoted: Vec<String> = commands.iter().map(|c| format!("`{c}`")).collect();
            let practice = format!(
                "The contribution guide runs {}.",
                sources.detail.list(&quoted, 6)
            );
            push_items(found, "commands", practice, source, commands);
        }
        for rule in rules(text, false, sources.detail) {
            push(found, "guide", rule, source);
        }
    }
}

/// Without a guide file, the README's own "Contributing" section: the guides and policies it
/// links (express's README links the organisation's Contributing Guide and its security policy),
/// its sub-sections, its check commands and its rules.
fn readme_contributing(sources: &Sources, found: &mut Vec<Practice>) {
    let Some((file, whole)) = readme(sources) else {
        return;
    };
    let Some(section) = section_about(&whole, "contribut") else {
        return;
    };
    let links = linked(&section, &whole);
    let headings = headings(&section);
    let mut practice = format!("{file}'s Contributing section");
    if !links.is_empty() {
        practice.push_str(&format!(" links {}", sources.detail.list(&links, 4)));
    }
    if !headings.is_empty() {
        practice.push_str(&format!(
            "; sections: {}",
            sources.detail.list(&headings, 6)
        ));
    }
    practice.push('.');
    push_items(found, "guide", practice, &file, links);
    let commands = commands(&section, sources.detail);
    if !commands.is_empty() {
        let quoted: Vec<String> = commands.iter().map(|c| format!("`{c}`")).collect();
        let practice = format!(
            "The README's Contributing section runs {}.",
            sources.detail.list(&quoted, 6)
        );
        push_items(found, "commands", practice, &file, commands);
    }
    for rule in rules(&section, false, sources.detail) {
        push(found, "guide", rule, &file);
    }
}

/// The root README (any case, Markdown or plain) and its text.
fn readme(sources: &Sources) -> Option<(String, String)> {
    let name = sources.file_names("").into_iter().find(|name| {
        let stem = name.split('.').next().unwrap_or("");
        stem.eq_ignore_ascii_case("readme") && !name.ends_with(".rst")
    })?;
    let text = sources.text(&name)?;
    Some((name, text))
}

/// The Markdown section whose heading holds `word` (any case), with its sub-sections: up to the
/// next heading of its level or above.
fn section_about(text: &str, word: &str) -> Option<String> {
    let level = |line: &str| {
        let hashes = line.chars().take_while(|c| *c == '#').count();
        (hashes > 0 && line[hashes..].starts_with(' ')).then_some(hashes)
    };
    let mut lines = text
        .lines()
        .skip_while(|line| level(line).is_none() || !line.to_ascii_lowercase().contains(word));
    let heading = lines.next()?;
    let own = level(heading)?;
    let body: Vec<&str> = lines
        .take_while(|line| level(line).is_none_or(|deeper| deeper > own))
        .collect();
    Some(body.join("\n"))
}

/// The links of `section` as `text (url)`: inline ones and reference ones (`[Contributing
/// Guide]` defined anywhere in `whole`), web addresses only.
fn linked(section: &str, whole: &str) -> Vec<String> {
    let mut out = Vec::new();
    for piece in section.split('[').skip(1) {
        let Some((label, rest)) = piece.split_once(']') else {
            continue;
        };
        let url = match rest.strip_prefix('(') {
            Some(inline) => inline.split(')').next().map(str::to_string),
            None => reference(whole, label),
        };
        if let Some(url) = url.filter(|url| url.starts_with("http")) {
            out.push(format!("{label} ({url})"));
        }
    }
    out.dedup();
    out
}

/// The target of the reference link `[label]: target` in `text`.
fn reference(text: &str, label: &str) -> Option<String> {
    let prefix = format!("[{label}]: ");
    text.lines()
        .find_map(|line| line.trim().strip_prefix(prefix.as_str()))
        .map(|target| target.trim().to_string())
}

/// The first `CONTRIBUTING*` file in the root, `.github/` or `docs/` (any case).
fn guide_file(sources: &Sources) -> Option<String> {
    ["", ".github", "docs"].iter().find_map(|dir| {
        let name = sources.file_names(dir).into_iter().find(|name| {
            let stem = name.split('.').next().unwrap_or("");
            let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
            stem.eq_ignore_ascii_case("contributing") && matches!(ext, "" | "md" | "rst" | "txt")
        })?;
        Some(RelPath::new(dir).join(&name).into_string())
    })
}

/// The guide and the local pages it links to about contributing or pull requests
/// (`docs/contributing/README.md` → `pull-requests.md`), following links from those too, at most
/// [`MAX_LINKED`] more pages.
fn with_linked_pages(sources: &Sources, file: String, text: String) -> Vec<(String, String)> {
    let mut pages = vec![(file, text)];
    let mut next = 0;
    while next < pages.len() && pages.len() <= MAX_LINKED {
        let (rel, text) = &pages[next];
        let base = RelPath::new(rel).dir().to_string();
        let mut found = Vec::new();
        // The guide itself also names its policies (ripgrep's `AI_POLICY.md`, linked as a
        // GitHub page of the project); pages further down only when their name says they are
        // about contributing.
        let from_guide = next == 0;
        let mut targets: Vec<String> = local_links(text)
            .into_iter()
            .map(|target| {
                RelPath::new(&base)
                    .join(target.trim_start_matches("./"))
                    .into_string()
            })
            .collect();
        if from_guide {
            targets.extend(blob_paths(text));
        }
        for linked in targets {
            let known = pages
                .iter()
                .chain(&found)
                .any(|(r, _): &(String, String)| *r == linked);
            let wanted = is_about_contributing(&linked) || (from_guide && is_policy(&linked));
            if !known && !linked.contains("..") && wanted {
                if let Some(text) = sources.text(&linked) {
                    found.push((linked, text));
                }
            }
        }
        // The pull-request workflow (where the check commands are) before other pages.
        found.sort_by_key(|(rel, _)| !rel.to_ascii_lowercase().contains("pull"));
        let room = (MAX_LINKED + 1).saturating_sub(pages.len());
        pages.extend(found.into_iter().take(room));
        next += 1;
    }
    pages
}

/// The most pages read beside the guide itself.
const MAX_LINKED: usize = 2;

/// Whether a page's name says it is about contributing or pull requests.
fn is_about_contributing(rel: &str) -> bool {
    let name = rel.to_ascii_lowercase();
    is_page(rel)
        && ["contributing", "pull-request", "pull_request"]
            .iter()
            .any(|word| name.contains(word))
}

/// Whether a page's name says it is a policy or guidelines for contributors (`AI_POLICY.md`,
/// `GUIDELINES.md`; not a code of conduct).
fn is_policy(rel: &str) -> bool {
    let name = rel.to_ascii_lowercase();
    is_page(rel) && (name.contains("polic") || name.contains("guideline"))
}

/// A Markdown or reStructuredText page, by its name.
fn is_page(rel: &str) -> bool {
    let name = rel.to_ascii_lowercase();
    name.ends_with(".md") || name.ends_with(".rst")
}

/// The paths of the GitHub pages of files a text links to
/// (`https://github.com/BurntSushi/ripgrep/blob/master/AI_POLICY.md` → `AI_POLICY.md`): read
/// from the clone when it has a file there.
fn blob_paths(text: &str) -> Vec<String> {
    text.split("https://github.com/")
        .skip(1)
        .filter_map(|rest| {
            let url: String = rest
                .chars()
                .take_while(|c| !c.is_whitespace() && !matches!(c, ')' | '>' | '"' | '`' | ']'))
                .collect();
            // owner / repository / blob / ref / path
            let mut parts = url.splitn(5, '/');
            let (_, _, blob, _, path) = (
                parts.next()?,
                parts.next()?,
                parts.next()?,
                parts.next()?,
                parts.next()?,
            );
            let path = path.split('#').next().unwrap_or(path);
            (blob == "blob" && !path.is_empty()).then(|| path.to_string())
        })
        .collect()
}

/// The local targets of Markdown links (`[text](target)`, `[label]: target`), without anchors.
fn local_links(text: &str) -> Vec<&str> {
    let inline = text
        .split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next());
    let references = text.lines().filter_map(|l| {
        l.trim()
            .strip_prefix('[')?
            .split_once("]: ")
            .map(|(_, t)| t)
    });
    inline
        .chain(references)
        .map(|target| target.trim().split('#').next().unwrap_or(""))
        .filter(|t| !t.is_empty() && !t.contains("://") && !t.starts_with("mailto:"))
        .collect()
}

fn first_url(text: &str) -> Option<String> {
    let at = text.find("https://")?;
    let url: String = text[at..]
        .chars()
        .take_while(|c| !c.is_whitespace() && !matches!(c, '>' | ')' | '`' | '"'))
        .collect();
    Some(url)
}

/// Markdown `##`/`###` headings and reStructuredText underlined titles (not the document title).
fn headings(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let md = line
            .strip_prefix("## ")
            .or_else(|| line.strip_prefix("### "));
        let rst = lines.get(index + 1).filter(|under| {
            let under = under.trim_end();
            under.len() >= line.trim().len().max(3)
                && under.chars().all(|c| matches!(c, '-' | '~' | '^'))
                && !line.trim().is_empty()
        });
        let heading = md.map(str::trim).or(rst.map(|_| line.trim()));
        if let Some(heading) = heading.filter(|h| !h.is_empty()) {
            out.push(heading.to_string());
        }
    }
    out
}

/// The check commands in code blocks (```` ``` ````, `$ ` prompts, reST `::` blocks).
fn commands(text: &str, detail: Detail) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let (mut fenced, mut rst_block) = (false, false);
    for line in continued_lines(text) {
        let line = line.as_str();
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if trimmed.ends_with("::") {
            rst_block = true;
            continue;
        }
        if rst_block && !trimmed.is_empty() && !line.starts_with([' ', '\t']) {
            rst_block = false;
        }
        let prompt = trimmed
            .strip_prefix("$ ")
            .or_else(|| trimmed.strip_prefix("> "));
        let candidate = match prompt {
            Some(command) => command,
            None if fenced || rst_block => trimmed,
            None => continue,
        };
        let words = shell_words(candidate);
        // The program after the environment it runs in (`RUSTFLAGS="--cfg loom" cargo test`).
        let settings = words.iter().take_while(|w| is_assignment(w)).count();
        let checks = words
            .iter()
            .skip(settings)
            .take(3)
            .any(|w| is_check_command(w));
        // A command starts with a program or a variable (`RUSTFLAGS=… cargo`), never prose.
        let program = words.first().is_some_and(|w| {
            w.contains('=') || w.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        });
        if checks && program && !out.iter().any(|c| c == candidate) {
            out.push(detail.shorten(candidate, 80));
        }
    }
    out
}

/// The words of a shell command, a quoted span one word (`RUSTFLAGS="--cfg loom -C x"`).
fn shell_words(command: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => quote = Some(c),
            (None, c) if c.is_whitespace() => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            (None, c) => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Whether a shell word sets a variable for the command after it (`LOOM_MAX_BRANCHES=10000`).
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// The lines of `text`, a shell line ending in `\` joined with the next (tokio's loom command:
/// `LOOM_MAX_PREEMPTIONS=1 … RUSTFLAGS="--cfg loom -C debug_assertions" \` over `cargo test …`),
/// so a command keeps the environment it runs in.
fn continued_lines(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for line in text.lines() {
        let fence = line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~");
        let (body, continues) = match line.trim_end().strip_suffix('\\') {
            Some(body) if !fence => (body.trim_end(), true),
            _ => (line, false),
        };
        // A fence is never part of a command, even after a trailing `\`.
        match (open && !fence, out.last_mut()) {
            (true, Some(last)) => {
                last.push(' ');
                last.push_str(body.trim());
            }
            _ => out.push(body.to_string()),
        }
        open = continues;
    }
    out
}

/// The instructions of a text: checklist items, bullets that start with a verb, and — in a
/// template — prose sentences that are instructions ([`is_instruction`]); a template's bullet keeps
/// the sentences after its first that say "should" or "must" ("Add tests…; tests should fail
/// without the change."). Markdown comments are read as text.
fn rules(text: &str, template: bool, detail: Detail) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let paragraphs = paragraphs(text);
    let mut at = 0;
    while at < paragraphs.len() {
        let (bullet, item) = &paragraphs[at];
        at += 1;
        let bullet = *bullet;
        let item = item.replace("<!--", "").replace("-->", "");
        let item = item.trim();
        let listed = (!template)
            .then(|| rule_list(item, &paragraphs[at..], detail))
            .flatten();
        if let Some(listed) = listed {
            at += listed.items;
            out.push(listed.rule);
        } else if let Some(checked) = item
            .strip_prefix("[ ] ")
            .or_else(|| item.strip_prefix("[x] "))
        {
            out.push(first_sentence(checked, detail));
        } else if bullet && starts_with_verb(item) {
            out.push(match template {
                true => with_requirements(item, detail),
                false => first_sentence(item, detail),
            });
        } else if template && !bullet {
            let sentences = item.split_inclusive(". ").map(str::trim);
            for sentence in sentences.filter(|s| is_instruction(s)) {
                out.push(first_sentence(sentence, detail));
            }
        } else if !bullet {
            // What a guide's prose puts in bold is what its authors insist on ("**Autonomous
            // agents are not allowed to be used for contributing to this project**").
            for emphasised in bold_rules(item) {
                out.push(first_sentence(&emphasised, detail));
            }
            for required in requirements(item).into_iter().take(MAX_PROSE_RULES) {
                out.push(first_sentence(&required, detail));
            }
        }
    }
    out.dedup();
    out
}

/// Items of a requirement's list kept, at most.
const LISTED_RULES: usize = 6;
/// Characters of one listed item kept.
const LISTED_CHARS: usize = 70;

/// A requirement that lists its terms ([`rule_list`]) and the list items it took.
struct ListedRule {
    rule: String,
    items: usize,
}

/// A requirement ending in a colon and the list under it, as one rule: tokio's "The first line
/// should:" over "* contain a short description …", "* start with an imperative verb", … →
/// "The first line should: contain a short description …; start with an imperative verb; …".
fn rule_list(item: &str, rest: &[(bool, String)], detail: Detail) -> Option<ListedRule> {
    let head = item.strip_suffix(':')?;
    let requires = head
        .split(|c: char| !c.is_ascii_alphabetic())
        .any(|w| matches!(w.to_ascii_lowercase().as_str(), "should" | "must"));
    if !requires {
        return None;
    }
    // The list under it: bullets up to the next heading or prose paragraph, no checklist item.
    let items = rest
        .iter()
        .take_while(|(bullet, text)| {
            *bullet && !text.starts_with("[ ]") && !text.starts_with("[x]")
        })
        .count();
    if items == 0 {
        return None;
    }
    let listed: Vec<String> = rest[..items]
        .iter()
        .take(detail.limit(LISTED_RULES))
        .map(|(_, text)| {
            let text = first_sentence(text, detail);
            detail.shorten(text.trim_end_matches('.'), LISTED_CHARS)
        })
        .collect();
    let mut rule = format!("{head}: {}", listed.join("; "));
    if items > listed.len() {
        rule.push_str(&format!("; and {} more", items - listed.len()));
    }
    rule.push('.');
    Some(ListedRule { rule, items })
}

/// Whether lowercased `text` names one of the [`CHANGE_TOPICS`] as words ("tests", "formatting";
/// never "latest" or "information").
fn mentions_change_topic(text: &str) -> bool {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    CHANGE_TOPICS.iter().any(|topic| match topic.contains(' ') {
        true => text.contains(topic),
        false => words.iter().any(|w| w.starts_with(topic)),
    })
}

/// Prose requirements of one paragraph read at most.
const MAX_PROSE_RULES: usize = 2;

/// What a change must carry, in words a contributor acts on.
const CHANGE_TOPICS: &[&str] = &[
    "test",
    "changelog",
    "commit",
    "pull request",
    "documentation",
    "doc comment",
    "lint",
    "clippy",
    "rustfmt",
    "format",
    "breaking",
];

/// A guide's prose sentences that require something of a change: they say "should", "must" or
/// "avoid(s)" and are about one of the [`CHANGE_TOPICS`] ("the pull request should include one
/// or more tests", "(Tokio avoids unit tests as much as possible)"); a question, a sentence
/// addressed to the guide's reader's feelings, and links read as their text.
fn requirements(paragraph: &str) -> Vec<String> {
    let plain = link_texts(paragraph);
    plain
        .split_inclusive(". ")
        .map(|sentence| {
            // A parenthesised sentence, `(Tokio avoids … possible).`, without its parentheses.
            let sentence = sentence.trim();
            match sentence.strip_prefix('(') {
                Some(inner) => inner.trim_end_matches('.').trim_end_matches(')'),
                None => sentence,
            }
        })
        .filter(|sentence| !sentence.contains('?') && sentence.split_whitespace().count() >= 4)
        // An example of how to do something is no requirement of a change.
        .filter(|sentence| {
            !["For instance", "For example"]
                .iter()
                .any(|e| sentence.starts_with(e))
        })
        .filter(|sentence| {
            let lower = format!(" {} ", sentence.to_lowercase());
            [" should ", " must ", " avoid ", " avoids "]
                .iter()
                .any(|word| lower.contains(word))
                && CHANGE_TOPICS.iter().any(|topic| lower.contains(topic))
        })
        .map(|sentence| match sentence.ends_with(['.', '!']) {
            true => sentence.to_string(),
            false => format!("{sentence}."),
        })
        .collect()
}

/// Markdown links as their text: `[unit tests][unit-tests]` and `[unit tests](url)` → `unit
/// tests`.
fn link_texts(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find(']').map(|at| open + at) else {
            break;
        };
        let after = &rest[close + 1..];
        let target_end = match after.chars().next() {
            Some('[') => after.find(']').map(|at| at + 1),
            Some('(') => after.find(')').map(|at| at + 1),
            _ => None,
        };
        out.push_str(&rest[..open]);
        out.push_str(&rest[open + 1..close]);
        rest = match target_end {
            Some(end) => &after[end..],
            None => after,
        };
    }
    out.push_str(rest);
    out
}

/// The bold spans of a paragraph that state a rule: four words or more, saying "must",
/// "should", "not allowed", "required", "never", or starting with a verb about a change (one of
/// the [`CHANGE_TOPICS`]).
fn bold_rules(paragraph: &str) -> Vec<String> {
    paragraph
        .split("**")
        .skip(1)
        .step_by(2)
        .map(|span| span.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|span| {
            let lower = format!(" {} ", span.to_lowercase());
            span.split_whitespace().count() >= 4
                && ([" must ", " should ", " not allowed", " required", " never "]
                    .iter()
                    .any(|word| lower.contains(word))
                    // An imperative about a change, not the reader ("Do not let this guide
                    // intimidate you").
                    || (starts_with_verb(span) && mentions_change_topic(&lower)))
        })
        .map(|span| match span.ends_with(['.', '!']) {
            true => span,
            false => format!("{span}."),
        })
        .collect()
}

/// A template's prose sentence that tells the contributor what to do: it says "should" or "must",
/// starts with a verb ("Link to relevant issues…", "Use \"fixes\" to close an issue.") or with
/// "Before …," and then one ("Before opening a PR, open a ticket…") — but not the template's own
/// placeholder ("Replace this comment with…") nor a prompt for the PR's description ("Explain the
/// context.").
fn is_instruction(sentence: &str) -> bool {
    const PROMPTS: &[&str] = &[
        "Describe",
        "Explain",
        "Summarize",
        "Summarise",
        "Provide",
        "Fill",
    ];
    let first = sentence.split_whitespace().next().unwrap_or_default();
    if sentence.contains("this comment") || sentence.contains('?') || PROMPTS.contains(&first) {
        return false;
    }
    let after_before = sentence
        .strip_prefix("Before ")
        .and_then(|rest| rest.split_once(", "))
        .map(|(_, main)| capitalised(main));
    sentence.contains(" should ")
        || sentence.contains(" must ")
        || starts_with_verb(sentence)
        || after_before.is_some_and(|main| starts_with_verb(&main))
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// A bullet's first sentence and the later ones that say "should" or "must", cut to
/// [`RULE_CHARS`] twice over.
fn with_requirements(item: &str, detail: Detail) -> String {
    let first = first_sentence(item, detail);
    let rest = item.get(first.len()..).unwrap_or_default();
    let required: Vec<&str> = rest
        .split_inclusive(". ")
        .map(str::trim)
        .filter(|s| s.contains(" should ") || s.contains(" must ") || s.starts_with("Tests "))
        .collect();
    match required.is_empty() {
        true => first,
        false => detail.shorten(&format!("{first} {}", required.join(" ")), 2 * RULE_CHARS),
    }
}

fn starts_with_verb(item: &str) -> bool {
    let word = item.split_whitespace().next().unwrap_or("");
    let capitalised = word.chars().next().is_some_and(char::is_uppercase);
    capitalised && !item.contains('?') && VERBS.contains(&word.to_lowercase().as_str())
}

/// The text up to the first ". " outside backticks and parentheses (not after "e.g"/"i.e" or a
/// second dot), cut to [`RULE_CHARS`].
fn first_sentence(text: &str, detail: Detail) -> String {
    let (mut depth, mut code, mut end) = (0i32, false, text.len());
    let bytes = text.as_bytes();
    for (at, ch) in text.char_indices() {
        match ch {
            '`' => code = !code,
            '(' if !code => depth += 1,
            ')' if !code => depth -= 1,
            '.' if !code && depth <= 0 && bytes.get(at + 1) == Some(&b' ') => {
                let before = &text[..at];
                let abbreviation = before.ends_with("e.g") || before.ends_with("i.e");
                if !abbreviation && !before.ends_with('.') {
                    end = at + 1;
                    break;
                }
            }
            _ => {}
        }
    }
    detail.shorten(text[..end].trim(), RULE_CHARS)
}

/// Bullets (with their continuation lines) and prose paragraphs, each joined on one line:
/// `(is a bullet, text)`. Headings and blank lines end them.
fn paragraphs(text: &str) -> Vec<(bool, String)> {
    let mut out: Vec<(bool, String)> = Vec::new();
    let mut open = false;
    for line in text.lines() {
        let trimmed = line.trim().trim_start_matches("<!--").trim();
        if trimmed.starts_with('#') {
            // A heading ends any list above it (an empty paragraph, which no rule reads).
            out.push((false, String::new()));
            open = false;
            continue;
        }
        if trimmed.is_empty() || trimmed == "-->" {
            open = false;
            continue;
        }
        let bullet = ["- ", "* ", "+ "]
            .iter()
            .find_map(|marker| trimmed.strip_prefix(marker))
            .or_else(|| {
                let (number, rest) = trimmed.split_once(". ")?;
                number.chars().all(|c| c.is_ascii_digit()).then_some(rest)
            });
        match (bullet, out.last_mut()) {
            (Some(item), _) => {
                out.push((true, item.to_string()));
                open = true;
            }
            (None, Some((_, last))) if open => {
                last.push(' ');
                last.push_str(trimmed);
            }
            (None, _) => {
                out.push((false, trimmed.to_string()));
                open = true;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A guide's prose says what a change must carry in "should"/"must"/"avoids" sentences
    /// (tokio's pull-requests.md); only those about tests, commits, changelogs, docs or lints.
    #[test]
    fn a_guides_prose_requirements_about_a_change_are_rules() {
        let text = "### Tests\n\nIf the change alters code, it is either adding new functionality or fixing it. In both of these cases, the pull request should include one or more tests to ensure that Tokio does not regress.\nThere are two ways to write tests: [integration tests][integration-tests]\nand [documentation tests](https://doc.rust-lang.org).\n(Tokio avoids [unit tests][unit-tests] as much as possible).\n\nYou should feel welcome to ask questions. Should you run it?\n";
        assert_eq!(
            rules(text, false, Detail::Short),
            [
                "In both of these cases, the pull request should include one or more tests to ensure that Tokio does not regress.",
                "Tokio avoids unit tests as much as possible."
            ]
        );
        assert_eq!(link_texts("a [b][c] d [e](f) [g]"), "a b d e g");
    }

    #[test]
    fn a_template_gives_its_checklist_imperative_bullets_and_musts() {
        let text = "<!--\nBefore opening a PR, open a ticket. Replace this comment with a description.\n\nLink issues, one per line. Use \"fixes\" to close one.\n-->\n<!--\nEnsure each step is complete:\n\n- Add tests that demonstrate the correct behavior of the change. Tests\n  should fail without the change.\n- What other alternatives have you explored?\n- [ ] Update CHANGES.rst.\n- Reference the issue (e.g. `fixes #1`).\n- Add `.. versionchanged::` entries. More.\n-->\n\nBug fixes and new features should include tests.\n\n## Motivation\n\nExplain the context.\n";
        assert_eq!(
            rules(text, true, Detail::Short),
            [
                "Before opening a PR, open a ticket.",
                "Link issues, one per line.",
                "Use \"fixes\" to close one.",
                "Ensure each step is complete:",
                "Add tests that demonstrate the correct behavior of the change. Tests should fail without the change.",
                "Update CHANGES.rst.",
                "Reference the issue (e.g. `fixes #1`).",
                "Add `.. versionchanged::` entries.",
                "Bug fixes and new features should include tests."
            ]
        );
    }

    #[test]
    fn a_readmes_contributing_section_gives_its_links_and_sub_sections() {
        let text = "# X\n\n## Contributing\n\nSee the [Contributing Guide] and [the policy](https://e.org/policy).\n\n### Running Tests\n\n```bash\nnpm test\n```\n\n## Team\n\n[Contributing Guide]: https://e.org/CONTRIBUTING.md\n";
        let section = section_about(text, "contribut").expect("section");
        assert!(section.contains("Running Tests") && !section.contains("Team"));
        assert_eq!(
            linked(&section, text),
            [
                "Contributing Guide (https://e.org/CONTRIBUTING.md)",
                "the policy (https://e.org/policy)"
            ]
        );
        assert_eq!(headings(&section), ["Running Tests"]);
        assert_eq!(commands(&section, Detail::Short), ["npm test"]);
    }

    #[test]
    fn a_guides_bold_rules_and_its_projects_github_pages_are_read() {
        let text = "Using AI is welcome. **Autonomous agents are not allowed to be used here**. Pull requests in violation will be closed.\n\n**Thanks!** See **the docs**.\n";
        assert_eq!(
            rules(text, false, Detail::Short),
            ["Autonomous agents are not allowed to be used here."]
        );
        let links = "Follow the [AI Policy](https://github.com/BurntSushi/ripgrep/blob/master/AI_POLICY.md#use) and https://github.com/o/r/issues/1.";
        assert_eq!(blob_paths(links), ["AI_POLICY.md"]);
        assert!(is_policy("AI_POLICY.md") && !is_policy("CODE_OF_CONDUCT.md"));
    }

    #[test]
    fn a_guide_gives_its_sections_and_check_commands() {
        let text = "Contributing\n============\n\nRunning the tests\n-----------------\n\n.. code-block:: text\n\n    $ pip install -e .\n    $ pytest\n\n## Style\n\n```sh\npre-commit run --all-files\ngit clone x\n```\n";
        assert_eq!(headings(text), ["Running the tests", "Style"]);
        assert_eq!(
            commands(text, Detail::Short),
            ["pytest", "pre-commit run --all-files"]
        );
    }
}
