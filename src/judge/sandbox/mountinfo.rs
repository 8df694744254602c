//! `/proc/self/mountinfo`, parsed once for every reader: the cgroup
//! detection, the host's preparation and `doctor`.

use std::path::PathBuf;

/// A parsed line of `/proc/self/mountinfo`.
#[derive(Debug)]
pub struct Mount {
    /// The mount's root within its file system (field 4).
    pub root: String,
    /// Where it is mounted (field 5).
    pub mount_point: PathBuf,
    /// The file-system type.
    pub fstype: String,
    /// The super block's options.
    pub super_opts: Vec<String>,
}

/// `mountinfo`'s escapes (`\040` for a space) decoded.
pub fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 3 < b.len() && b[i + 1..i + 4].iter().all(|c| (b'0'..=b'7').contains(c)) {
            out.push((b[i + 1] - b'0') * 64 + (b[i + 2] - b'0') * 8 + (b[i + 3] - b'0'));
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Every line of a `mountinfo` text, in mount order (a later mount at the
/// same point hides an earlier one).
pub fn parse(text: &str) -> Vec<Mount> {
    text.lines()
        .filter_map(|line| {
            let (pre, post) = line.split_once(" - ")?;
            let pre: Vec<&str> = pre.split(' ').collect();
            let post: Vec<&str> = post.split(' ').collect();
            if pre.len() < 5 || post.len() < 3 {
                return None;
            }
            Some(Mount {
                root: unescape(pre[3]),
                mount_point: PathBuf::from(unescape(pre[4])),
                fstype: post[0].to_string(),
                super_opts: post[2].split(',').map(str::to_string).collect(),
            })
        })
        .collect()
}

impl Mount {
    /// The folder of a `/proc/self/cgroup` path under this (cgroup) mount;
    /// `None` when the path lies outside the mount's root.
    pub fn dir_of(&self, path: &str) -> Option<PathBuf> {
        let rel = if self.root == "/" {
            path
        } else {
            path.strip_prefix(self.root.as_str())?
        };
        let rel = rel.trim_start_matches('/');
        Some(if rel.is_empty() {
            self.mount_point.clone()
        } else {
            self.mount_point.join(rel)
        })
    }
}
