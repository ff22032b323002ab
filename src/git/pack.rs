//! Writing many new objects as one pack: a run that records provenance for 20,000 design files would
//! otherwise leave 20,000 loose object files (and as many `mkdir` calls for their fan-out
//! directories) in `.git/objects`. The objects are kept in memory while the notes tree and commit
//! are built (gix's object memory), then written with gix's pack writer as one `.pack` with its
//! `.idx` — what `git` itself does for a fetch — before the notes ref moves to them.

use std::sync::atomic::AtomicBool;

use gix_pack::data::output;

use super::GitError;

/// Below this many notes in one append, the few loose objects cost less than a pack (and do not
/// pile up packs, one per hook run).
pub(crate) const PACK_FROM_NOTES: usize = 64;

/// Write `objects` (kind and data by id) into one new pack of `repo`'s object database.
pub(crate) fn write_pack(
    repo: &gix::Repository,
    objects: gix::odb::memory::Storage,
) -> Result<(), GitError> {
    if objects.is_empty() {
        return Ok(());
    }
    let hash = repo.object_hash();
    let entries = objects
        .iter()
        .map(|(id, (kind, data))| {
            let count = output::Count::from_data(*id, None);
            let data = gix::objs::Data::new(data, *kind, hash);
            output::Entry::from_data(&count, &data, gix::zlib::Compression::BEST_SPEED)
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|err| pack_error("encode an object", err))?;
    let count = u32::try_from(entries.len()).map_err(|err| pack_error("count", err))?;
    let mut bytes = Vec::new();
    let mut encoder = output::bytes::FromEntriesIter::new(
        std::iter::once(Ok(entries)),
        &mut bytes,
        count,
        gix_pack::data::Version::V2,
        hash,
    );
    for written in encoder.by_ref() {
        written.map_err(|err| pack_error("write the pack", err))?;
    }
    drop(encoder);
    let directory = repo.common_dir().join("objects").join("pack");
    let outcome = gix_pack::Bundle::write_to_directory(
        &mut bytes.as_slice(),
        Some(&directory),
        &mut gix::progress::Discard,
        &AtomicBool::new(false),
        None::<gix::objs::find::Never>,
        hash,
        gix_pack::bundle::write::Options::default(),
    )
    .map_err(|err| pack_error("index the pack", err))?;
    // The `.keep` file guards a pack until refs point into it; ours are about to.
    if let Some(keep) = outcome.keep_path {
        let _ = std::fs::remove_file(keep);
    }
    Ok(())
}

fn pack_error(action: &str, err: impl std::fmt::Display) -> GitError {
    GitError::Notes {
        action: format!("pack new objects: {action}"),
        message: err.to_string(),
    }
}
