//! Build script: records the git commit the binary is built from (for `lazuli --version`),
//! "unknown" outside a git checkout (a source tarball) or without git.

use std::path::Path;
use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=LAZULI_GIT_COMMIT={commit}");
    // Build again when HEAD moves (a commit, a checkout).
    let git = Path::new(".git");
    if git.is_dir() {
        println!("cargo:rerun-if-changed=.git/HEAD");
        if let Ok(head) = std::fs::read_to_string(git.join("HEAD"))
            && let Some(r) = head.trim().strip_prefix("ref: ")
        {
            println!("cargo:rerun-if-changed=.git/{r}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
