//! A small filesystem a fault test mounts itself, to fill for real (issue 27: faults are caused,
//! never mocked). Root only; CI runs as root and must run such tests.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A tmpfs of a given size mounted on a fresh directory, unmounted on drop.
pub struct Tmpfs {
    dir: PathBuf,
    _parent: tempfile::TempDir,
}

impl Tmpfs {
    /// Mount a tmpfs of `size` (`16m`). `None` (the test is skipped, saying why) when mounting is
    /// not allowed here; under `CI` a failure to mount fails the test instead.
    pub fn mount(size: &str) -> Option<Self> {
        let parent = tempfile::tempdir().expect("temp dir");
        let dir = parent.path().join("disk");
        std::fs::create_dir(&dir).expect("mount point");
        let status =
            Command::new("mount").args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"]).arg(&dir).status();
        match status {
            Ok(status) if status.success() => Some(Self { dir, _parent: parent }),
            other => {
                assert!(
                    std::env::var_os("CI").is_none(),
                    "CI runs as root and must run this test, but mounting a tmpfs failed: {other:?}"
                );
                eprintln!("SKIPPED: mounting a tmpfs needs root (mount said {other:?}); CI runs this test as root");
                None
            }
        }
    }

    /// The mounted directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.dir).status();
    }
}
