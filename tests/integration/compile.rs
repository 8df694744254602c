//! Compilation as `grade` does it: C++'s standard header `<bits/stdc++.h>`
//! precompiled once by the judge (`src/judge/pch.rs`), used where it
//! fits, and nothing a contestant sees changed by it.

use crate::grade::{Fixture, result_line};
use crate::util::{CASE4_ANSWER, have, target_dir};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The grade fixture with a compile cache out of `/tmp` (a folder every
/// run mounts afresh, where no header could be bound).
struct Class {
    f: Fixture,
    cache: tempfile::TempDir,
}

/// Where the cache is made: the build folder, or `/var/tmp` where that is
/// below `/tmp` or `/dev/shm` (a checkout in `/tmp`), which each run and
/// compilation mounts afresh.
fn cache_base() -> PathBuf {
    let target = target_dir();
    if target.starts_with("/tmp") || target.starts_with("/dev/shm") {
        PathBuf::from("/var/tmp")
    } else {
        target
    }
}

impl Class {
    fn new() -> Class {
        let cache = tempfile::Builder::new()
            .prefix("compile-test-cache-")
            .tempdir_in(cache_base())
            .unwrap();
        Class {
            f: Fixture::new(),
            cache,
        }
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        self.f.write(name, text)
    }

    fn grade(&self, file: &Path, pch: bool) -> assert_cmd::Command {
        let mut cmd = self.f.grade(file);
        cmd.env("MAYAN_JUDGE_CACHE", self.cache.path());
        if !pch {
            cmd.env("MAYAN_JUDGE_PCH", "0");
        }
        cmd
    }
}

/// An accepted C++ program on the fixture's test: `before` first, then the
/// header, then `body` before `main`.
fn accepted(before: &str, body: &str) -> String {
    let answer = CASE4_ANSWER.replace('\n', "\\n");
    format!("{before}#include <bits/stdc++.h>\n{body}\nint main() {{ std::fputs(\"{answer}\", stdout); }}\n")
}

/// The one precompiled header in `folder/bits/stdc++.h.gch/` (a folder
/// that holds it under a random name, or nothing).
fn precompiled_in(folder: &Path) -> Option<PathBuf> {
    let held: Vec<PathBuf> = std::fs::read_dir(folder.join("bits/stdc++.h.gch"))
        .ok()?
        .flatten()
        .map(|e| e.path())
        .collect();
    (held.len() == 1).then(|| held[0].clone())
}

/// The folders of the fixture's compile cache that hold a precompiled
/// header.
fn headers(f: &Class) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(f.cache.path()) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("pch-"))
                && precompiled_in(p).is_some()
        })
        .collect();
    found.sort();
    found
}

/// The system header's folder a precompiled header covers in
/// compilations (the first line of its `built-from`).
fn covered(gch: &Path) -> PathBuf {
    let folder = gch.ancestors().nth(3).unwrap();
    let built_from = folder.join("built-from");
    let text = std::fs::read_to_string(built_from).unwrap();
    PathBuf::from(text.lines().next().unwrap())
}

/// The one precompiled header in the fixture's cache.
#[track_caller]
fn the_header(f: &Class) -> PathBuf {
    let found = headers(f);
    assert_eq!(found.len(), 1, "one precompiled header expected: {found:?}");
    precompiled_in(&found[0]).unwrap()
}

/// Grades `file`; the one test's verdict line.
fn verdict(f: &Class, file: &Path, pch: bool) -> String {
    result_line(&f.grade(file, pch).arg("--quiet").output().unwrap())
}

/// The compiler's message `grade` reports for `file` (JSON report).
fn compile_error(f: &Class, file: &Path, pch: bool) -> String {
    let json = f.f.dir.path().join("report.json");
    f.grade(file, pch)
        .arg("--quiet")
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    v["submissions"][0]["compile_error"]
        .as_str()
        .unwrap_or_else(|| panic!("no compile error: {v}"))
        .to_string()
}

#[test]
fn a_program_including_bits_stdcpp_is_compiled_with_the_judges_precompiled_header() {
    if !have("g++") {
        return;
    }
    let f = Class::new();
    let plain = f.write("plain.cpp", &accepted("", ""));
    assert!(verdict(&f, &plain, true).contains(" AC "));
    let gch = the_header(&f);
    let mode = std::fs::metadata(&gch).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o444, "the header is read-only");
    // Replaced by one that defines a marker too (the same flags, built
    // from the same system header): a program that needs the marker
    // compiles only if the judge's compilation used that file.
    let header = covered(&gch).join("stdc++.h");
    let marker = f.write("marker.h", "#define JUDGE_PCH_MARKER 1\n");
    let built = gch.with_extension("new");
    let status = std::process::Command::new("g++")
        .args(["-O2", "-std=c++17", "-include"])
        .arg(&marker)
        .args(["-x", "c++-header"])
        .arg(&header)
        .arg("-o")
        .arg(&built)
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::rename(&built, &gch).unwrap();
    let needs = f.write(
        "needs.cpp",
        &accepted(
            "",
            "#ifndef JUDGE_PCH_MARKER\n#error compiled without the precompiled header\n#endif",
        ),
    );
    let line = verdict(&f, &needs, true);
    assert!(line.contains(" AC "), "{line}");
    // Turned off, the same program is compiled from the system's header.
    let again = f.write(
        "again.cpp",
        &format!("{}// again\n", std::fs::read_to_string(&needs).unwrap()),
    );
    assert!(compile_error(&f, &again, false).contains("compiled without the precompiled header"));
}

#[test]
fn a_compile_error_reads_the_same_with_the_precompiled_header_or_without() {
    if !have("g++") {
        return;
    }
    let f = Class::new();
    // Errors inside the library's templates (with their include chains)
    // and in the program; then a macro the header uses, defined first:
    // GCC does not use the precompiled header there, and says nothing.
    let broken = [
        "// a comment\n#include <bits/stdc++.h>\nusing namespace std;\nint main() {\n  vector<int> v; v.push_back(\"x\");\n  map<int, int> m; sort(m.begin(), m.end());\n  undefined_thing = 1;\n}\n",
        "#define _GLIBCXX_DEBUG 1\n#include <bits/stdc++.h>\nusing namespace std;\nint main() { vector<int> v; v.push_back(\"x\"); }\n",
        // The first include in a comment; the line numbers moved.
        "/*\n#include <bits/stdc++.h>\n*/\n#include <bits/stdc++.h>\nint main() { std::vector<int> v; v.push_back(\"x\"); }\n",
        "#line 70 \"mine.cpp\"\n#include <bits/stdc++.h>\nint main() { std::vector<int> v; v.push_back(\"x\"); }\n",
        // What the judge's files are called, probed or included.
        "#include <bits/stdc++.h>\n#include <source>\nint main() {}\n",
        "#include <bits/stdc++.h>\n#include <bits/../built-from>\nint main() {}\n",
        "#include <bits/stdc++.h>\n#include <bits/stdc++.h.gch>\nint main() {}\n",
        "#include <bits/stdc++.h>\n#include <bits/stdc++.h.gch/>\nint main() {}\n",
    ];
    for (i, code) in broken.iter().enumerate() {
        let with = compile_error(&f, &f.write(&format!("broken{i}.cpp"), code), true);
        assert!(!headers(&f).is_empty(), "the header was built");
        let without = compile_error(&f, &f.write(&format!("broken{i}_.cpp"), code), false);
        assert_eq!(
            with.replace(&format!("broken{i}.cpp"), "SOURCE"),
            without.replace(&format!("broken{i}_.cpp"), "SOURCE")
        );
        assert!(
            code.contains(".gch") || !with.contains("pch") && !with.contains(".gch"),
            "{with}"
        );
        assert!(!with.contains(&f.cache.path().display().to_string()), "{with}");
    }
}

#[test]
fn a_program_cannot_write_the_precompiled_header() {
    if !have("g++") {
        return;
    }
    let f = Class::new();
    assert!(verdict(&f, &f.write("first.cpp", &accepted("", "")), true).contains(" AC "));
    let gch = the_header(&f);
    let before = std::fs::read(&gch).unwrap();
    // The program knows where the header lies (beside the system's, in
    // the compilation), and tries to change it, replace it and add a file
    // beside it, there and in the cache; it exits 1 if any worked.
    let dir = covered(&gch).display().to_string();
    let name = gch.file_name().unwrap().to_string_lossy().into_owned();
    let attack = format!(
        "static bool tries() {{\n  const char *gch = \"{dir}/stdc++.h.gch/{name}\";\n  bool any = false;\n  if (FILE *w = std::fopen(gch, \"r+\")) {{ std::fputs(\"x\", w); std::fclose(w); any = true; }}\n  if (std::remove(gch) == 0) any = true;\n  if (FILE *n = std::fopen(\"{dir}/evil.h.gch\", \"w\")) {{ std::fclose(n); any = true; }}\n  if (FILE *n = std::fopen(\"{dir}/stdc++.h.gch/evil.gch\", \"w\")) {{ std::fclose(n); any = true; }}\n  return any;\n}}\nstatic bool wrote = tries();\nstatic int stop = wrote ? (std::exit(1), 0) : 0;"
    );
    assert!(verdict(&f, &f.write("attack.cpp", &accepted("", &attack)), true).contains(" AC "));
    assert_eq!(std::fs::read(&gch).unwrap(), before, "the header changed");
    assert!(!Path::new(&dir).join("evil.h.gch").exists());
    let cached = gch.ancestors().nth(2).unwrap().display().to_string();
    let attack = attack.replace(&dir, &cached);
    assert!(verdict(&f, &f.write("attack2.cpp", &accepted("", &attack)), true).contains(" AC "));
    assert_eq!(std::fs::read(&gch).unwrap(), before, "the header changed");
}

#[test]
fn a_languages_toml_with_other_flags_gets_a_header_built_for_them_or_none() {
    if !have("g++") {
        return;
    }
    let f = Class::new();
    let languages = |compile: &str| {
        let toml = format!(
            "[[language]]\nname = \"cpp\"\nextensions = [\"cpp\"]\ncompile = [{compile}]\nrun = [\"{{exe}}\"]\n"
        );
        std::fs::write(f.f.package().join("languages.toml"), toml).unwrap();
    };
    // A flag that may change which header is found: none built.
    languages("\"g++\", \"-O2\", \"-I\", \"/nonexistent\", \"-o\", \"{exe}\", \"{src}\"");
    assert!(verdict(&f, &f.write("a.cpp", &accepted("", "")), true).contains(" AC "));
    assert_eq!(headers(&f), Vec::<PathBuf>::new());
    // Other flags: a header for them, which the program fits (a C++14
    // program defining what the command says).
    languages("\"g++\", \"-O1\", \"-std=c++14\", \"-DONLINE_JUDGE\", \"-o\", \"{exe}\", \"{src}\", \"-lm\"");
    let fits = "#if __cplusplus != 201402L || !defined(ONLINE_JUDGE)\n#error not the command's flags\n#endif";
    assert!(verdict(&f, &f.write("b.cpp", &accepted("", fits)), true).contains(" AC "));
    the_header(&f);
}

#[test]
fn a_program_probing_for_the_judges_files_compiles_as_without_the_precompiled_header() {
    if !have("g++") {
        return;
    }
    let f = Class::new();
    // What a program can name, and whether it is there: the same with a
    // precompiled header and without (the folder `stdc++.h.gch/` is in
    // both, its one file's name random); the program is accepted only if
    // each probe says what is written here.
    let probes = [
        ("<source>", false),
        ("\"source\"", false),
        ("<bits/../source>", false),
        ("<built-from>", false),
        ("<bits/stdc++.h.gch>", false),
        ("<bits/stdc++.h.gch/>", false),
        ("<bits/stdc++.h.gch/stdc++.h.gch>", false),
        ("<bits/stdc++.h.gch/../stdc++.h>", true),
    ];
    let tests: String = probes
        .iter()
        .map(|(name, there)| {
            let not = if *there { "!" } else { "" };
            format!("#if {not}__has_include({name})\n#error probed {name}\n#endif\n")
        })
        .collect();
    let code = accepted("", &tests);
    // With it first: the program compiled then is in the compile cache.
    let with = verdict(&f, &f.write("probe.cpp", &code), true);
    assert!(with.contains(" AC "), "{with}");
    assert!(!headers(&f).is_empty(), "the header was built");
    let code = format!("{code}// without\n");
    let without = verdict(&f, &f.write("probe_.cpp", &code), false);
    assert!(without.contains(" AC "), "{without}");
}

#[test]
fn the_precompiled_header_has_a_name_no_program_can_guess() {
    if !have("g++") {
        return;
    }
    let names: Vec<String> = (0..2)
        .map(|_| {
            let f = Class::new();
            assert!(verdict(&f, &f.write("a.cpp", &accepted("", "")), true).contains(" AC "));
            let gch = the_header(&f);
            gch.file_name().unwrap().to_string_lossy().into_owned()
        })
        .collect();
    for name in &names {
        let hex = name.strip_suffix(".gch").unwrap();
        assert_eq!(hex.len(), 32, "{name}: 128 bits");
        assert!(hex.chars().all(|c| c.is_ascii_hexdigit()), "{name}");
    }
    assert_ne!(names[0], names[1], "each build draws its own name");
}

/// A compiler `g++` in a folder of its own (out of `/tmp`) that runs the
/// system's with `-isystem <tree>/include` first: its `bits/stdc++.h`
/// (which includes `bits/mayan_version.h`, defining `MAYAN_VERSION` as 1)
/// is the one precompiled, and a test may change it as a library upgrade
/// would, with no change to `/usr/include`.
fn compiler_with_its_own_header() -> tempfile::TempDir {
    let tree = tempfile::Builder::new()
        .prefix("compile-test-gxx-")
        .tempdir_in(cache_base())
        .unwrap();
    let root = tree.path();
    std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::create_dir_all(root.join("bin")).unwrap();
    std::fs::create_dir_all(root.join("include/bits")).unwrap();
    let gxx = root.join("bin/g++");
    let script = format!(
        "#!/bin/sh\nexec /usr/bin/g++ -isystem {}/include \"$@\"\n",
        root.display()
    );
    std::fs::write(&gxx, script).unwrap();
    std::fs::set_permissions(&gxx, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(
        root.join("include/bits/stdc++.h"),
        "#include <cstdio>\n#include <bits/mayan_version.h>\n",
    )
    .unwrap();
    std::fs::write(
        root.join("include/bits/mayan_version.h"),
        "#define MAYAN_VERSION 1\n",
    )
    .unwrap();
    tree
}

/// The fixture's package compiles C++ with the `g++` of `tree`
/// ([`compiler_with_its_own_header`]).
fn compile_with(f: &Class, tree: &tempfile::TempDir) {
    let toml = format!(
        "[[language]]\nname = \"cpp\"\nextensions = [\"cpp\"]\ncompile = [\"{}/bin/g++\", \"-O2\", \"-o\", \"{{exe}}\", \"{{src}}\"]\nrun = [\"{{exe}}\"]\n",
        tree.path().display()
    );
    std::fs::write(f.f.package().join("languages.toml"), toml).unwrap();
}

#[test]
fn a_header_file_changed_in_place_is_seen_by_the_next_compilation() {
    if !have("g++") || !Path::new("/usr/bin/g++").exists() {
        return;
    }
    let f = Class::new();
    let tree = compiler_with_its_own_header();
    compile_with(&f, &tree);
    let version = |v: u32| {
        accepted(
            "",
            &format!("#if MAYAN_VERSION != {v}\n#error not version {v}\n#endif"),
        )
    };
    // Given time to settle (a header changed while it is built is not kept).
    std::thread::sleep(std::time::Duration::from_millis(300));
    let line = verdict(&f, &f.write("one.cpp", &version(1)), true);
    assert!(line.contains(" AC "), "{line}");
    let gch = the_header(&f);
    // Upgraded in place: a file the header includes, not the header; the
    // same size, its old time given back.
    let included = tree.path().join("include/bits/mayan_version.h");
    let modified = std::fs::metadata(&included).unwrap().modified().unwrap();
    std::fs::write(&included, "#define MAYAN_VERSION 2\n").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&included)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let line = verdict(&f, &f.write("two.cpp", &version(2)), true);
    assert!(line.contains(" AC "), "the old header was used: {line}");
    let rebuilt = the_header(&f);
    assert_ne!(rebuilt, gch, "built again, into a folder of its own");
    assert_eq!(covered(&rebuilt), tree.path().join("include/bits"));
}

#[test]
fn build_folders_a_killed_judge_left_are_removed_at_the_next_start() {
    if !have("g++") {
        return;
    }
    let f = Class::new();
    let left = f.cache.path().join("pch-build-Xy12ab");
    // And a header an earlier judge kept (its folder went on the include path).
    let earlier = f.cache.path().join("pch-0123456789abcdef0123456789abcdef");
    for dir in [&left, &earlier] {
        std::fs::create_dir_all(dir.join("bits")).unwrap();
        std::fs::write(dir.join("bits/stdc++.h.gch"), vec![0u8; 4096]).unwrap();
    }
    assert!(verdict(&f, &f.write("a.cpp", &accepted("", "")), true).contains(" AC "));
    assert!(!left.exists(), "the leftover build folder is still there");
    assert!(!earlier.exists(), "the earlier judge's header is still there");
    the_header(&f);
}
