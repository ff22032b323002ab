//! Writing many new objects as one pack: a run that records provenance for 20,000 design files would
//! otherwise leave 20,000 loose object files (and as many `mkdir` calls for their fan-out
//! directories) in `.git/objects`. The objects are kept in memory while the notes tree and commit
//! are built (gix's object memory), then written as one `.pack` with its `.idx` — what `git
//! index-pack` leaves after a fetch — before the notes ref moves to them.
//!
//! The pack is written here rather than through gix's pack writer because everything its index
//! needs is known already: each object's id (the object memory is keyed by it), where its entry
//! starts and the CRC-32 of the entry as written. gix's writer would inflate and hash every object
//! again to index the pack; for a cold 20,000-file run that and a zlib state set up per object were
//! a fifth of the run. Here the objects are encoded in parallel, a chunk at a time (their encoded
//! copies stay bounded by the chunk; the objects themselves are all in memory already), and the `.idx` (version 2) is written from the offsets and
//! checksums collected on the way.
//!
//! **Stored, not compressed.** Each object's zlib stream is made of *stored* deflate blocks (RFC
//! 1951 §3.2.4): valid zlib that every git reads, at the cost of a copy and an Adler-32. Notes are
//! short JSON lines full of hex ids: zlib at its fastest level saved 14 % of their bytes (13.5 MB →
//! 11.6 MB for 20,000 notes) but cost ~75 ms of a cold 20,000-file run, almost all of it clearing
//! its 128 KB hash table once per object. `git repack -F` (or `gc --aggressive`) compresses them
//! whenever a repository wants the bytes back.
//!
//! Formats: `Documentation/gitformat-pack.txt` in git. A pack is `PACK`, version 2, the object
//! count, then per object a type-and-size header and its zlib stream, then the checksum of all of
//! that. The index is `\xfftOc`, version 2, a 256-entry fan-out table, the sorted ids, their
//! entries' CRC-32s, their offsets (31 bits, or an index into a table of 64-bit offsets), the
//! pack's checksum and the index's own. Both files are written to temporary names and renamed, the
//! pack first: a reader finds a pack through its index.
//!
//! **Debris.** A temporary file is named `tmp_pack_lexi-<pid>-…`: git's own `tmp_` prefix (so `git
//! prune` ages it out like its own) and the writer's process id. A writer that fails removes its
//! file; one that is killed cannot, and a pack is up to tens of megabytes. Its file is debris once
//! its process is gone: every pack write, and the next update after a killed one, removes such
//! files ([`remove_debris`]) — never a temporary file of git's own, nor one whose writer still runs.

use std::io::Write as _;
use std::path::Path;

use gix::hash::ObjectId;
use gix::objs::Kind;
use rayon::prelude::*;

use super::GitError;

/// Below this many notes in one append, the few loose objects cost less than a pack (and do not
/// pile up packs, one per hook run).
pub(crate) const PACK_FROM_NOTES: usize = 64;

/// How many objects are encoded at a time on their way into the pack.
pub(crate) const ENCODE_CHUNK: usize = 4096;

/// Offsets at or past this need the index's table of 64-bit offsets.
const LARGE_OFFSET: u64 = 0x8000_0000;

/// One object as it went into the pack: what its index entry needs.
struct Placed {
    id: ObjectId,
    offset: u64,
    crc32: u32,
}

/// Write `objects` (kind and data by id) into one new pack of `repo`'s object database, with its
/// index.
pub(crate) fn write_pack(
    repo: &gix::Repository,
    mut objects: gix::odb::memory::Storage,
) -> Result<(), GitError> {
    if objects.is_empty() {
        return Ok(());
    }
    let hash = repo.object_hash();
    let directory = repo.common_dir().join("objects").join("pack");
    remove_debris(&directory);
    let count = u32::try_from(objects.len()).map_err(|err| pack_error("count", err))?;
    let mut pack = Spool::new(&directory, hash)?;
    pack.write(&pack_header(count))?;
    let mut placed = Vec::with_capacity(objects.len());
    let mut drained = objects.drain();
    loop {
        let chunk: Vec<(ObjectId, (Kind, Vec<u8>))> = drained.by_ref().take(ENCODE_CHUNK).collect();
        if chunk.is_empty() {
            break;
        }
        for (id, entry) in encode_chunk(&chunk) {
            placed.push(Placed {
                id,
                offset: pack.written,
                crc32: crc32fast::hash(&entry),
            });
            pack.write(&entry)?;
        }
    }
    let named = |checksum: &ObjectId, extension: &str| {
        directory.join(format!("pack-{}.{extension}", checksum.to_hex()))
    };
    let checksum = pack.finish(|checksum| named(checksum, "pack"))?;
    let mut index = Spool::new(&directory, hash)?;
    index.write(&index_bytes(placed, &checksum))?;
    index.finish(|_| named(&checksum, "idx"))?;
    Ok(())
}

/// The pack's header: signature, version 2, how many objects follow.
fn pack_header(count: u32) -> Vec<u8> {
    let mut header = b"PACK".to_vec();
    header.extend_from_slice(&2u32.to_be_bytes());
    header.extend_from_slice(&count.to_be_bytes());
    header
}

/// Each object of `chunk` as its pack entry (header and zlib stream), in the chunk's order,
/// encoded in parallel.
fn encode_chunk(chunk: &[(ObjectId, (Kind, Vec<u8>))]) -> Vec<(ObjectId, Vec<u8>)> {
    chunk
        .par_iter()
        .map(|(id, (kind, data))| {
            let mut entry = entry_header(*kind, data.len());
            stored_zlib_into(data, &mut entry);
            (*id, entry)
        })
        .collect()
}

/// An entry's header: the type in bits 4–6 of the first byte, the size in its low four bits and
/// then seven bits a byte, little end first, the top bit saying another byte follows.
fn entry_header(kind: Kind, size: usize) -> Vec<u8> {
    let type_bits: u8 = match kind {
        Kind::Commit => 1,
        Kind::Tree => 2,
        Kind::Blob => 3,
        Kind::Tag => 4,
    };
    let mut size = size as u64;
    let mut header = Vec::with_capacity(16);
    let mut byte = (type_bits << 4) | (size & 0x0f) as u8;
    size >>= 4;
    while size > 0 {
        header.push(byte | 0x80);
        byte = (size & 0x7f) as u8;
        size >>= 7;
    }
    header.push(byte);
    header
}

/// Largest stored deflate block.
const STORED_BLOCK: usize = 0xffff;

/// Append a zlib stream of `data` in stored deflate blocks to `out`: the zlib header (deflate,
/// 32 KB window, no dictionary, "fastest"), each block's final bit, length and its complement,
/// the bytes, then the Adler-32 of `data`, big-endian (RFC 1950, RFC 1951 §3.2.4).
fn stored_zlib_into(data: &[u8], out: &mut Vec<u8>) {
    let blocks = data.len().div_ceil(STORED_BLOCK).max(1);
    out.reserve(2 + blocks * 5 + data.len() + 4);
    out.extend_from_slice(&[0x78, 0x01]);
    let mut chunks = data.chunks(STORED_BLOCK).peekable();
    if chunks.peek().is_none() {
        out.extend_from_slice(&[0x01, 0x00, 0x00, 0xff, 0xff]);
    }
    while let Some(chunk) = chunks.next() {
        let last = chunks.peek().is_none();
        let len = chunk.len() as u16;
        out.push(u8::from(last));
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(chunk);
    }
    out.extend_from_slice(&adler32(data).to_be_bytes());
}

/// The Adler-32 checksum of `data` (RFC 1950 §8.2), the sums reduced once per 5,552 bytes — the
/// most that cannot overflow 32 bits.
fn adler32(data: &[u8]) -> u32 {
    const MOD: u32 = 65_521;
    let (mut a, mut b) = (1u32, 0u32);
    for block in data.chunks(5552) {
        for byte in block {
            a += u32::from(*byte);
            b += a;
        }
        a %= MOD;
        b %= MOD;
    }
    (b << 16) | a
}

/// The version-2 index of the objects `placed` in the pack whose checksum is `pack_checksum`.
fn index_bytes(mut placed: Vec<Placed>, pack_checksum: &ObjectId) -> Vec<u8> {
    placed.sort_unstable_by_key(|object| object.id);
    let hash_len = pack_checksum.as_slice().len();
    let mut out = Vec::with_capacity(8 + 256 * 4 + placed.len() * (hash_len + 8) + 2 * hash_len);
    out.extend_from_slice(b"\xfftOc");
    out.extend_from_slice(&2u32.to_be_bytes());
    let mut fan_out = [0u32; 256];
    for object in &placed {
        fan_out[usize::from(object.id.as_slice()[0])] += 1;
    }
    let mut running = 0u32;
    for count in fan_out {
        running += count;
        out.extend_from_slice(&running.to_be_bytes());
    }
    for object in &placed {
        out.extend_from_slice(object.id.as_slice());
    }
    for object in &placed {
        out.extend_from_slice(&object.crc32.to_be_bytes());
    }
    let mut large = Vec::new();
    for object in &placed {
        let small = match object.offset < LARGE_OFFSET {
            true => object.offset as u32,
            false => {
                large.push(object.offset);
                LARGE_OFFSET as u32 | (large.len() as u32 - 1)
            }
        };
        out.extend_from_slice(&small.to_be_bytes());
    }
    for offset in large {
        out.extend_from_slice(&offset.to_be_bytes());
    }
    out.extend_from_slice(pack_checksum.as_slice());
    out
}

/// A file being written under a temporary name in the pack directory, hashed as it is written;
/// [`finish`](Spool::finish) appends the checksum and gives the file its name.
struct Spool {
    file: std::io::BufWriter<tempfile::NamedTempFile>,
    hasher: gix::hash::Hasher,
    written: u64,
}

impl Spool {
    fn new(directory: &Path, hash: gix::hash::Kind) -> Result<Spool, GitError> {
        let file = tempfile::Builder::new()
            .prefix(&format!("{TEMP_PREFIX}{}-", std::process::id()))
            .tempfile_in(directory)
            .map_err(|err| pack_error("create a temporary file", err))?;
        Ok(Spool {
            file: std::io::BufWriter::with_capacity(1 << 16, file),
            hasher: gix::hash::hasher(hash),
            written: 0,
        })
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), GitError> {
        self.hasher.update(bytes);
        self.written += bytes.len() as u64;
        self.file
            .write_all(bytes)
            .map_err(|err| pack_error("write", err))
    }

    /// Append the checksum of everything written, then rename the file to `path_for(checksum)`,
    /// read-only as git leaves its packs. Returns the checksum.
    fn finish(
        mut self,
        path_for: impl FnOnce(&ObjectId) -> std::path::PathBuf,
    ) -> Result<ObjectId, GitError> {
        let checksum = self
            .hasher
            .try_finalize()
            .map_err(|err| pack_error("checksum", err))?;
        self.file
            .write_all(checksum.as_slice())
            .map_err(|err| pack_error("write", err))?;
        let file = self
            .file
            .into_inner()
            .map_err(|err| pack_error("write", err.error()))?;
        let read_only = std::os::unix::fs::PermissionsExt::from_mode(0o444);
        let _ = std::fs::set_permissions(file.path(), read_only);
        file.persist(path_for(&checksum))
            .map_err(|err| pack_error("name the pack", err.error))?;
        Ok(checksum)
    }
}

/// The name of our temporary pack and index files, before the writer's pid.
const TEMP_PREFIX: &str = "tmp_pack_lexi-";

/// Remove from the pack directory `directory` the temporary files of pack writes whose process is
/// gone (killed mid-write); the names removed.
pub(crate) fn remove_debris(directory: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(directory) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        let Some(rest) = name.strip_prefix(TEMP_PREFIX) else {
            continue;
        };
        let writer = rest
            .split_once('-')
            .and_then(|(pid, _)| pid.parse::<i32>().ok())
            .and_then(rustix::process::Pid::from_raw);
        // EPERM: it runs, as someone else.
        let gone = writer.is_none_or(|pid| {
            matches!(
                rustix::process::test_kill_process(pid),
                Err(rustix::io::Errno::SRCH)
            )
        });
        if gone && std::fs::remove_file(entry.path()).is_ok() {
            removed.push(name.to_string());
        }
    }
    removed.sort();
    removed
}

fn pack_error(action: &str, err: impl std::fmt::Display) -> GitError {
    GitError::Notes {
        action: format!("pack new objects: {action}"),
        message: err.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inflated(stream: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut decoder = gix::zlib::Decompress::new();
        let mut buf = vec![0; 1 << 20];
        let mut consumed = 0;
        loop {
            let (in_before, out_before) = (decoder.total_in(), decoder.total_out());
            let status = decoder
                .decompress(
                    &stream[consumed..],
                    &mut buf,
                    gix::zlib::FlushDecompress::Finish,
                )
                .expect("a valid zlib stream");
            consumed += (decoder.total_in() - in_before) as usize;
            out.extend_from_slice(&buf[..(decoder.total_out() - out_before) as usize]);
            if status == gix::zlib::Status::StreamEnd {
                assert_eq!(consumed, stream.len(), "nothing after the stream");
                return out;
            }
        }
    }

    #[test]
    fn only_the_temporary_files_of_gone_writers_of_ours_are_debris() {
        let dir = tempfile::tempdir().expect("tempdir");
        let ours_live = format!("{TEMP_PREFIX}{}-abc", std::process::id());
        // Pid 2^22 + 1 is above Linux's pid_max limit: no process has it.
        let ours_gone = format!("{TEMP_PREFIX}4194305-abc");
        for name in [
            &ours_live,
            &ours_gone,
            &"tmp_pack_Ab12Cd".to_string(),
            &"pack-1.pack".to_string(),
        ] {
            std::fs::write(dir.path().join(name), "x").expect("write");
        }
        assert_eq!(remove_debris(dir.path()), [ours_gone.as_str()]);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .expect("list")
            .map(|entry| {
                entry
                    .expect("entry")
                    .file_name()
                    .into_string()
                    .expect("utf8")
            })
            .collect();
        left.sort();
        assert_eq!(left, ["pack-1.pack", "tmp_pack_Ab12Cd", ours_live.as_str()]);
    }

    #[test]
    fn stored_streams_inflate_to_their_data() {
        let long: Vec<u8> = (0..150_000u32).map(|i| (i * 7 % 251) as u8).collect();
        for data in [&b""[..], b"x", b"{\"a\":1}\n", &long[..STORED_BLOCK], &long] {
            let mut stream = Vec::new();
            stored_zlib_into(data, &mut stream);
            assert_eq!(inflated(&stream), data, "{} bytes", data.len());
        }
    }

    #[test]
    fn adler32_is_rfc_1950s() {
        assert_eq!(adler32(b""), 1);
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
        // Past one reduction block: every byte 0xff for 10,000 bytes (zlib's value).
        assert_eq!(adler32(&[0xff; 10_000]), 0xB623_EB2B);
    }

    #[test]
    fn offsets_past_2_gib_go_to_the_large_offset_table() {
        let id = |byte: u8| ObjectId::from_bytes_or_panic(&[byte; 20]);
        let placed = vec![
            Placed {
                id: id(3),
                offset: 7 << 32,
                crc32: 3,
            },
            Placed {
                id: id(1),
                offset: 12,
                crc32: 1,
            },
            Placed {
                id: id(2),
                offset: LARGE_OFFSET + 5,
                crc32: 2,
            },
        ];
        let checksum = id(9);
        let index = index_bytes(placed, &checksum);
        let be32 = |at: usize| u32::from_be_bytes(index[at..at + 4].try_into().expect("4 bytes"));
        let be64 = |at: usize| u64::from_be_bytes(index[at..at + 8].try_into().expect("8 bytes"));
        let (ids, crcs) = (8 + 256 * 4, 8 + 256 * 4 + 3 * 20);
        let (offsets, large) = (crcs + 3 * 4, crcs + 3 * 8);
        assert_eq!((be32(8 + 4), be32(8 + 255 * 4)), (1, 3), "fan-out");
        assert_eq!(&index[ids..ids + 20], &[1; 20], "ids sorted");
        assert_eq!((be32(crcs), be32(crcs + 4), be32(crcs + 8)), (1, 2, 3));
        // In id order: 12 small; then the two large ones, indices 0 and 1 of the 64-bit table.
        assert_eq!(be32(offsets), 12);
        assert_eq!(be32(offsets + 4), 0x8000_0000);
        assert_eq!(be32(offsets + 8), 0x8000_0001);
        assert_eq!((be64(large), be64(large + 8)), (LARGE_OFFSET + 5, 7 << 32));
        assert_eq!(
            &index[large + 16..],
            &[9; 20],
            "the pack's checksum ends it"
        );
    }

    #[test]
    fn entry_headers_carry_type_and_size() {
        assert_eq!(entry_header(Kind::Blob, 5), [0x35]);
        assert_eq!(entry_header(Kind::Tree, 16), [0xa0, 0x01]);
        assert_eq!(entry_header(Kind::Commit, 0), [0x10]);
        assert_eq!(entry_header(Kind::Blob, 0x1234), [0xb4, 0xa3, 0x02]);
    }
}
