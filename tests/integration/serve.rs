//! `mayan-judge serve`, driven over HTTP as browsers and scripts use it:
//! a contestant signs in, submits, and the judged result shows on their
//! pages, in the API and in the ranking.

use crate::serve_util::{Server, accepted_c, submission_number};

#[test]
fn a_contestant_submits_through_the_form_and_the_verdict_reaches_the_ranking() {
    let server = Server::start(&["alice", "bob"], "", &["--trusted"]);
    let alice = server.contestant("alice");
    let page = alice.submit("mayan.c", &accepted_c());
    assert_eq!(page.status, 303, "{}", page.body);
    let id = submission_number(&page);
    let mut api = server.client();
    api.api_sign_in("alice", "alice-pw");
    let judged = api.wait_judged(id, 240);
    assert_eq!(judged["verdict"], "AC", "{judged}");
    assert_eq!(judged["score"], judged["max_score"]);
    let ranking = alice.get("/ranking").body;
    let first_row = ranking.split("<tbody>").nth(1).unwrap();
    assert!(
        first_row.trim_start().starts_with("<tr><td>1</td><td>alice</td>"),
        "{ranking}"
    );
}
