//! Interrupted runs: an update that writes leaves a marker in the state directory while it runs
//! (removed when it ends, by any path but a kill), so the next run knows the last one was killed
//! and removes the temporary files it left in `.lexibrary/` — under the library lock, where no
//! other update writes — and the temporary pack a provenance write it was killed in left in the
//! object database (`git::pack`). A full update removes any such debris of the library too (the walk
//! is cheap next to it), and `--check` counts it as stale.

use crate::workspace::library;
use crate::workspace::state::StateDir;

/// The marker of a running update; dropping it removes the marker.
pub struct Running {
    path: Option<std::path::PathBuf>,
    /// The last run that wrote was killed (it left its marker).
    pub interrupted: bool,
}

impl Running {
    /// Leave the marker (nothing for a run that writes nothing). Call it holding the library lock.
    pub fn start(state: &StateDir, writes: bool) -> Running {
        if !writes {
            return Running {
                path: None,
                interrupted: false,
            };
        }
        let path = state.running_marker_path();
        let interrupted = path.exists();
        let _ = std::fs::create_dir_all(&state.dir);
        let _ = std::fs::write(&path, std::process::id().to_string());
        Running {
            path: Some(path),
            interrupted,
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(path) = &self.path {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Remove the debris of killed writers from the library (or, when `writes` is false, only find
/// it); the paths (project-relative).
pub fn remove_debris(project: &crate::project::Project, writes: bool) -> Vec<String> {
    let library = project.library_dir();
    let found = match writes {
        true => library::remove_debris(&library),
        false => library::find_debris(&library),
    };
    found
        .into_iter()
        .map(|rel| crate::project::in_library(&rel))
        .collect()
}

/// Remove the temporary pack files of provenance writes whose process is gone (killed mid-write),
/// logging what went; their paths, relative to the git directory.
pub fn remove_pack_debris(ws: &crate::workspace::Workspace, state: &StateDir) -> Vec<String> {
    let Some(repo) = ws.repo_if_any() else {
        return Vec::new();
    };
    let removed = repo.remove_pack_debris();
    if !removed.is_empty() {
        state.log(&format!(
            "removed the temporary pack files a killed update left: {}",
            removed.join(", ")
        ));
    }
    removed
}
