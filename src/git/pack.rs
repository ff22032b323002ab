//! Writing many new objects as one pack: a run that records provenance for 20,000 design files would
//! otherwise leave 20,000 loose object files (and as many `mkdir` calls for their fan-out
//! directories) in `.git/objects`. The objects are kept in memory while the notes tree and commit
//! are built (gix's object memory), then streamed through gix's pack writer as one `.pack` with its
//! `.idx` — what `git` itself does for a fetch — before the notes ref moves to them.

use std::io::{Seek as _, Write as _};
use std::sync::atomic::AtomicBool;

use gix_pack::data::output;

use super::GitError;

/// Below this many notes in one append, the few loose objects cost less than a pack (and do not
/// pile up packs, one per hook run).
pub(crate) const PACK_FROM_NOTES: usize = 64;

/// How many objects are compressed at a time on their way into the pack.
pub(crate) const ENCODE_CHUNK: usize = 1024;

/// Write `objects` (kind and data by id) into one new pack of `repo`'s object database. The pack is
/// streamed: objects are compressed a chunk at a time (each dropped once compressed) into an
/// unnamed temporary file in `objects/pack`, which gix then indexes into the pack and its `.idx` —
/// never the whole pack in memory (a 100,000-note run's pack is tens of megabytes).
pub(crate) fn write_pack(
    repo: &gix::Repository,
    mut objects: gix::odb::memory::Storage,
) -> Result<(), GitError> {
    if objects.is_empty() {
        return Ok(());
    }
    let hash = repo.object_hash();
    let count = u32::try_from(objects.len()).map_err(|err| pack_error("count", err))?;
    let directory = repo.common_dir().join("objects").join("pack");
    let mut spool = tempfile::tempfile_in(&directory).map_err(|err| pack_error("spool", err))?;
    let mut failed = None;
    {
        let mut drained = objects.drain();
        let chunks = std::iter::from_fn(|| {
            if failed.is_some() {
                return None;
            }
            let mut entries = Vec::with_capacity(ENCODE_CHUNK);
            for (id, (kind, data)) in drained.by_ref().take(ENCODE_CHUNK) {
                let count = output::Count::from_data(id, None);
                let data = gix::objs::Data::new(&data, kind, hash);
                match output::Entry::from_data(&count, &data, gix::zlib::Compression::BEST_SPEED) {
                    Ok(entry) => entries.push(entry),
                    Err(err) => {
                        failed = Some(pack_error("encode an object", err));
                        return None;
                    }
                }
            }
            (!entries.is_empty()).then_some(Ok(entries))
        });
        let mut out = std::io::BufWriter::new(&mut spool);
        let mut encoder = output::bytes::FromEntriesIter::new(
            chunks,
            &mut out,
            count,
            gix_pack::data::Version::V2,
            hash,
        );
        for written in encoder.by_ref() {
            written.map_err(|err| pack_error("write the pack", err))?;
        }
        drop(encoder);
        out.flush()
            .map_err(|err| pack_error("write the pack", err))?;
    }
    if let Some(err) = failed {
        return Err(err);
    }
    spool
        .seek(std::io::SeekFrom::Start(0))
        .map_err(|err| pack_error("read the pack back", err))?;
    let outcome = gix_pack::Bundle::write_to_directory(
        &mut std::io::BufReader::new(spool),
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
