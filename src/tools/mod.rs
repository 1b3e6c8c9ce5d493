//! Tools around the engine rather than the engine itself: commands a person or a testing
//! framework runs (the rest of them move here with the command-line rewrite).

pub mod plot;
pub mod speedtest;
