//! Lazuli: a UCI chess engine.
// Nothing that came from outside may be unwrapped; tests may.
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod chess;
pub mod eval;
pub mod search;
pub mod tb;
pub mod threads;
pub mod time;
pub mod tools;
pub mod tt;
pub mod uci;
