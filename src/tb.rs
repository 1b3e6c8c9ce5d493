//! Syzygy tablebases over the `shakmaty-syzygy` crate: loading, board conversion, WDL/DTZ
//! probes and root-move ranking. One [`Prober`] is shared read-only by every searcher (an `Arc`
//! swapped by the coordinator only while no search runs), so probing takes no lock of ours.

use crate::chess::{Board, Color, Move, PieceType};
use shakmaty::{CastlingMode, Chess};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase, Wdl};
use std::io::Read;
use std::path::Path;

/// WDL from the side to move's point of view, 5-valued as Syzygy defines it:
/// -2 loss, -1 loss saved by the 50-move rule, 0 draw, 1 win spoilt by the 50-move rule, 2 win.
pub type WdlValue = i32;

const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

pub struct Prober {
    tb: Tablebase<Chess>,
    pub wdl_files: usize,
    pub dtz_files: usize,
    pub max_pieces: usize,
}

/// What loading found: the prober (if any table loaded) and the problems met on the way.
pub struct Loaded {
    pub prober: Option<Prober>,
    pub errors: Vec<String>,
}

/// Splits a `SyzygyPath` value into directories (`:`, or `;` on Windows).
pub fn split_paths(paths: &str) -> Vec<String> {
    let sep = if cfg!(windows) { ';' } else { ':' };
    paths
        .split(sep)
        .map(str::trim)
        .filter(|p| !p.is_empty() && *p != "<empty>")
        .map(String::from)
        .collect()
}

/// Checks a table file's magic bytes and size (Syzygy files are 16 mod 64 bytes long).
pub fn check_file(path: &Path) -> Result<(), String> {
    let is_wdl = path.extension().is_some_and(|e| e == "rtbw");
    let mut f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let len = f
        .metadata()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    if len % 64 != 16 {
        return Err(format!(
            "{}: truncated or corrupt ({len} bytes)",
            path.display()
        ));
    }
    let mut magic = [0u8; 4];
    f.read_exact(&mut magic)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let want = if is_wdl { WDL_MAGIC } else { DTZ_MAGIC };
    if magic != want {
        return Err(format!(
            "{}: not a Syzygy table (bad magic bytes)",
            path.display()
        ));
    }
    Ok(())
}

/// Loads every `.rtbw`/`.rtbz` file of the given directories. Missing directories and bad files
/// are reported and skipped; the rest still loads.
pub fn load(paths: &str) -> Loaded {
    let mut tb = Tablebase::new();
    let mut errors = Vec::new();
    let (mut wdl_files, mut dtz_files) = (0, 0);
    for dir in split_paths(paths) {
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) => {
                errors.push(format!("SyzygyPath directory {dir}: {e}"));
                continue;
            }
        };
        let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files {
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if ext != "rtbw" && ext != "rtbz" {
                continue;
            }
            if let Err(e) = check_file(&path) {
                errors.push(e);
                continue;
            }
            match tb.add_file(&path) {
                Ok(()) if ext == "rtbw" => wdl_files += 1,
                Ok(()) => dtz_files += 1,
                Err(e) => errors.push(format!("{}: {e}", path.display())),
            }
        }
    }
    let max_pieces = tb.max_pieces();
    let prober = (wdl_files + dtz_files > 0).then_some(Prober {
        tb,
        wdl_files,
        dtz_files,
        max_pieces,
    });
    Loaded { prober, errors }
}

/// Builds the crate's position from our bitboards (no FEN round trip). `None` if the board has
/// castling rights (tables hold none) or the crate refuses it.
pub fn to_chess(board: &Board) -> Option<Chess> {
    if board.castling_rights() != 0 {
        return None;
    }
    let bb = |b: crate::chess::Bitboard| shakmaty::Bitboard(b.0);
    let by_role = shakmaty::ByRole {
        pawn: bb(board.pieces(PieceType::Pawn)),
        knight: bb(board.pieces(PieceType::Knight)),
        bishop: bb(board.pieces(PieceType::Bishop)),
        rook: bb(board.pieces(PieceType::Rook)),
        queen: bb(board.pieces(PieceType::Queen)),
        king: bb(board.pieces(PieceType::King)),
    };
    let by_color = shakmaty::ByColor {
        white: bb(board.color(Color::White)),
        black: bb(board.color(Color::Black)),
    };
    let sm_board = shakmaty::Board::try_from_bitboards(by_role, by_color).ok()?;
    let mut setup = shakmaty::Setup::empty();
    setup.board = sm_board;
    setup.turn = if board.side_to_move() == Color::White {
        shakmaty::Color::White
    } else {
        shakmaty::Color::Black
    };
    setup.castling_rights = shakmaty::Bitboard::EMPTY;
    setup.ep_square = board
        .ep_square()
        .and_then(|s| shakmaty::Square::try_from(s.index() as u32).ok());
    setup.halfmoves = board.halfmove_clock() as u32;
    use shakmaty::FromSetup;
    Chess::from_setup(setup, CastlingMode::Standard).ok()
}

fn wdl_value(w: Wdl) -> WdlValue {
    match w {
        Wdl::Loss => -2,
        Wdl::BlessedLoss => -1,
        Wdl::Draw => 0,
        Wdl::CursedWin => 1,
        Wdl::Win => 2,
    }
}

impl Prober {
    pub fn piece_count(board: &Board) -> usize {
        board.occupied().count() as usize
    }

    /// Whether a position can be in the loaded tables at all (cheap pre-check).
    #[inline]
    pub fn covers(&self, board: &Board, limit: usize) -> bool {
        board.castling_rights() == 0 && Self::piece_count(board) <= self.max_pieces.min(limit)
    }

    /// WDL for a position right after a capture or pawn move (halfmove clock 0): the table value
    /// with captures resolved (the fast probe the search uses).
    pub fn probe_wdl_after_zeroing(&self, board: &Board) -> Option<WdlValue> {
        let pos = to_chess(board)?;
        self.tb.probe_wdl_after_zeroing(&pos).ok().map(wdl_value)
    }

    /// WDL taking the halfmove clock into account (needs the DTZ table).
    pub fn probe_wdl(&self, board: &Board) -> Option<WdlValue> {
        let pos = to_chess(board)?;
        let w = self.tb.probe_wdl(&pos).ok()?;
        Some(match w {
            AmbiguousWdl::Loss => -2,
            AmbiguousWdl::MaybeLoss | AmbiguousWdl::BlessedLoss => -1,
            AmbiguousWdl::Draw => 0,
            AmbiguousWdl::CursedWin | AmbiguousWdl::MaybeWin => 1,
            AmbiguousWdl::Win => 2,
        })
    }

    /// Distance to zeroing (plies, signed for the side to move; may be rounded by one in some
    /// tables where that cannot matter).
    pub fn probe_dtz(&self, board: &Board) -> Option<i32> {
        let pos = to_chess(board)?;
        self.tb.probe_dtz(&pos).ok().map(|d| d.ignore_rounding().0)
    }

    /// Ranks the root moves. Returns the moves to search (those that keep the best outcome;
    /// for a win only the fastest conversions, so that play makes progress) and that outcome's
    /// WDL and, when DTZ tables were available, its DTZ. `None` when the root is not covered.
    pub fn rank_root(
        &self,
        board: &Board,
        moves: &[Move],
        rule50: bool,
        limit: usize,
    ) -> Option<RootRanking> {
        if !self.covers(board, limit) || moves.is_empty() {
            return None;
        }
        let norm = |w: WdlValue| if rule50 { w } else { w.signum() * 2 };
        // (move, wdl for us, dtz for us or None)
        let mut ranked: Vec<(Move, WdlValue, Option<i32>)> = Vec::with_capacity(moves.len());
        let mut dtz_complete = true;
        for &m in moves {
            let child = board.make_move(m);
            if child.is_checkmate() {
                ranked.push((m, 2, Some(1)));
                continue;
            }
            if child.legal_moves().is_empty() {
                ranked.push((m, 0, Some(0)));
                continue;
            }
            let (wdl, dtz) = if child.halfmove_clock() == 0 {
                let w = -self.probe_wdl_after_zeroing(&child)?;
                (w, Some(w.signum()))
            } else {
                match (self.probe_dtz(&child), self.probe_wdl(&child)) {
                    (Some(d), Some(w)) => {
                        let ours = if d < 0 {
                            -d + 1
                        } else if d > 0 {
                            -(d + 1)
                        } else {
                            0
                        };
                        (-w, Some(ours))
                    }
                    _ => {
                        dtz_complete = false;
                        (-self.probe_wdl_after_zeroing(&child)?, None)
                    }
                }
            };
            ranked.push((m, norm(wdl), dtz));
        }
        let best_wdl = ranked.iter().map(|r| r.1).max()?;
        let mut keep: Vec<(Move, WdlValue, Option<i32>)> =
            ranked.into_iter().filter(|r| r.1 == best_wdl).collect();
        let mut dtz = None;
        if dtz_complete && best_wdl != 0 {
            let key = |r: &(Move, WdlValue, Option<i32>)| r.2.unwrap_or(0).abs();
            let target = if best_wdl > 0 {
                keep.iter().map(key).min()
            } else {
                keep.iter().map(key).max()
            };
            if let Some(t) = target {
                keep.retain(|r| key(r) == t);
                dtz = Some(if best_wdl > 0 { t } else { -t });
            }
        }
        Some(RootRanking {
            moves: keep.into_iter().map(|r| r.0).collect(),
            wdl: best_wdl,
            dtz,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootRanking {
    pub moves: Vec<Move>,
    pub wdl: WdlValue,
    pub dtz: Option<i32>,
}

/// Piece letters in Syzygy's order of value.
const PCHR: &str = "KQRBNP";

/// The canonical Syzygy name of a material signature (stronger side first), following the
/// naming rule of the tables: swap when `(len(w), idx(b)) < (len(b), idx(w))`.
pub fn normalize_name(white: &str, black: &str) -> String {
    let sort = |s: &str| -> String {
        let mut v: Vec<char> = s.chars().collect();
        v.sort_by_key(|c| PCHR.find(*c).unwrap_or(9));
        v.into_iter().collect()
    };
    let (w, b) = (sort(white), sort(black));
    let idx = |s: &str| -> Vec<usize> { s.chars().map(|c| PCHR.find(c).unwrap_or(9)).collect() };
    if (w.len(), idx(&b)) < (b.len(), idx(&w)) {
        format!("{b}v{w}")
    } else {
        format!("{w}v{b}")
    }
}

/// Every material signature with `n` pieces (kings included), by canonical name, sorted.
pub fn signatures(n: usize) -> Vec<String> {
    fn multisets(k: usize, from: usize, cur: &mut String, out: &mut Vec<String>) {
        if k == 0 {
            out.push(cur.clone());
            return;
        }
        for (i, c) in "QRBNP".chars().enumerate().skip(from) {
            cur.push(c);
            multisets(k - 1, i, cur, out);
            cur.pop();
        }
    }
    let mut names = std::collections::BTreeSet::new();
    if n < 3 {
        return Vec::new();
    }
    for a in 0..=n - 2 {
        let (mut ws, mut bs) = (Vec::new(), Vec::new());
        multisets(a, 0, &mut String::new(), &mut ws);
        multisets(n - 2 - a, 0, &mut String::new(), &mut bs);
        for w in &ws {
            for b in &bs {
                names.insert(normalize_name(&format!("K{w}"), &format!("K{b}")));
            }
        }
    }
    names.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_counts_are_the_known_ones() {
        let counts: Vec<usize> = (3..=7).map(|n| signatures(n).len()).collect();
        assert_eq!(counts, vec![5, 30, 110, 365, 1001]);
        assert_eq!(normalize_name("KR", "KQ"), "KQvKR");
        assert_eq!(normalize_name("KP", "KRR"), "KRRvKP");
        assert!(signatures(4).contains(&"KPvKP".to_string()));
    }

    #[test]
    fn split_paths_ignores_empty_parts() {
        assert_eq!(split_paths(""), Vec::<String>::new());
        assert_eq!(split_paths("<empty>"), Vec::<String>::new());
        assert_eq!(
            split_paths("/a::/b "),
            vec!["/a".to_string(), "/b".to_string()]
        );
    }
}
