//! Where a plan is worked out: the files involved, loaded once, changed in memory entry by entry
//! against the record, then compared with what is on disk. Nothing is written here.
//!
//! The rules, per entry (`Wanted` = what this version of Lexibrarian would write):
//! - **not recorded, absent** → added, and recorded with what was there before;
//! - **not recorded, present** → left alone, never recorded: it is not ours (a person's own server
//!   named `lexibrarian`, an identical hook they wrote) — the note says so;
//! - **recorded, still as written** → replaced by the wanted value when that differs (a refresh);
//! - **recorded, changed by someone** → left alone and still recorded with what we wrote, so that a
//!   removal keeps it too; the note says so;
//! - **recorded, gone** → a refresh forgets it (someone removed it on purpose); an install adds it
//!   again.
//!
//! Removing an entry removes it only while it is still as written, together with the objects and
//! files that were created for it and are left empty.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context as _;
use serde_json::Value;

use super::document::{Document, Json};
use super::record::{Entry, Kind, Record};
use super::rules;
use super::{Change, Mode, Wanted, What};
use crate::hash::sha256_hex;

/// One file as loaded and as changed so far.
struct Slot {
    before: Option<String>,
    /// The parsed document of a JSON/TOML file touched through entries.
    doc: Option<Document>,
    /// The current text of a text file (a rule file, a skill); `None` when deleted.
    text: Option<String>,
    /// Whether `doc` or `text` changed.
    touched: bool,
    /// The file is a symlink (or not a regular file): never read through nor written.
    linked: bool,
}

/// Files, record and report of a plan being made.
pub struct Workbench<'a> {
    root: &'a Path,
    files: BTreeMap<String, Slot>,
    pub record: Record,
    /// What was done, one line each (`.mcp.json: added the lexibrarian server`).
    pub done: Vec<String>,
    /// What was left alone, and why.
    pub notes: Vec<String>,
}

impl<'a> Workbench<'a> {
    pub fn new(root: &'a Path, record: Record) -> Workbench<'a> {
        Workbench {
            root,
            files: BTreeMap::new(),
            record,
            done: Vec::new(),
            notes: Vec::new(),
        }
    }

    fn slot(&mut self, rel: &str) -> anyhow::Result<&mut Slot> {
        if !self.files.contains_key(rel) {
            let mut linked = false;
            let before = match crate::nofollow::read_to_string(self.root, rel) {
                Ok(text) => Some(text),
                Err(err) if crate::nofollow::is_refused(&err) => {
                    let what = crate::nofollow::refusal(&err).map_or("a link", |r| r.what.as_str());
                    self.notes.push(format!(
                        "{rel}: {what} — left alone (Lexibrarian never writes through a link; add the section where it points yourself)"
                    ));
                    linked = true;
                    None
                }
                Err(err)
                    if matches!(
                        err.kind(),
                        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                    ) =>
                {
                    None
                }
                Err(err) => return Err(err).with_context(|| format!("cannot read {rel}")),
            };
            let slot = Slot {
                text: before.clone(),
                before,
                doc: None,
                touched: false,
                linked,
            };
            self.files.insert(rel.to_string(), slot);
        }
        self.files
            .get_mut(rel)
            .context("a file slot that was just inserted")
    }

    /// Whether `rel` is a symlink, to be left alone (the note saying so is made when it is loaded).
    fn linked(&mut self, rel: &str) -> anyhow::Result<bool> {
        Ok(self.slot(rel)?.linked)
    }

    /// The parsed file, to read.
    fn doc(&mut self, rel: &str) -> anyhow::Result<&mut Document> {
        let slot = self.slot(rel)?;
        if slot.doc.is_none() {
            let text = slot.before.as_deref().unwrap_or("");
            slot.doc = Some(Document::parse(rel, text)?);
        }
        slot.doc.as_mut().context("a document that was just parsed")
    }

    /// The parsed file, to change (it will be written).
    fn edit(&mut self, rel: &str) -> anyhow::Result<&mut Document> {
        self.doc(rel)?;
        let slot = self.slot(rel)?;
        slot.touched = true;
        slot.doc.as_mut().context("a document that was just parsed")
    }

    /// Current text of a text file.
    fn text(&mut self, rel: &str) -> anyhow::Result<Option<String>> {
        Ok(self.slot(rel)?.text.clone())
    }

    fn set_text(&mut self, rel: &str, text: Option<String>) -> anyhow::Result<()> {
        let slot = self.slot(rel)?;
        slot.text = text;
        slot.touched = true;
        Ok(())
    }

    /// Someone removed what Lexibrarian added: remember not to add it back on a refresh.
    fn decline(&mut self, wanted: &Wanted, what: &str) {
        self.record.forget(&wanted.id);
        self.record.declined.insert(wanted.id.clone());
        self.notes.push(format!(
            "{what} was removed by someone after Lexibrarian added it; it stays out (`lexictl setup --update` will not add it back)"
        ));
    }

    /// Bring `wanted` in: add it, refresh it, or leave it and say why. A refresh skips what was
    /// declined; an install takes it back.
    pub fn want(&mut self, wanted: &Wanted, mode: Mode) -> anyhow::Result<()> {
        if self.linked(&wanted.file)? {
            return Ok(());
        }
        if self.record.declined.contains(&wanted.id) {
            if mode == Mode::Refresh {
                return Ok(());
            }
            self.record.declined.remove(&wanted.id);
        }
        let recorded = self.record.get(&wanted.id).cloned();
        match &wanted.what {
            What::Member { path, value } => self.want_member(wanted, path, value, recorded, mode),
            What::Item {
                path,
                value,
                signature,
            } => self.want_item(wanted, path, value, signature, recorded, mode),
            What::File { text } => self.want_file(wanted, text, recorded, mode),
        }
    }

    fn want_member(
        &mut self,
        wanted: &Wanted,
        path: &[String],
        written: &Json,
        recorded: Option<Entry>,
        mode: Mode,
    ) -> anyhow::Result<()> {
        let value = &written.to_value();
        let file = wanted.file.as_str();
        let at = path.join(".");
        let current = self.doc(file)?.get(path);
        let recorded = recorded.and_then(|entry| match entry.kind {
            Kind::Member { value, existed, .. } => Some((value, existed)),
            _ => None,
        });
        match (recorded, current) {
            (Some((old, existed)), Some(current)) if current == old => {
                if old != *value {
                    self.edit(file)?.set(file, path, written)?;
                    self.put_member(wanted, path, value, existed);
                    self.done.push(format!("{file}: refreshed {at}"));
                }
            }
            (Some(_), Some(_)) => self.notes.push(format!(
                "{file}: {at} was changed after Lexibrarian wrote it, so it was left as it is"
            )),
            (Some(_), None) if mode == Mode::Refresh => {
                self.decline(wanted, &format!("{at} in {file}"))
            }
            (None, Some(current)) => {
                let same = if current == *value {
                    "the same"
                } else {
                    "another"
                };
                self.notes.push(format!(
                    "{file}: {at} already exists with {same} value, written by someone else; left as it is"
                ));
            }
            (_, None) => {
                let existed = self.edit(file)?.set(file, path, written)?;
                self.put_member(wanted, path, value, existed);
                self.done.push(format!("{file}: added {at}"));
            }
        }
        Ok(())
    }

    fn put_member(&mut self, wanted: &Wanted, path: &[String], value: &Value, existed: usize) {
        self.record.put(Entry {
            id: wanted.id.clone(),
            file: wanted.file.clone(),
            kind: Kind::Member {
                path: path.to_vec(),
                value: value.clone(),
                existed,
            },
        });
    }

    fn want_item(
        &mut self,
        wanted: &Wanted,
        path: &[String],
        written: &Json,
        signature: &str,
        recorded: Option<Entry>,
        mode: Mode,
    ) -> anyhow::Result<()> {
        let value = &written.to_value();
        let file = wanted.file.as_str();
        let at = path.join(".");
        let items = match self.doc(file)?.get(path) {
            Some(Value::Array(items)) => items,
            _ => Vec::new(),
        };
        let recorded = recorded.and_then(|entry| match entry.kind {
            Kind::Item { value, existed, .. } => Some((value, existed)),
            _ => None,
        });
        let mentions = |item: &Value| item.to_string().contains(signature);
        match recorded {
            Some((old, existed)) if items.contains(&old) => {
                if old != *value {
                    self.edit(file)?.replace_item(path, &old, written);
                    self.put_item(wanted, path, value, existed);
                    self.done.push(format!("{file}: refreshed the `{signature}` hook in {at}"));
                }
            }
            Some(_) if items.iter().any(mentions) => self.notes.push(format!(
                "{file}: the `{signature}` hook in {at} was changed after Lexibrarian wrote it, so it was left as it is"
            )),
            Some(_) if mode == Mode::Refresh => {
                self.decline(wanted, &format!("the `{signature}` hook in {file}"))
            }
            None if items.iter().any(mentions) => self.notes.push(format!(
                "{file}: {at} already runs `{signature}`, written by someone else; left as it is"
            )),
            _ => {
                let existed = self.edit(file)?.push(file, path, written)?;
                self.put_item(wanted, path, value, existed);
                self.done.push(format!("{file}: added the `{signature}` hook to {at}"));
            }
        }
        Ok(())
    }

    fn put_item(&mut self, wanted: &Wanted, path: &[String], value: &Value, existed: usize) {
        self.record.put(Entry {
            id: wanted.id.clone(),
            file: wanted.file.clone(),
            kind: Kind::Item {
                path: path.to_vec(),
                value: value.clone(),
                existed,
            },
        });
    }

    fn want_file(
        &mut self,
        wanted: &Wanted,
        text: &str,
        recorded: Option<Entry>,
        mode: Mode,
    ) -> anyhow::Result<()> {
        let file = wanted.file.as_str();
        let current = self.text(file)?;
        let recorded_hash = recorded.and_then(|entry| match entry.kind {
            Kind::File { sha256 } => Some(sha256),
            _ => None,
        });
        let current_hash = current.as_deref().map(|text| sha256_hex(text.as_bytes()));
        match (recorded_hash, current_hash) {
            (Some(old), Some(now)) if old == now => {
                if current.as_deref() != Some(text) {
                    self.set_text(file, Some(text.to_string()))?;
                    self.put_file(wanted, text);
                    self.done.push(format!("{file}: refreshed"));
                }
            }
            (Some(_), Some(_)) => self.notes.push(format!(
                "{file} was edited after Lexibrarian wrote it, so it was left as it is"
            )),
            (Some(_), None) if mode == Mode::Refresh => self.decline(wanted, file),
            (None, Some(_)) if current.as_deref() != Some(text) => self.notes.push(format!(
                "{file} already exists and was written by someone else; left as it is"
            )),
            (None, Some(_)) => {}
            (_, None) => {
                self.set_text(file, Some(text.to_string()))?;
                self.put_file(wanted, text);
                self.done.push(format!("{file}: written"));
            }
        }
        Ok(())
    }

    fn put_file(&mut self, wanted: &Wanted, text: &str) {
        self.record.put(Entry {
            id: wanted.id.clone(),
            file: wanted.file.clone(),
            kind: Kind::File {
                sha256: sha256_hex(text.as_bytes()),
            },
        });
    }

    /// The Cursor rule, a file that is Lexibrarian's whole (a `file` entry). One written before
    /// there was a record is refreshed by its block and recorded.
    pub fn want_cursor_rule(&mut self, id: &str, file: &str, mode: Mode) -> anyhow::Result<()> {
        let wanted = Wanted::file(id, file, rules::cursor_rule());
        if self.linked(file)? {
            return Ok(());
        }
        if self.record.get(id).is_none() {
            if let Some(current) = self.text(file)? {
                if let Some(refreshed) = rules::refreshed(&current) {
                    if refreshed != current {
                        self.set_text(file, Some(refreshed.clone()))?;
                        self.done
                            .push(format!("{file}: refreshed the Lexibrarian section"));
                    }
                    self.put_file(&wanted, &refreshed);
                    return Ok(());
                }
            }
        }
        self.want(&wanted, mode)
    }

    /// Add or refresh the rules block of `file` (`cursor` files are whole files, see `want`).
    pub fn want_block(
        &mut self,
        id: &str,
        file: &str,
        new_text: impl Fn(Option<&str>) -> Option<String>,
    ) -> anyhow::Result<()> {
        if self.linked(file)? {
            return Ok(());
        }
        let current = self.text(file)?;
        let recorded = self.record.get(id).map(|entry| entry.kind.clone());
        let in_file = current
            .as_deref()
            .and_then(rules::block_range)
            .map(|range| {
                let text = current.as_deref().unwrap_or("");
                sha256_hex(text[range].as_bytes())
            });
        match (recorded, in_file) {
            (Some(Kind::Block { sha256 }), Some(now)) if sha256 != now => {
                self.notes.push(format!(
                    "{file}: the Lexibrarian section was edited after it was written, so it was left as it is"
                ));
                return Ok(());
            }
            _ => {}
        }
        let Some(updated) = new_text(current.as_deref()) else {
            return Ok(());
        };
        if current.as_deref() != Some(updated.as_str()) {
            self.done.push(match current {
                Some(_) => format!("{file}: refreshed the Lexibrarian section"),
                None => format!("{file}: written"),
            });
            self.set_text(file, Some(updated.clone()))?;
        }
        if let Some(range) = rules::block_range(&updated) {
            self.record.put(Entry {
                id: id.to_string(),
                file: file.to_string(),
                kind: Kind::Block {
                    sha256: sha256_hex(updated[range].as_bytes()),
                },
            });
        }
        Ok(())
    }

    /// Remove the recorded entry `id`, if it is still as written.
    pub fn remove(&mut self, id: &str) -> anyhow::Result<()> {
        let Some(entry) = self.record.get(id).cloned() else {
            return Ok(());
        };
        let file = entry.file.as_str();
        if self.linked(file)? {
            return Ok(());
        }
        let removed = match &entry.kind {
            Kind::Member {
                path,
                value,
                existed,
            } => {
                let current = self.doc(file)?.get(path);
                if current.as_ref() == Some(value) {
                    self.edit(file)?.remove(path, *existed);
                }
                current.as_ref() == Some(value) || current.is_none()
            }
            Kind::Item {
                path,
                value,
                existed,
            } => {
                let present = match self.doc(file)?.get(path) {
                    Some(Value::Array(items)) => items.contains(value),
                    _ => false,
                };
                present && self.edit(file)?.remove_item(path, value, *existed)
            }
            Kind::File { sha256 } => {
                let current = self.text(file)?;
                let still =
                    current.as_deref().map(|t| sha256_hex(t.as_bytes())) == Some(sha256.clone());
                if still {
                    self.set_text(file, None)?;
                }
                still || current.is_none()
            }
            Kind::Block { sha256 } => self.remove_block(file, sha256)?,
            Kind::Lines { lines } => self.remove_lines(file, lines)?,
        };
        if removed {
            self.record.forget(id);
            let what = match &entry.kind {
                Kind::Member { path, .. } => format!("removed {}", path.join(".")),
                Kind::Item { path, .. } => {
                    format!("removed Lexibrarian's hook from {}", path.join("."))
                }
                Kind::File { .. } => "deleted (Lexibrarian wrote it)".to_string(),
                Kind::Block { .. } => "removed the Lexibrarian section".to_string(),
                Kind::Lines { .. } => "removed the lines Lexibrarian added".to_string(),
            };
            self.done.push(format!("{file}: {what}"));
        } else {
            self.notes.push(format!(
                "{file}: what Lexibrarian added ({id}) was changed since, so it was left as it is; remove it by hand if you want it gone"
            ));
        }
        Ok(())
    }

    fn remove_block(&mut self, file: &str, sha256: &str) -> anyhow::Result<bool> {
        let Some(text) = self.text(file)? else {
            return Ok(true);
        };
        let Some(range) = rules::block_range(&text) else {
            return Ok(true);
        };
        if sha256_hex(text[range].as_bytes()) != sha256 {
            return Ok(false);
        }
        let rest = rules::without_block(&text).unwrap_or_default();
        self.set_text(file, Some(rest))?;
        Ok(true)
    }

    fn remove_lines(&mut self, file: &str, lines: &[String]) -> anyhow::Result<bool> {
        let Some(text) = self.text(file)? else {
            return Ok(true);
        };
        let ours = |line: &str| lines.iter().any(|mine| mine == line);
        let mut kept: Vec<&str> = text.lines().filter(|line| !ours(line)).collect();
        // Lines appended at the end came after a blank separator line (init's block): it goes too.
        let appended = text
            .lines()
            .rfind(|line| !line.trim().is_empty())
            .is_some_and(ours);
        while appended && kept.last().is_some_and(|line| line.trim().is_empty()) {
            kept.pop();
        }
        let mut rest = kept.join("\n");
        if !rest.is_empty() {
            rest.push('\n');
        }
        self.set_text(file, Some(rest))?;
        Ok(true)
    }

    /// The changes to make, and the record as it will be. Files Lexibrarian created that hold
    /// nothing else any more are deleted.
    pub fn finish(mut self) -> (Vec<Change>, Record, Vec<String>, Vec<String>) {
        let mut changes = Vec::new();
        let files = std::mem::take(&mut self.files);
        for (rel, slot) in files {
            if !slot.touched {
                continue;
            }
            let mut after = match &slot.doc {
                Some(doc) => Some(doc.render()),
                None => slot.text.clone(),
            };
            let ours_alone = self.record.created.contains_key(&rel) || slot.before.is_none();
            let empty = match (&slot.doc, &after) {
                (Some(doc), _) => doc.is_empty(),
                (None, Some(text)) => text.trim().is_empty(),
                (None, None) => true,
            };
            if ours_alone && empty && !self.record.has_file(&rel) {
                after = None;
            }
            if after == slot.before {
                continue;
            }
            match (&slot.before, &after) {
                (None, Some(_)) => {
                    let dirs = missing_dirs(self.root, &rel);
                    self.record.created.insert(rel.clone(), dirs);
                }
                (_, None) => {}
                _ => {}
            }
            let dirs = if after.is_none() {
                self.record.created.remove(&rel).unwrap_or_default()
            } else {
                Vec::new()
            };
            changes.push(Change {
                rel,
                before: slot.before.map(String::into_bytes),
                after: after.map(String::into_bytes),
                dirs_to_prune: dirs,
            });
        }
        (changes, self.record, self.done, self.notes)
    }
}

/// The directories of `rel`'s parents that do not exist yet, outermost first.
fn missing_dirs(root: &Path, rel: &str) -> Vec<String> {
    let mut dirs = Vec::new();
    let mut current = String::new();
    let parts: Vec<&str> = rel.split('/').collect();
    for part in &parts[..parts.len().saturating_sub(1)] {
        if !current.is_empty() {
            current.push('/');
        }
        current.push_str(part);
        if !root.join(&current).is_dir() {
            dirs.push(current.clone());
        }
    }
    dirs
}
