//! Pure chess: types, bitboards, attack tables, board state, move generation, FEN, perft.
//! No threads and no I/O live here.

pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod cuckoo;
pub mod fen;
pub mod magics;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod see;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, Threats};
pub use fen::{FenError, STARTPOS, Validation};
pub use movegen::{MoveList, generate};
pub use notation::MoveError;
pub use types::{Color, Move, MoveKind, Piece, PieceType, Square};
