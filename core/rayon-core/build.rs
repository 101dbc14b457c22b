// `links = "rayon-core"` in Cargo.toml needs a build script. Nothing is
// linked: the key only makes cargo reject a second rayon-core in the build.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
}
