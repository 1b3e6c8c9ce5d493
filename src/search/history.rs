//! Move-ordering statistics a searcher learns as it goes: butterfly history, capture history,
//! continuation history (indexed by the moves one and two plies back) and counter moves.
//! Every table saturates by "gravity": an update of `b` moves an entry `h` by
//! `b - h * |b| / HISTORY_MAX`, so entries stay within `+-HISTORY_MAX`.

use super::params::{HIST_MAX, HIST_MULT, HIST_SUB};
use crate::chess::{Bitboard, Board, Move, PieceType};

pub const HISTORY_MAX: i32 = 16_384;

/// A (piece, target square) pair, `piece * 64 + to`, as continuation history indexes it; a
/// null move or the root's missing predecessor is `PieceTo::NONE`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PieceTo(u16);

impl PieceTo {
    pub const NONE: PieceTo = PieceTo(12 * 64);

    #[inline]
    pub fn of(board: &Board, mv: Move) -> PieceTo {
        PieceTo((board.piece_on(mv.from()).index() * 64 + mv.to().index()) as u16)
    }

    #[inline]
    fn index(self) -> usize {
        self.0 as usize
    }
}

/// One continuation-history table: `[previous piece-to][current piece-to]`; the extra row for
/// `PieceTo::NONE` is read (as zeros) but never written.
type ContTable = [[i16; 12 * 64]; 12 * 64 + 1];

/// One side's butterfly tables: `[from attacked][to attacked][from][to]`.
type Butterfly = [[[[i32; 64]; 64]; 2]; 2];

pub struct Histories {
    /// `[side][from attacked][to attacked][from][to]`: the butterfly table split by whether
    /// the enemy attacks the move's origin and target ("threat history": moving a piece out
    /// of an attack and into one are different moves to learn about).
    butterfly: Box<[Butterfly; 2]>,
    /// `[moving piece][to][captured piece type]`.
    capture: Box<[[[i32; 6]; 64]; 12]>,
    /// Continuation history for the move 1 ply back (`cont[0]`) and 2 plies back (`cont[1]`).
    cont: [Box<ContTable>; 2],
    /// `[previous piece-to]`: the quiet move that last refuted it.
    counter: Box<[Move; 12 * 64 + 1]>,
}

#[inline]
fn gravity(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

#[inline]
fn gravity16(h: &mut i16, bonus: i32) {
    let mut v = *h as i32;
    gravity(&mut v, bonus);
    *h = v as i16;
}

/// The history bonus for a move that caused a cut at `depth`.
#[inline]
pub fn stat_bonus(depth: i32) -> i32 {
    (HIST_MULT.get() * depth - HIST_SUB.get()).clamp(0, HIST_MAX.get())
}

/// A quiet move's place in the butterfly tables: side to move, whether the enemy attacks its
/// origin and its target, origin, target.
#[inline]
fn butterfly_index(board: &Board, mv: Move, threats: Bitboard) -> [usize; 5] {
    let (from, to) = (mv.from(), mv.to());
    [
        board.side_to_move().index(),
        threats.contains(from) as usize,
        threats.contains(to) as usize,
        from.index(),
        to.index(),
    ]
}

/// The captured piece type of a capture (a pawn for en passant), or `None`.
#[inline]
pub fn captured(board: &Board, mv: Move) -> Option<PieceType> {
    if mv.is_en_passant() {
        return Some(PieceType::Pawn);
    }
    if mv.is_castle() {
        return None;
    }
    let p = board.piece_on(mv.to());
    (!p.is_none()).then(|| p.piece_type())
}

impl Histories {
    pub fn new() -> Histories {
        let zero_cont = || -> Box<ContTable> {
            // Built on the heap directly: the table is 1.2 MB.
            let v: Vec<[i16; 12 * 64]> = vec![[0; 12 * 64]; 12 * 64 + 1];
            v.into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("length is fixed above"))
        };
        Histories {
            butterfly: Box::new([[[[[0; 64]; 64]; 2]; 2]; 2]),
            capture: Box::new([[[0; 6]; 64]; 12]),
            cont: [zero_cont(), zero_cont()],
            counter: Box::new([Move::NONE; 12 * 64 + 1]),
        }
    }

    pub fn clear(&mut self) {
        *self = Histories::new();
    }

    /// Ordering score of a quiet move: butterfly plus both continuation histories. `threats`
    /// are the squares the side not to move attacks (`Board::attacks_by`).
    #[inline]
    pub fn quiet(&self, board: &Board, mv: Move, prev: [PieceTo; 2], threats: Bitboard) -> i32 {
        let pt = PieceTo::of(board, mv).index();
        *self.butterfly_entry(board, mv, threats)
            + self.cont[0][prev[0].index()][pt] as i32
            + self.cont[1][prev[1].index()][pt] as i32
    }

    /// Capture-history score of a capture (or promotion).
    #[inline]
    pub fn capture(&self, board: &Board, mv: Move) -> i32 {
        let victim = captured(board, mv).map_or(0, |p| p.index());
        self.capture[board.piece_on(mv.from()).index()][mv.to().index()][victim]
    }

    #[inline]
    pub fn counter(&self, prev: PieceTo) -> Move {
        self.counter[prev.index()]
    }

    /// `mv`, a quiet move, refuted the node: reward it, punish the quiets tried before it.
    pub fn update_quiets(
        &mut self,
        board: &Board,
        mv: Move,
        tried: &[Move],
        prev: [PieceTo; 2],
        threats: Bitboard,
        bonus: i32,
    ) {
        self.update_quiet(board, mv, prev, threats, bonus);
        for &q in tried {
            self.update_quiet(board, q, prev, threats, -bonus);
        }
        if prev[0] != PieceTo::NONE {
            self.counter[prev[0].index()] = mv;
        }
    }

    #[inline]
    fn butterfly_entry(&self, board: &Board, mv: Move, threats: Bitboard) -> &i32 {
        let [side, fa, ta, from, to] = butterfly_index(board, mv, threats);
        &self.butterfly[side][fa][ta][from][to]
    }

    fn update_quiet(
        &mut self,
        board: &Board,
        mv: Move,
        prev: [PieceTo; 2],
        threats: Bitboard,
        bonus: i32,
    ) {
        let [side, fa, ta, from, to] = butterfly_index(board, mv, threats);
        gravity(&mut self.butterfly[side][fa][ta][from][to], bonus);
        let pt = PieceTo::of(board, mv).index();
        for (table, p) in self.cont.iter_mut().zip(prev) {
            if p != PieceTo::NONE {
                gravity16(&mut table[p.index()][pt], bonus);
            }
        }
    }

    /// Adds `bonus` (negative for a malus) to a capture's history.
    pub fn update_capture(&mut self, board: &Board, mv: Move, bonus: i32) {
        let victim = captured(board, mv).map_or(0, |p| p.index());
        gravity(
            &mut self.capture[board.piece_on(mv.from()).index()][mv.to().index()][victim],
            bonus,
        );
    }
}

impl Default for Histories {
    fn default() -> Self {
        Histories::new()
    }
}
