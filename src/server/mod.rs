//! The online judge (`mayan-judge serve`): contestants submit programs from a browser and see their verdicts and the ranking.

pub mod contest;
