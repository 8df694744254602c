/* Attack: embed a machine-wide file of /proc at compile time with
 * `include_bytes!` (see proc_at_compile.c: the test fills in MJ_PROC_FILE).
 * Success: the file was read with something in it, exit 42. A file rustc
 * cannot read does not compile (the attack failed). */
const EMBEDDED: &[u8] = include_bytes!("MJ_PROC_FILE");

fn main() {
    if !EMBEDDED.is_empty() {
        eprintln!("MJ_PROC_FILE: {} bytes embedded at compile time", EMBEDDED.len());
        std::process::exit(42);
    }
    println!("-1");
}
