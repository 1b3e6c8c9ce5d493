//! Legal move generation: check and pin aware, so every generated move is legal.
//!
//! Three modes serve a staged move picker: [`ALL`], [`CAPTURES`] (captures, en passant and every
//! promotion, also quiet ones) and [`QUIETS`] (everything else, castling included). The two
//! partial modes are disjoint and together give exactly the moves of [`ALL`].

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use super::bitboard::Bitboard;
use super::board::{Board, castle_index};
use super::types::{Color, Move, PieceType, Square};

pub const ALL: u8 = 0;
pub const CAPTURES: u8 = 1;
pub const QUIETS: u8 = 2;

/// The most legal moves any chess position has is 218.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves (no allocation).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NONE; MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `len` moves (no effect when there are not more).
    #[inline(always)]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves, mutable (a move picker reorders them in place).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

/// Writes moves into a [`MoveList`] while keeping the length in a local (a register), rather
/// than loading and storing the list's length field on every push; the profile showed that
/// load/store chain as the hottest instructions of generation.
struct Cursor<'a> {
    moves: &'a mut [Move; MAX_MOVES],
    len: usize,
}

impl<'a> Cursor<'a> {
    #[inline(always)]
    fn new(list: &'a mut MoveList) -> Cursor<'a> {
        Cursor {
            len: list.len,
            moves: &mut list.moves,
        }
    }

    #[inline(always)]
    fn push(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = m;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl Board {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        generate::<ALL>(self, &mut list);
        list
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && !self.has_legal_move()
    }
}

/// Appends the legal moves of kind `MODE` ([`ALL`], [`CAPTURES`] or [`QUIETS`]) to `list`.
#[inline]
pub fn generate<const MODE: u8>(b: &Board, list: &mut MoveList) {
    let mut out = Cursor::new(list);
    generate_into::<MODE>(b, &mut out);
    list.len = out.len;
}

#[inline(always)]
fn generate_into<const MODE: u8>(b: &Board, list: &mut Cursor) {
    let us = b.side_to_move();
    let them = us.flip();
    let occ = b.occupied();
    let ours = b.color(us);
    let theirs = b.color(them);
    let ksq = b.king(us);
    let checkers = b.checkers();

    let wanted = match MODE {
        CAPTURES => theirs,
        QUIETS => !occ,
        _ => !ours,
    };

    // King steps: the destination must not be attacked once the king has left its square
    // (a slider's ray through the king's old square continues behind it).
    let occ_without_king = occ.without(ksq);
    for to in king_attacks(ksq) & wanted {
        if !b.is_attacked_by(to, them, occ_without_king) {
            list.push(Move::normal(ksq, to));
        }
    }
    if checkers.several() {
        return;
    }

    // Non-king moves must capture the checker or block the check.
    let check_mask = if checkers.any() {
        between(ksq, checkers.lsb()) | checkers
    } else {
        Bitboard::ALL
    };
    let target = wanted & check_mask;
    // In check, a pinned piece can never help: it may only move along its pin line, which
    // crosses the checking line only at the king.
    let pinned = b.pinned();
    let movable = if checkers.any() { ours & !pinned } else { ours };

    pawn_moves::<MODE>(b, list, us, movable, check_mask, ksq);

    for from in b.pieces(PieceType::Knight) & ours & !pinned {
        for to in knight_attacks(from) & target {
            list.push(Move::normal(from, to));
        }
    }
    let diagonal = (b.pieces(PieceType::Bishop) | b.pieces(PieceType::Queen)) & movable;
    for from in diagonal {
        let mut att = bishop_attacks(from, occ) & target;
        if pinned.contains(from) {
            att &= line(ksq, from);
        }
        for to in att {
            list.push(Move::normal(from, to));
        }
    }
    let straight = (b.pieces(PieceType::Rook) | b.pieces(PieceType::Queen)) & movable;
    for from in straight {
        let mut att = rook_attacks(from, occ) & target;
        if pinned.contains(from) {
            att &= line(ksq, from);
        }
        for to in att {
            list.push(Move::normal(from, to));
        }
    }

    if MODE != CAPTURES && checkers.is_empty() && b.castling_rights() != 0 {
        castling_moves(b, list, us, ksq);
    }
}

#[inline(always)]
fn push_promotions(list: &mut Cursor, from: Square, to: Square) {
    list.push(Move::promotion(from, to, PieceType::Queen));
    list.push(Move::promotion(from, to, PieceType::Knight));
    list.push(Move::promotion(from, to, PieceType::Rook));
    list.push(Move::promotion(from, to, PieceType::Bishop));
}

/// Shifts a set of pawns one step forward (towards the enemy) for `us`.
#[inline(always)]
fn forward(bb: Bitboard, us: Color) -> Bitboard {
    match us {
        Color::White => bb.north(),
        Color::Black => bb.south(),
    }
}

/// Forward-diagonal shifts towards the a-file and towards the h-file.
#[inline(always)]
fn forward_west(bb: Bitboard, us: Color) -> Bitboard {
    let bb = bb & !Bitboard::FILE_A;
    match us {
        Color::White => Bitboard(bb.0 << 7),
        Color::Black => Bitboard(bb.0 >> 9),
    }
}

#[inline(always)]
fn forward_east(bb: Bitboard, us: Color) -> Bitboard {
    let bb = bb & !Bitboard::FILE_H;
    match us {
        Color::White => Bitboard(bb.0 << 9),
        Color::Black => Bitboard(bb.0 >> 7),
    }
}

#[inline(always)]
fn pawn_moves<const MODE: u8>(
    b: &Board,
    list: &mut Cursor,
    us: Color,
    movable: Bitboard,
    check_mask: Bitboard,
    ksq: Square,
) {
    let them = us.flip();
    let (up, west, east): (i8, i8, i8) = match us {
        Color::White => (8, 7, 9),
        Color::Black => (-8, -9, -7),
    };
    let rank7 = Bitboard::rank(if us == Color::White { 6 } else { 1 });
    let rank3 = Bitboard::rank(if us == Color::White { 2 } else { 5 });
    let empty = !b.occupied();
    let theirs = b.color(them);
    let pawns = b.pieces_of(us, PieceType::Pawn) & movable;
    let pinned = b.pinned();
    let free = pawns & !pinned;

    // Unpinned pawns, all at once.
    let normal = free & !rank7;
    if MODE != CAPTURES {
        let single = forward(normal, us) & empty;
        let double = forward(single & rank3, us) & empty & check_mask;
        for to in single & check_mask {
            list.push(Move::normal(to.offset(-up), to));
        }
        for to in double {
            list.push(Move::normal(to.offset(-2 * up), to));
        }
    }
    if MODE != QUIETS {
        for to in forward_west(normal, us) & theirs & check_mask {
            list.push(Move::normal(to.offset(-west), to));
        }
        for to in forward_east(normal, us) & theirs & check_mask {
            list.push(Move::normal(to.offset(-east), to));
        }
        let promoting = free & rank7;
        if promoting.any() {
            for to in forward(promoting, us) & empty & check_mask {
                push_promotions(list, to.offset(-up), to);
            }
            for to in forward_west(promoting, us) & theirs & check_mask {
                push_promotions(list, to.offset(-west), to);
            }
            for to in forward_east(promoting, us) & theirs & check_mask {
                push_promotions(list, to.offset(-east), to);
            }
        }
    }

    // Pinned pawns (never when in check, `movable` excludes them then): along the pin line only.
    for from in pawns & pinned {
        let allowed = line(ksq, from);
        let promo = rank7.contains(from);
        let push_to = forward(Bitboard::from_square(from), us) & empty & allowed;
        if promo {
            if MODE != QUIETS {
                for to in push_to | (pawn_attacks(us, from) & theirs & allowed) {
                    push_promotions(list, from, to);
                }
            }
            continue;
        }
        if MODE != CAPTURES {
            for to in push_to {
                list.push(Move::normal(from, to));
            }
            for to in forward(push_to & rank3, us) & empty {
                list.push(Move::normal(from, to));
            }
        }
        if MODE != QUIETS {
            for to in pawn_attacks(us, from) & theirs & allowed {
                list.push(Move::normal(from, to));
            }
        }
    }

    if MODE != QUIETS
        && let Some(ep) = b.ep_square()
    {
        for from in pawn_attacks(them, ep) & b.pieces_of(us, PieceType::Pawn) {
            if b.ep_is_legal(from, ep) {
                list.push(Move::en_passant(from, ep));
            }
        }
    }
}

fn castling_moves(b: &Board, list: &mut Cursor, us: Color, ksq: Square) {
    let them = us.flip();
    let occ = b.occupied();
    let back = us.back_rank();
    for king_side in [true, false] {
        let Some(rook) = b.castle_rook(castle_index(us, king_side)) else {
            continue;
        };
        let king_to = Square::from_file_rank(if king_side { 6 } else { 2 }, back);
        let rook_to = Square::from_file_rank(if king_side { 5 } else { 3 }, back);
        let king_path = between(ksq, king_to) | Bitboard::from_square(king_to);
        let rook_path = between(rook, rook_to) | Bitboard::from_square(rook_to);
        let must_be_empty = (king_path | rook_path).without(ksq).without(rook);
        if (must_be_empty & occ).any() {
            continue;
        }
        // The king may not pass through or land on an attacked square. With the castling rook
        // pinned (Chess960: it shields the king's rank from a slider), castling is illegal too.
        if b.pinned().contains(rook) {
            continue;
        }
        if Iterator::any(&mut { king_path }, |sq| b.is_attacked_by(sq, them, occ)) {
            continue;
        }
        list.push(Move::castle(ksq, rook));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen::STARTPOS;

    fn count(fen: &str) -> usize {
        Board::from_fen(fen, false).unwrap().legal_moves().len()
    }

    #[test]
    fn start_position_has_twenty_moves() {
        assert_eq!(count(STARTPOS), 20);
    }

    #[test]
    fn partial_modes_split_all_moves() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let b = Board::from_fen(fen, false).unwrap();
        let (mut caps, mut quiets) = (MoveList::new(), MoveList::new());
        generate::<CAPTURES>(&b, &mut caps);
        generate::<QUIETS>(&b, &mut quiets);
        let all = b.legal_moves();
        assert_eq!(caps.len() + quiets.len(), all.len());
        for m in caps.iter().chain(quiets.iter()) {
            assert!(all.contains(*m));
        }
        assert_eq!(caps.len(), 8);
    }

    #[test]
    fn en_passant_by_a_pinned_pawn_is_refused_beside_a_legal_one() {
        // Two pawns can take on c6; the b5 pawn is pinned on the b-file by Rb8.
        let b = Board::from_fen("1r2k3/8/8/1PpP4/8/8/8/1K6 w - c6 0 2", false).unwrap();
        assert_eq!(b.ep_square(), Square::parse("c6"));
        let moves: Vec<String> = b.legal_moves().iter().map(|m| m.to_uci(false)).collect();
        assert!(moves.contains(&"d5c6".to_string()));
        assert!(!moves.contains(&"b5c6".to_string()));
    }
}
