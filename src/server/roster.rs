//! Contestants in: what reading the contest's contestants (its CSV or
//! `[[contestant]]` tables) again changes in the database, as a plan that is
//! shown first (the teacher's page, `serve --dry-run`) and then applied (at
//! start, or by the teacher's page while the contest runs). A name that is
//! new is added; a display name given and different is updated; a password
//! given and different replaces the stored one. Nobody is ever removed: a
//! contestant no longer in the file is listed as kept.

use super::auth;
use super::contest::ContestantEntry;
use super::db::User;
use crate::i18n::{Arg, Locale};
use std::fmt;

/// What reading the contestants again changes.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// New contestants (the password in the entry: given, or generated).
    pub add: Vec<ContestantEntry>,
    /// Display names that change: the user, the name shown now, the new one.
    pub display: Vec<(User, String)>,
    /// Passwords that change (given in the file, not the stored one): the
    /// user and the new password.
    pub password: Vec<(User, String)>,
    /// In the database, no longer in the file: kept as they are.
    pub kept: Vec<User>,
}

impl Plan {
    /// What `wanted` (the contest's contestants) changes in `existing` (the
    /// database's users with their password hashes, none where the teacher
    /// reset it: the file's password then changes nothing; the teacher's
    /// account is not a contestant and is left out).
    pub fn of(wanted: &[ContestantEntry], existing: &[(User, Option<String>)]) -> Plan {
        let mut plan = Plan::default();
        for entry in wanted {
            let found = existing
                .iter()
                .find(|(u, _)| !u.is_admin && u.name.eq_ignore_ascii_case(&entry.name));
            let Some((user, hash)) = found else {
                plan.add.push(entry.clone());
                continue;
            };
            if let Some(display) = &entry.display
                && *display != user.display
            {
                plan.display.push((user.clone(), display.clone()));
            }
            if let Some(hash) = hash
                && !entry.generated
                && !auth::verify_password(&entry.password, hash)
            {
                plan.password.push((user.clone(), entry.password.clone()));
            }
        }
        plan.kept = existing
            .iter()
            .map(|(u, _)| u)
            .filter(|u| !u.is_admin && !wanted.iter().any(|e| e.name.eq_ignore_ascii_case(&u.name)))
            .cloned()
            .collect();
        plan
    }

    /// Whether applying it changes nothing.
    pub fn is_empty(&self) -> bool {
        self.add.is_empty() && self.display.is_empty() && self.password.is_empty()
    }
}

impl Plan {
    /// The plan in words, one change a line (passwords never shown):
    /// `add carol`, `add dave (password generated)`, `alice: display name
    /// "a" -> "b"`, `bob: new password`, `keep erin (no longer in the
    /// file)`; in Chinese `添加 zhaoliu（赵六）（密码已生成）`, ...
    pub fn in_words(&self, l: Locale) -> String {
        let say = |id: &str, args: &[(&str, &str)]| {
            let args: Vec<(&str, Arg)> = args.iter().map(|(k, v)| (*k, Arg::from(v.to_string()))).collect();
            l.text(id, &args) + "\n"
        };
        let mut out = String::new();
        for e in &self.add {
            let generated = if e.generated {
                l.t("roster-generated")
            } else {
                String::new()
            };
            out += &match &e.display {
                Some(d) => say(
                    "roster-add-as",
                    &[("name", &e.name), ("display", d), ("generated", &generated)],
                ),
                None => say("roster-add", &[("name", &e.name), ("generated", &generated)]),
            };
        }
        for (u, new) in &self.display {
            out += &say(
                "roster-display",
                &[("name", &u.name), ("old", &u.display), ("new", new)],
            );
        }
        for (u, _) in &self.password {
            out += &say("roster-password", &[("name", &u.name)]);
        }
        for u in &self.kept {
            out += &say("roster-keep", &[("name", &u.name)]);
        }
        if self.is_empty() {
            out += &say("roster-no-change", &[]);
        }
        out
    }
}

/// The plan in English words ([`Plan::in_words`]).
impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.in_words(Locale::english()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: i64, name: &str, display: &str) -> User {
        User {
            id,
            name: name.into(),
            display: display.into(),
            is_admin: false,
            disqualified: false,
        }
    }

    fn entry(name: &str, password: Option<&str>, display: Option<&str>) -> ContestantEntry {
        ContestantEntry {
            name: name.into(),
            display: display.map(String::from),
            password: password.unwrap_or("generated-pw").into(),
            generated: password.is_none(),
        }
    }

    #[test]
    fn new_names_are_added_changes_listed_and_nobody_dropped() {
        // A cheap hash is enough for the test: argon2's parameters are in it.
        let hash = auth::hash_password("alice-pw");
        let mut admin = user(1, "admin", "admin");
        admin.is_admin = true;
        let existing = vec![
            (admin, Some(hash.clone())),
            (user(2, "alice", "alice"), Some(hash.clone())),
            (user(3, "bob", "Bob"), Some(hash.clone())),
            (user(4, "erin", "erin"), Some(hash)),
        ];
        let wanted = vec![
            entry("Alice", Some("alice-pw"), Some("Alice Liddell")),
            entry("bob", Some("changed"), None),
            entry("carol", None, Some("Carol")),
        ];
        let plan = Plan::of(&wanted, &existing);
        assert_eq!(
            plan.add.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(),
            ["carol"]
        );
        assert_eq!(plan.display.len(), 1);
        assert_eq!(plan.display[0].0.name, "alice");
        assert_eq!(plan.password.len(), 1);
        assert_eq!(plan.password[0].0.name, "bob");
        assert_eq!(
            plan.kept.iter().map(|u| u.name.as_str()).collect::<Vec<_>>(),
            ["erin"]
        );
        let text = plan.to_string();
        assert_eq!(
            text,
            "add carol as \"Carol\" (password generated)\n\
             alice: display name \"alice\" -> \"Alice Liddell\"\n\
             bob: new password (from the file)\n\
             keep erin (no longer in the file: nobody is removed; disqualify to take out of the ranking)\n"
        );
        assert!(!text.contains("changed"), "a password shown: {text}");
    }

    #[test]
    fn a_chinese_teacher_reads_the_plan_in_chinese() {
        let existing = vec![(user(2, "lisi", "李四"), None), (user(3, "erin", "erin"), None)];
        let wanted = vec![
            entry("zhaoliu", None, Some("赵六")),
            entry("lisi", None, Some("李小四")),
        ];
        let plan = Plan::of(&wanted, &existing);
        let zh = Locale::parse("zh-CN").unwrap();
        assert_eq!(
            plan.in_words(zh),
            "添加 zhaoliu（赵六）（密码已生成）\n\
             lisi：显示名“李四”改为“李小四”\n\
             保留 erin（已不在文件中：不会删除任何人；如需从排名中去掉，请取消其资格）\n"
        );
        assert_eq!(Plan::default().in_words(zh), "选手名单没有变化\n");
    }

    #[test]
    fn the_same_contestants_change_nothing() {
        let hash = auth::hash_password("pw");
        let existing = vec![(user(2, "alice", "Alice"), Some(hash))];
        let plan = Plan::of(&[entry("alice", Some("pw"), Some("Alice"))], &existing);
        assert!(plan.is_empty());
        assert_eq!(plan.to_string(), "no change to the contestants\n");
        // A generated password is never "changed" (it is not the stored one).
        let plan = Plan::of(&[entry("alice", None, None)], &plan_users());
        assert!(plan.is_empty(), "{plan}");
    }

    fn plan_users() -> Vec<(User, Option<String>)> {
        vec![(user(2, "alice", "alice"), Some(auth::hash_password("pw")))]
    }
}
