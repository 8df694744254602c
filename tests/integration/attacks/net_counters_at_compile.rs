/* Attack: read what earlier runs left in the network namespace's
 * statistics at compile time. `include_str!` reads /proc/net/snmp while
 * the compiler runs (in a runner that has carried out earlier runs); a
 * compile error quoting it, or, as here, the program it builds, carries
 * it out. `net_counters.c` raises `Ip: OutNoRoutes` by 20,000 in each of
 * its runs; graded before this one, on one slot. Success: the value
 * compiled in is 1,000 or more, exit 42. A compilation's /proc shows its
 * own processes only, so this no longer compiles: the attack failed. */
const SNMP: &str = include_str!("/proc/net/snmp");

fn main() {
    let mut lines = SNMP.lines();
    while let (Some(names), Some(values)) = (lines.next(), lines.next()) {
        if !names.starts_with("Ip:") {
            continue;
        }
        for (name, value) in names.split_whitespace().zip(values.split_whitespace()) {
            if name == "OutNoRoutes" && value.parse::<u64>().is_ok_and(|v| v >= 1000) {
                eprintln!("OutNoRoutes was {value} when this program was compiled");
                std::process::exit(42);
            }
        }
    }
    println!("-1");
}
