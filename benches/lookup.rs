//! Benchmark: `lexi lookup <file>` process wall time on a generated 20,000-file project.
//!
//! Generates a git-less project of 20,000 mixed-language source files in nested directories, each with
//! a design file written by the library's own renderer (so footers and hashes are real) and a `.aindex`
//! with Local Conventions in every directory, and the update cache a `lexictl update` leaves (git-less:
//! `.lexibrary/.cache/state/cache`; each file importing three others, with eight members calling six
//! names each — what `## Calls` and `## Called from` read), then spawns `lexi lookup` on a fixed pseudo-random
//! sample of files and reports the median, p90 and min wall time. Target: median under 10 ms.
//!
//! Run: `cargo bench --bench lookup` (options: `-- --files N --runs N --no-cache`; without the cache
//! a lookup has no Calls to read).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use lexibrarian::hash::sha256_hex;
use lexibrarian::library::aindex::{AIndex, ChildEntry, ChildKind};
use lexibrarian::library::design_file::{sections, DesignFile};
use lexibrarian::library::footer::Footer;
use lexibrarian::library::markdown::Section;

#[path = "../tests/common/hermetic.rs"]
mod hermetic;

/// The hermetic environment of every command (tests/common/hermetic.rs); `main` sets it.
static ENV: OnceLock<hermetic::Hermetic> = OnceLock::new();

/// `program` in the hermetic environment.
fn command(program: &str) -> Command {
    ENV.get().expect("main sets ENV").command(program)
}

fn main() {
    let home = tempfile::tempdir().expect("temp dir for the home");
    let _ = ENV.set(hermetic::Hermetic::new(home.path()));
    let mut files = 20_000usize;
    let mut runs = 200usize;
    let mut with_cache = true;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--files" => files = args.next().and_then(|v| v.parse().ok()).unwrap_or(files),
            "--runs" => runs = args.next().and_then(|v| v.parse().ok()).unwrap_or(runs),
            "--no-cache" => with_cache = false,
            _ => {} // cargo passes `--bench`
        }
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let started = Instant::now();
    let sources = generate(root, files);
    if with_cache {
        write_cache(root, &sources);
    }
    eprintln!(
        "generated {} source files + design files in {:.1}s",
        sources.len(),
        started.elapsed().as_secs_f64()
    );

    let lexi = env!("CARGO_BIN_EXE_lexi");
    // Warm the page cache and the binary once.
    spawn(lexi, root, &sources[0]);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let source = &sources[(seed % sources.len() as u64) as usize];
        times.push(spawn(lexi, root, source));
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "lexi lookup over {} files, {} runs: median {:.2} ms, p90 {:.2} ms, min {:.2} ms (target: median < 10 ms)",
        sources.len(),
        runs,
        ms(times[runs / 2]),
        ms(times[runs * 9 / 10]),
        ms(times[0])
    );
}

fn spawn(lexi: &str, root: &Path, source: &str) -> Duration {
    let started = Instant::now();
    let status = command(lexi)
        .args(["lookup", source])
        .current_dir(root)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .status()
        .expect("spawn lexi");
    let elapsed = started.elapsed();
    assert!(status.success(), "lexi lookup {source} failed");
    elapsed
}

/// The update cache of `sources`: each imports three pseudo-random others and has eight members
/// calling six names each (some of them its imports' public names).
fn write_cache(root: &Path, sources: &[String]) {
    use lexibrarian::project::walk::FileClass;
    use lexibrarian::workspace::cache::{Cache, Details, Entry, Stat};
    let mut cache = Cache::default();
    let pick = |index: usize, salt: usize| (index * 7919 + salt * 104_729) % sources.len();
    for (index, source) in sources.iter().enumerate() {
        let mut deps: Vec<String> = (1..=3)
            .map(|salt| sources[pick(index, salt)].clone())
            .collect();
        deps.sort();
        deps.dedup();
        let symbols: Vec<String> = (0..8).map(|m| format!("member{m}_{index}")).collect();
        let calls: Vec<String> = (0..8)
            .map(|m| {
                let callees: Vec<String> = (0..6)
                    .map(|c| format!(".member{c}_{}", pick(index, m + c)))
                    .collect();
                format!("Type{index}.member{m}_{index} {}", callees.join(" "))
            })
            .collect();
        let stat = Stat {
            size: 100,
            mtime_ns: 1,
        };
        let entry = Entry {
            source_hash: "0".repeat(64),
            interface_hash: Some("1".repeat(64)),
            deps,
            details: Details {
                description: format!("Module {index}."),
                symbols,
                calls,
                ..Details::default()
            }
            .into(),
            design: Some(stat),
            ..Entry::unhashed(stat, FileClass::Text, String::new())
        };
        cache.entries.insert(source.clone(), entry);
    }
    let path = root.join(".lexibrary/.cache/state/cache");
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    cache.save(&path, 2).expect("save the cache");
    eprintln!(
        "update cache: {} entries, {} KB",
        sources.len(),
        std::fs::metadata(&path).map_or(0, |m| m.len() / 1024)
    );
}

/// 20 top-level dirs × 10 subdirs × N files, cycling through four languages.
fn generate(root: &Path, files: usize) -> Vec<String> {
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    write(
        ".lexibrary/config.yaml",
        "project_name: bench\nscope_root: src/\n",
    );
    let per_dir = files.div_ceil(200).max(1);
    let mut sources = Vec::with_capacity(files);
    let mut dirs: BTreeMap<String, Vec<ChildEntry>> = BTreeMap::new();
    for index in 0..files {
        let dir = format!(
            "src/pkg{:02}/mod{:02}",
            index / (per_dir * 10),
            (index / per_dir) % 10
        );
        let (ext, text) = match index % 4 {
            0 => ("rs", format!("//! Module {index}.\npub fn f{index}(x: u32) -> u32 {{ x + {index} }}\n")),
            1 => ("ts", format!("/** Module {index}. */\nexport function f{index}(x: number): number {{ return x + {index}; }}\n")),
            2 => ("py", format!("\"\"\"Module {index}.\"\"\"\n\ndef f{index}(x: int) -> int:\n    return x + {index}\n")),
            _ => ("js", format!("// Module {index}.\nexport const f{index} = (x) => x + {index};\n")),
        };
        let name = format!("file{index:05}.{ext}");
        let source = format!("{dir}/{name}");
        write(&source, &text);
        let description = format!("Adds {index} to its argument.");
        let design = DesignFile::new(
            &source,
            description.clone(),
            vec![
                Section::new(
                    sections::INTERFACE_CONTRACT,
                    format!("```\nf{index}(x) -> number\n```"),
                ),
                Section::new(sections::DEPENDENCIES, "(none)"),
                Section::new(sections::DEPENDENTS, "(none)"),
            ],
        );
        let footer = Footer {
            source: source.clone(),
            source_hash: sha256_hex(text.as_bytes()),
            interface_hash: Some(sha256_hex(format!("f{index}").as_bytes())),
            design_hash: String::new(),
            generated: None,
            generator: "lexibrarian bench".into(),
            extra: BTreeMap::new(),
        };
        write(
            &format!(".lexibrary/{source}.md"),
            &design.render_with_footer(footer).0,
        );
        dirs.entry(dir).or_default().push(ChildEntry {
            name,
            kind: ChildKind::File,
            description,
        });
        sources.push(source);
    }
    let mut all_dirs: Vec<String> = dirs.keys().cloned().collect();
    for dir in dirs.keys() {
        let mut current = dir.as_str();
        while let Some(cut) = current.rfind('/') {
            current = &current[..cut];
            all_dirs.push(current.to_string());
        }
    }
    all_dirs.push(String::new());
    all_dirs.sort();
    all_dirs.dedup();
    for dir in all_dirs {
        let children = dirs.get(&dir).cloned().unwrap_or_default();
        let mut index = AIndex::new(&dir, &format!("Generated directory {dir}."), &children);
        index
            .doc
            .set_section("Local Conventions", format!("- Convention for {dir}/."));
        let rel = if dir.is_empty() {
            ".lexibrary/.aindex".to_string()
        } else {
            format!(".lexibrary/{dir}/.aindex")
        };
        write(&rel, &index.render());
    }
    sources
}
