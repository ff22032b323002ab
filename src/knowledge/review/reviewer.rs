//! The [`Reviewer`]: walks the changes between the two ends of a review and sorts them into design
//! file, finding, concept, Stack and other-file entries (what changed in a Stack post is read in
//! `posts.rs`).

use super::*;
use crate::relpath::RelPath;

pub(super) struct Reviewer<'a> {
    pub(super) project: &'a Project,
    pub(super) git: &'a GitRepo,
    pub(super) prefix: String,
    pub(super) base: Oid,
    pub(super) head: Oid,
    pub(super) base_time: i64,
    pub(super) head_time: i64,
    pub(super) scope: Scope,
    pub(super) ignores: IgnoreLayers,
    pub(super) has_stack_notes: bool,
}

impl<'a> Reviewer<'a> {
    /// A reviewer of `ends` in the project at `prefix` of `git`'s working tree, with the project's
    /// current scope and ignore layers.
    pub(super) fn new(
        project: &'a Project,
        git: &'a GitRepo,
        prefix: &str,
        ends: &Ends,
        (base, head): (&CommitInfo, &CommitInfo),
    ) -> anyhow::Result<Reviewer<'a>> {
        let scope = Scope::from_config(&project.config, &project.library_dir().join(CONFIG_FILE))?;
        let (extra, _) = ExtraIgnores::new(&project.root, &project.config);
        Ok(Reviewer {
            project,
            git,
            prefix: prefix.to_string(),
            base: ends.base,
            head: ends.head,
            base_time: base.time,
            head_time: head.time,
            scope,
            ignores: IgnoreLayers::new(project, extra),
            has_stack_notes: git.has_notes_ref(STACK_NOTES),
        })
    }

    /// The review of `ends` before any change is looked at: the two ends and the commits between.
    pub(super) fn empty_review(
        &self,
        ends: &Ends,
        base: CommitInfo,
        head: CommitInfo,
    ) -> anyhow::Result<Review> {
        let commits = if ends.base == ends.head {
            0
        } else {
            self.git.count_commits(&ends.base, &ends.head)?
        };
        Ok(Review {
            range: ends.range.clone(),
            base: Endpoint {
                rev: ends.base_rev.clone(),
                commit: ends.base,
                subject: base.summary,
            },
            head: Endpoint {
                rev: ends.head_rev.clone(),
                commit: ends.head,
                subject: head.summary,
            },
            merge_base: ends.merge_base,
            commits,
            project_dir: self.prefix.clone(),
            summary: Summary::default(),
            findings: Vec::new(),
            design_files: Vec::new(),
            concepts: Vec::new(),
            stack: Vec::new(),
            library_files: Vec::new(),
            notes: NotesPresent {
                provenance: self.git.has_notes_ref(PROVENANCE_NOTES),
                stack: self.has_stack_notes,
            },
        })
    }

    /// Each library change into its list in `review`; the changed source files are returned, for
    /// [`Reviewer::add_findings`].
    pub(super) fn sort_into(
        &self,
        review: &mut Review,
        touched: Vec<Touched>,
    ) -> anyhow::Result<Vec<Touched>> {
        let mut sources = Vec::new();
        for touch in touched {
            if let Some(target) = self.symlink_at_head(&touch)? {
                review.findings.push(symlink_finding(touch.path(), &target));
                review.library_files.push(FileChange {
                    path: touch.path().to_string(),
                    change: touch.kind(),
                    from: touch.renamed_from(),
                    symlink_to: Some(target),
                });
                continue;
            }
            match touch.category {
                Category::Design => review.design_files.push(self.design_change(&touch)?),
                Category::Concept => review.concepts.push(self.concept_change(&touch)?),
                Category::Stack => review.stack.push(self.post_change(&touch)?),
                Category::Library => review.library_files.push(FileChange {
                    path: touch.path().to_string(),
                    change: touch.kind(),
                    from: touch.renamed_from(),
                    symlink_to: None,
                }),
                Category::Source => sources.push(touch),
                Category::Skipped => {}
            }
        }
        Ok(sources)
    }

    /// Where a library file (or a `.lexignore`) that is a symbolic link at the head points: a pull
    /// request that swaps `.lexibrary/src/a.rs.md` for a link to `/etc/passwd` shows as a link, not
    /// as an edit whose text is `/etc/passwd`. Source files may be links; they are not looked at.
    fn symlink_at_head(&self, touch: &Touched) -> anyhow::Result<Option<String>> {
        let watched = touch.category != Category::Source
            || RelPath::new(touch.path()).file_name() == LEXIGNORE_FILE;
        if !watched || touch.category == Category::Skipped {
            return Ok(None);
        }
        Ok(self
            .at_head(touch.to.as_deref())?
            .filter(|file| file.symlink)
            .map(|file| String::from_utf8_lossy(&file.data).into_owned()))
    }

    /// What the changed `sources` should have done to the library, most important first.
    pub(super) fn add_findings(
        &mut self,
        review: &mut Review,
        sources: &[Touched],
    ) -> anyhow::Result<()> {
        // A design file counts as updated when its text changed, not only its footer.
        let updated: BTreeSet<String> = review
            .design_files
            .iter()
            .filter(|design| design.change != ChangeKind::Removed && !design.footer_only)
            .map(|design| design.source.clone())
            .collect();
        for touch in sources {
            self.source_findings(touch, &updated, &mut review.findings)?;
        }
        let mut judged: BTreeSet<String> = sources
            .iter()
            .filter_map(|touch| touch.to.clone())
            .collect();
        judged.extend(
            review
                .design_files
                .iter()
                .filter(|design| design.change != ChangeKind::Removed)
                .map(|design| design.source.clone()),
        );
        for source in &judged {
            review.findings.extend(self.stale_contract(source)?);
        }
        review.findings.sort_by_key(|finding| {
            let rank = match finding.kind {
                FindingKind::Symlink => 0,
                FindingKind::StaleContract => 1,
                FindingKind::InterfaceChanged => 2,
                FindingKind::MissingDesign => 3,
                FindingKind::OrphanedDesign => 4,
            };
            (rank, finding.file.clone())
        });
        Ok(())
    }

    /// Project-relative, categorised changes; paths outside the project are dropped.
    pub(super) fn touched(&self, changes: Vec<Change>) -> Vec<Touched> {
        let strip = |path: &str| -> Option<String> {
            if self.prefix.is_empty() {
                Some(path.to_string())
            } else {
                path.strip_prefix(&format!("{}/", self.prefix))
                    .map(str::to_string)
            }
        };
        let one = |from: Option<String>, to: Option<String>| {
            let category = category(to.as_deref().or(from.as_deref()).unwrap_or(""));
            Touched { from, to, category }
        };
        let mut out = Vec::new();
        for change in changes {
            match change {
                Change::Added(path) => out.extend(strip(&path).map(|p| one(None, Some(p)))),
                Change::Deleted(path) => out.extend(strip(&path).map(|p| one(Some(p), None))),
                Change::Modified(path) => {
                    out.extend(strip(&path).map(|p| one(Some(p.clone()), Some(p))))
                }
                Change::Renamed { from, to } => match (strip(&from), strip(&to)) {
                    (Some(from), Some(to)) if category(&from) == category(&to) => {
                        out.push(one(Some(from), Some(to)))
                    }
                    (from, to) => {
                        out.extend(from.map(|p| one(Some(p), None)));
                        out.extend(to.map(|p| one(None, Some(p))));
                    }
                },
            }
        }
        out
    }

    pub(super) fn repo_path(&self, rel: &str) -> String {
        if self.prefix.is_empty() {
            rel.to_string()
        } else {
            format!("{}/{rel}", self.prefix)
        }
    }

    pub(super) fn at_base(&self, rel: Option<&str>) -> anyhow::Result<Option<FileAt>> {
        match rel {
            Some(rel) => Ok(self.git.file_at(&self.base, &self.repo_path(rel))?),
            None => Ok(None),
        }
    }

    pub(super) fn at_head(&self, rel: Option<&str>) -> anyhow::Result<Option<FileAt>> {
        match rel {
            Some(rel) => Ok(self.git.file_at(&self.head, &self.repo_path(rel))?),
            None => Ok(None),
        }
    }

    pub(super) fn design_change(&self, touch: &Touched) -> anyhow::Result<DesignChange> {
        let base = self.at_base(touch.from.as_deref())?;
        let head = self.at_head(touch.to.as_deref())?;
        let base_text = base.as_ref().and_then(|file| as_text(&file.data));
        let head_text = head.as_ref().and_then(|file| as_text(&file.data));
        let path = touch.path().to_string();
        let source = source_for_design(&path).unwrap_or_default().to_string();
        let parse = |text: &Option<String>| text.as_ref().map(|t| DesignFile::parse(&path, t));
        let base_parsed = parse(&base_text).and_then(Result::ok);
        let head_parsed = parse(&head_text);
        fn content(text: &Option<String>) -> Option<&str> {
            text.as_deref().map(|t| footer::split(t).0)
        }
        let footer_only = matches!(
            (content(&base_text), content(&head_text)),
            (Some(old), Some(new)) if old == new
        );
        let (diff, diff_skipped) = if head.is_none() || footer_only {
            (None, None)
        } else {
            meaningful_diff(
                base.as_ref().map(|_| content(&base_text)),
                content(&head_text),
            )
        };
        let mut error = None;
        let head_design = match head_parsed {
            Some(Ok(design)) => Some(design),
            Some(Err(err)) => {
                error = Some(err.to_string());
                None
            }
            None => None,
        };
        let provenance = match (&head, &head_text) {
            (Some(file), text) => {
                Some(self.provenance(file, text.as_deref(), head_design.as_ref())?)
            }
            (None, _) => None,
        };
        Ok(DesignChange {
            source,
            path,
            change: touch.kind(),
            from: touch.renamed_from(),
            footer_only,
            diff,
            diff_skipped,
            updated_by: Delta {
                base: base_parsed.map(|design| design.frontmatter.updated_by),
                head: head_design
                    .as_ref()
                    .map(|design| design.frontmatter.updated_by),
            },
            provenance,
            error,
        })
    }

    pub(super) fn provenance(
        &self,
        file: &FileAt,
        text: Option<&str>,
        design: Option<&DesignFile>,
    ) -> anyhow::Result<Provenance> {
        let note = self
            .git
            .note(PROVENANCE_NOTES, &file.blob)?
            .unwrap_or_default();
        if let Some(last) = ProvenanceEvent::read_note(&note).pop() {
            return Ok(Provenance {
                written_by: "archivist",
                blob: file.blob,
                generator: Some(last.generator),
                model: last.model,
                level: Some(last.level),
                commit: last.commit,
            });
        }
        let unedited = match (text, design.and_then(|d| d.footer.as_ref())) {
            (Some(text), Some(footer)) => is_unedited(text, footer),
            _ => false,
        };
        let agent = design.is_some_and(|d| d.frontmatter.updated_by == UpdatedBy::Agent);
        Ok(Provenance {
            written_by: if agent || !unedited {
                "agent_or_human"
            } else {
                "unrecorded"
            },
            blob: file.blob,
            generator: None,
            model: None,
            level: None,
            commit: None,
        })
    }

    pub(super) fn concept_change(&self, touch: &Touched) -> anyhow::Result<ConceptChange> {
        let base = self.at_base(touch.from.as_deref())?;
        let head = self.at_head(touch.to.as_deref())?;
        let base_text = base.as_ref().and_then(|file| as_text(&file.data));
        let head_text = head.as_ref().and_then(|file| as_text(&file.data));
        let path = touch.path().to_string();
        let name_of = |rel: &str| {
            Path::new(rel)
                .file_stem()
                .and_then(|stem| stem.to_str())
                .unwrap_or("")
                .to_string()
        };
        let name = name_of(&path);
        let parse = |rel: Option<&str>, text: &Option<String>| match (rel, text) {
            (Some(rel), Some(text)) => Some(Concept::parse(rel, &name_of(rel), text)),
            _ => None,
        };
        let base_concept = parse(touch.from.as_deref(), &base_text).and_then(Result::ok);
        let mut error = None;
        let head_concept = match parse(touch.to.as_deref(), &head_text) {
            Some(Ok(concept)) => Some(concept),
            Some(Err(err)) => {
                error = Some(err.to_string());
                None
            }
            None => None,
        };
        let (diff, diff_skipped) = match touch.kind() {
            ChangeKind::Modified | ChangeKind::Renamed => {
                meaningful_diff(Some(base_text.as_deref()), head_text.as_deref())
            }
            _ => (None, None),
        };
        let latest = head_concept.as_ref().or(base_concept.as_ref());
        Ok(ConceptChange {
            name,
            path,
            change: touch.kind(),
            from: touch.renamed_from(),
            title: Delta {
                base: base_concept.as_ref().map(|c| c.title().to_string()),
                head: head_concept.as_ref().map(|c| c.title().to_string()),
            },
            status: Delta {
                base: base_concept
                    .as_ref()
                    .map(|c| c.status().as_str().to_string()),
                head: head_concept
                    .as_ref()
                    .map(|c| c.status().as_str().to_string()),
            },
            superseded_by: head_concept
                .as_ref()
                .and_then(|c| c.meta.superseded_by.clone())
                .filter(|s| !s.trim().is_empty()),
            summary: latest.map(Concept::summary).unwrap_or_default(),
            diff,
            diff_skipped,
            error,
        })
    }

    /// What a changed source file should have done to the library.
    pub(super) fn source_findings(
        &mut self,
        touch: &Touched,
        updated: &BTreeSet<String>,
        findings: &mut Vec<Finding>,
    ) -> anyhow::Result<()> {
        if let Some(to) = touch.to.as_deref() {
            if self.scope.documents(to) && !self.ignores.is_ignored(to) {
                findings.extend(self.undocumented(touch, to, updated)?);
            }
        }
        if let Some(from) = touch.from.as_deref() {
            if touch.to.as_deref() != Some(from) {
                findings.extend(self.orphaned(from, touch.to.as_deref())?);
            }
        }
        Ok(())
    }

    /// Source `to` (in scope at the head) is new without a design file, or its public interface
    /// changed while its design file did not.
    fn undocumented(
        &self,
        touch: &Touched,
        to: &str,
        updated: &BTreeSet<String>,
    ) -> anyhow::Result<Option<Finding>> {
        let head = self.at_head(Some(to))?;
        let design_rel = design_path(to);
        let has_design = self.at_head(Some(&design_rel))?.is_some();
        let is_new = touch.kind() != ChangeKind::Modified;
        let interface = match (&touch.from, &head) {
            (Some(from), Some(head)) if !updated.contains(to) => {
                self.interface_change(from, to, head)?
            }
            _ => None,
        };
        let documentable_text = head
            .as_ref()
            .is_some_and(|file| self.is_documentable_text(to, &file.data));
        if !has_design && documentable_text && (is_new || interface.is_some()) {
            let message = format!(
                "{to} has no design file ({design_rel}); run `lexictl update {to}` or write one"
            );
            return Ok(Some(finding(
                FindingKind::MissingDesign,
                to,
                to,
                design_rel,
                message,
            )));
        }
        let Some((added, removed, line)) = interface.filter(|_| has_design) else {
            return Ok(None);
        };
        let what = describe_interface_change(&added, &removed, &|name| name.to_string());
        let message = format!(
            "the public interface of {to} changed ({what}) but {design_rel} was not updated; run `lexictl update {to}` or edit the design file"
        );
        Ok(Some(Finding {
            line,
            added,
            removed,
            ..finding(FindingKind::InterfaceChanged, to, to, design_rel, message)
        }))
    }

    /// `source`'s design file at the head is an agent's whose Interface Contract the code at the
    /// head left behind (see `workspace::contract`).
    fn stale_contract(&self, source: &str) -> anyhow::Result<Option<Finding>> {
        let design_rel = design_path(source);
        let Some(design_at) = self.at_head(Some(&design_rel))? else {
            return Ok(None);
        };
        let Some(text) = as_text(&design_at.data) else {
            return Ok(None);
        };
        let Ok(design) = DesignFile::parse(&design_rel, &text) else {
            return Ok(None);
        };
        let source_at = self.at_head(Some(source))?;
        let bytes = source_at.as_ref().map(|file| file.data.as_slice());
        let Some(drift) =
            crate::workspace::contract::drift_of(source, &design_rel, &text, &design, bytes)
        else {
            return Ok(None);
        };
        Ok(Some(Finding {
            severity: "error",
            ..finding(
                FindingKind::StaleContract,
                &design_rel,
                source,
                design_rel.clone(),
                format!("{}; {}", drift.message(), drift.hint()),
            )
        }))
    }

    /// Source `from` was deleted or renamed (to `to`) and its design file is still there at the head.
    fn orphaned(&self, from: &str, to: Option<&str>) -> anyhow::Result<Option<Finding>> {
        let design_rel = design_path(from);
        if self.at_head(Some(&design_rel))?.is_none() {
            return Ok(None);
        }
        let why = match to {
            Some(to) => format!("{from} was renamed to {to}"),
            None => format!("{from} was deleted"),
        };
        let message = format!(
            "{why} but its design file {design_rel} is still there; `lexictl update` moves or removes it"
        );
        let file = design_rel.clone();
        Ok(Some(Finding {
            renamed_to: to.map(str::to_string),
            ..finding(
                FindingKind::OrphanedDesign,
                &file,
                from,
                design_rel,
                message,
            )
        }))
    }

    /// `Some((added, removed, line))` when `from` at the base and `to` at the head are code in an
    /// enabled language and their public interfaces differ.
    #[allow(clippy::type_complexity)]
    pub(super) fn interface_change(
        &self,
        from: &str,
        to: &str,
        head: &FileAt,
    ) -> anyhow::Result<Option<(Vec<Symbol>, Vec<Symbol>, Option<usize>)>> {
        let Some(language) = Language::from_path(Path::new(to))
            .filter(|language| language.enabled_in(&self.project.config))
        else {
            return Ok(None);
        };
        let Some(base) = self.at_base(Some(from))? else {
            return Ok(None);
        };
        if !self.is_documentable_text(to, &head.data)
            || !self.is_documentable_text(from, &base.data)
        {
            return Ok(None);
        }
        let (Some(new_text), Some(old_text)) = (as_text(&head.data), as_text(&base.data)) else {
            return Ok(None);
        };
        let (Ok(new), Ok(old)) = (extract(language, &new_text), extract(language, &old_text))
        else {
            return Ok(None);
        };
        if new.hash() == old.hash() {
            return Ok(None);
        }
        let (added, removed) = symbol_diff(&old, &new);
        let line = added
            .first()
            .and_then(|symbol| declaration_line(&new_text, symbol));
        Ok(Some((added, removed, line)))
    }

    /// Text the update would document: not binary, not too large.
    pub(super) fn is_documentable_text(&self, rel: &str, data: &[u8]) -> bool {
        let limit = self
            .project
            .config
            .crawl
            .max_file_size_kb
            .saturating_mul(1024);
        !has_binary_extension(Path::new(rel), &self.project.config)
            && (data.len() as u64) <= limit
            && !data[..data.len().min(8192)].contains(&0)
    }
}

/// A warning of `kind` about `file`, for source `source` and its design file.
/// A `symlink` error: `path` is a symbolic link to `target` at the head.
fn symlink_finding(path: &str, target: &str) -> Finding {
    Finding {
        severity: "error",
        ..finding(
            FindingKind::Symlink,
            path,
            path,
            path.to_string(),
            format!(
                "{path} is a symbolic link (to {target}) at the head, not a file; Lexibrarian never reads or writes through it — a library file must be a regular file"
            ),
        )
    }
}

fn finding(
    kind: FindingKind,
    file: &str,
    source: &str,
    design_file: String,
    message: String,
) -> Finding {
    Finding {
        kind,
        severity: "warning",
        file: file.to_string(),
        line: None,
        source: source.to_string(),
        design_file,
        message,
        renamed_to: None,
        added: Vec::new(),
        removed: Vec::new(),
    }
}
