//! Differential test against the independent move generator of the `shakmaty` crate.
//!
//! From every position of the perft suites and the valid edge cases, seeded random playouts
//! visit well over 20,000 positions. At each one: the same set of legal moves, the same
//! check / checkmate / stalemate / insufficient-material status, the same FEN fields and
//! castling rooks, the incremental Zobrist key equal to the key computed from scratch, the
//! capture and quiet generators splitting the legal moves exactly, and `gives_check` agreeing
//! with the position after the move.

mod common;

use common::{Rng, perft_suite, read_lines};
use lazuli::chess::movegen::{CAPTURES, QUIETS};
use lazuli::chess::{Board, Color, MoveList, Validation, generate};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, CastlingSide, Chess, EnPassantMode, Position, PositionError};
use std::collections::HashMap;

fn shakmaty_position(fen: &str) -> Chess {
    let parsed: Fen = fen
        .parse()
        .unwrap_or_else(|e| panic!("shakmaty cannot parse {fen}: {e}"));
    parsed
        .into_position(CastlingMode::Chess960)
        .or_else(PositionError::ignore_impossible_check)
        .unwrap_or_else(|e| panic!("shakmaty refuses {fen}: {e}"))
}

fn sm_color(c: Color) -> shakmaty::Color {
    match c {
        Color::White => shakmaty::Color::White,
        Color::Black => shakmaty::Color::Black,
    }
}

/// Compares one position in every way listed in the module comment; returns the move map.
fn compare(ours: &Board, theirs: &Chess, context: &str) -> HashMap<String, shakmaty::Move> {
    let our_moves = ours.legal_moves();
    let mut a: Vec<String> = our_moves.iter().map(|m| m.to_uci(true)).collect();
    let their_moves: HashMap<String, shakmaty::Move> = theirs
        .legal_moves()
        .into_iter()
        .map(|m| (m.to_uci(CastlingMode::Chess960).to_string(), m))
        .collect();
    let mut b: Vec<String> = their_moves.keys().cloned().collect();
    a.sort();
    b.sort();
    assert_eq!(a, b, "legal moves differ at {context}: {}", ours.to_fen());

    assert_eq!(
        ours.in_check(),
        theirs.is_check(),
        "check status at {}",
        ours.to_fen()
    );
    assert_eq!(
        ours.is_checkmate(),
        theirs.is_checkmate(),
        "mate status at {}",
        ours.to_fen()
    );
    assert_eq!(
        ours.is_stalemate(),
        theirs.is_stalemate(),
        "stalemate at {}",
        ours.to_fen()
    );
    assert_eq!(
        ours.is_insufficient_material(),
        theirs.is_insufficient_material(),
        "insufficient material at {}",
        ours.to_fen()
    );

    // FEN fields other than castling (whose letters may legitimately differ) must be equal.
    let their_fen = Fen::from_position(theirs, EnPassantMode::Legal).to_string();
    let our_fen = ours.to_fen();
    let fields = |f: &str| -> Vec<String> {
        f.split(' ')
            .enumerate()
            .filter(|&(i, _)| i != 2)
            .map(|(_, s)| s.to_string())
            .collect()
    };
    assert_eq!(
        fields(&our_fen),
        fields(&their_fen),
        "FEN differs: ours {our_fen}, theirs {their_fen}"
    );
    for (i, color, king_side) in [
        (0, Color::White, true),
        (1, Color::White, false),
        (2, Color::Black, true),
        (3, Color::Black, false),
    ] {
        let side = if king_side {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        };
        let theirs_rook = theirs
            .castles()
            .rook(sm_color(color), side)
            .map(|s| u32::from(s) as usize);
        assert_eq!(
            ours.castle_rook(i).map(|s| s.index()),
            theirs_rook,
            "castling rook {i} at {our_fen}"
        );
    }

    assert_eq!(
        ours.key(),
        ours.compute_key(),
        "incremental key differs from scratch at {our_fen}"
    );
    assert!(ours.is_consistent(), "inconsistent board at {our_fen}");

    let (mut caps, mut quiets) = (MoveList::new(), MoveList::new());
    generate::<CAPTURES>(ours, &mut caps);
    generate::<QUIETS>(ours, &mut quiets);
    let mut split: Vec<String> = caps
        .iter()
        .chain(quiets.iter())
        .map(|m| m.to_uci(true))
        .collect();
    split.sort();
    assert_eq!(split, a, "captures + quiets != all at {our_fen}");
    for m in caps.iter() {
        let captures = !ours.piece_on(m.to()).is_none() || m.is_en_passant();
        assert!(
            (captures && !m.is_castle()) || m.is_promotion(),
            "{m} is no capture at {our_fen}"
        );
    }
    for m in our_moves.iter() {
        let after = ours.make_move(*m);
        assert_eq!(
            ours.gives_check(*m),
            after.in_check(),
            "gives_check({}) at {our_fen}",
            m.to_uci(true)
        );
    }
    their_moves
}

/// Random playouts from `fen`; returns the number of positions compared.
fn playouts(fen: &str, chess960: bool, rng: &mut Rng, games: usize, plies: usize) -> usize {
    let start = Board::from_fen_with(fen, chess960, Validation::AllowImpossibleCheck)
        .unwrap_or_else(|e| panic!("we refuse {fen}: {e}"));
    let start_theirs = shakmaty_position(fen);
    let mut visited = 0;
    for game in 0..games {
        let (mut ours, mut theirs) = (start, start_theirs.clone());
        for ply in 0..plies {
            let their_moves = compare(&ours, &theirs, &format!("{fen} game {game} ply {ply}"));
            visited += 1;
            let moves = ours.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            let key = m.to_uci(true);
            ours = ours.make_move(m);
            theirs.play_unchecked(their_moves[&key]);
        }
    }
    visited
}

#[test]
fn agrees_with_shakmaty_on_random_playouts() {
    let mut rng = Rng::new(0x5EED_1234_ABCD_0001);
    let mut visited = 0;
    for line in perft_suite("perft/perftsuite.epd")
        .iter()
        .chain(&perft_suite("perft/cpw-positions.epd"))
    {
        visited += playouts(&line.fen, false, &mut rng, 4, 60);
    }
    for line in perft_suite("perft/chess960.epd") {
        visited += playouts(&line.fen, true, &mut rng, 1, 40);
    }
    for line in read_lines("epd/edge-cases.epd") {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or("").trim();
        if parts.next().is_some_and(|c| c.trim().starts_with("valid")) {
            let chess960 = line.contains("variant \"chess960\"");
            visited += playouts(fen, chess960, &mut rng, 4, 60);
        }
    }
    eprintln!("compared {visited} positions with shakmaty");
    assert!(visited >= 20_000, "only {visited} positions compared");
}

#[test]
fn transpositions_hash_equal() {
    // Same position by two move orders, and an en passant square that no pawn can use.
    let b = Board::startpos();
    let play = |b: &Board, moves: &[&str]| {
        moves
            .iter()
            .fold(*b, |b, m| b.make_move(b.parse_uci_move(m).unwrap()))
    };
    let x = play(&b, &["g1f3", "g8f6", "b1c3", "b8c6"]);
    let y = play(&b, &["b1c3", "b8c6", "g1f3", "g8f6"]);
    assert_eq!(x.key(), y.key());
    // After 1. e4 no black pawn can capture en passant: same key as the FEN without a square.
    let e4 = play(&b, &["e2e4"]);
    let plain = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert_eq!(e4.ep_square(), None);
    assert_eq!(e4.key(), Board::from_fen(plain, false).unwrap().key());
    // With a capture available the square is kept and the key differs.
    let d5 = play(&b, &["e2e4", "a7a6", "e4e5", "d7d5"]);
    assert_eq!(
        d5.ep_square().map(|s| s.to_string()),
        Some("d6".to_string())
    );
    let without = "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3";
    assert_ne!(d5.key(), Board::from_fen(without, false).unwrap().key());
    let with = "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3";
    assert_eq!(d5.key(), Board::from_fen(with, false).unwrap().key());
}
