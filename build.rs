//! Re-embed migrations whenever a file under `migrations/` (or a policy preset) changes.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
    println!("cargo:rerun-if-changed=policies");
}
