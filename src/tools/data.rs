//! Training data in viriformat, the game format of the NNUE world (Viridithas; read by bullet's
//! tools): per game a 32-byte marlinformat board (the start position and the result), then
//! 4 bytes per ply (the move played and the white-relative search score of the position it
//! was played in), then four zero bytes. Every ply is kept; filters are applied when training.
//!
//! Written here rather than through the `viriformat` crate: that crate brings a second board
//! implementation and panics on some malformed input, and data files are outside input. This
//! reader checks every game (a legal start position, legal moves, a valid result) and reports a
//! bad file as an error value.

use crate::chess::{Board, Color, Move, MoveKind, PieceType, Square};
use std::io::{BufRead, Write};

/// Result byte of marlinformat: from white's point of view.
pub const BLACK_WIN: u8 = 0;
pub const DRAW: u8 = 1;
pub const WHITE_WIN: u8 = 2;

const UNMOVED_ROOK: u8 = 6;

/// One self-play game: where it started, each move with the score of the position it was
/// played in (white's point of view), and the result (`WHITE_WIN`, `DRAW`, `BLACK_WIN`).
#[derive(Clone, Debug)]
pub struct Game {
    pub start: Board,
    pub moves: Vec<(Move, i16)>,
    pub result: u8,
}

/// Why data could not be read.
#[derive(Debug)]
pub enum DataError {
    Io(std::io::Error),
    /// The file ends inside a game (a run cut short mid-write; the games before are good).
    Truncated,
    Invalid(String),
}

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DataError::Io(e) => write!(f, "{e}"),
            DataError::Truncated => write!(f, "the file ends inside a game"),
            DataError::Invalid(s) => write!(f, "invalid data: {s}"),
        }
    }
}

/// The 32-byte marlinformat board of `board` with a white-relative `score` and `result`.
pub fn pack(board: &Board, score: i16, result: u8) -> [u8; 32] {
    let mut b = [0u8; 32];
    let occ = board.occupied();
    b[..8].copy_from_slice(&occ.0.to_le_bytes());
    let castle_rooks: Vec<Square> = (0..4).filter_map(|i| board.castle_rook(i)).collect();
    for (i, sq) in occ.enumerate() {
        let piece = board.piece_on(sq);
        let mut code = piece.piece_type().index() as u8;
        if piece.piece_type() == PieceType::Rook && castle_rooks.contains(&sq) {
            code = UNMOVED_ROOK;
        }
        code |= ((piece.color() == Color::Black) as u8) << 3;
        b[8 + i / 2] |= code << ((i % 2) * 4);
    }
    let ep = board.ep_square().map_or(64, |s| s.index() as u8);
    b[24] = (((board.side_to_move() == Color::Black) as u8) << 7) | ep;
    b[25] = board.halfmove_clock().min(255) as u8;
    b[26..28].copy_from_slice(&board.fullmove_number().to_le_bytes());
    b[28..30].copy_from_slice(&score.to_le_bytes());
    b[30] = result;
    b
}

/// Reads a 32-byte marlinformat board: (position, score, result). The position is checked as
/// any FEN is (kings, pawns on back ranks, castling rooks, the side not to move in check).
pub fn unpack(b: &[u8; 32]) -> Result<(Board, i16, u8), DataError> {
    let bad = |s: &str| DataError::Invalid(s.to_string());
    let mut occ8 = [0u8; 8];
    occ8.copy_from_slice(&b[..8]);
    let occ = u64::from_le_bytes(occ8);
    if occ.count_ones() > 32 {
        return Err(bad("more than 32 pieces"));
    }
    let mut grid = [None::<(Color, u8)>; 64];
    let mut castling = String::new();
    let mut rooks = Vec::new();
    for (i, sq) in crate::chess::Bitboard(occ).enumerate() {
        let code = (b[8 + i / 2] >> ((i % 2) * 4)) & 0xF;
        let color = if code & 8 != 0 {
            Color::Black
        } else {
            Color::White
        };
        let pt = code & 7;
        if pt == 7 {
            return Err(bad("piece code 7"));
        }
        if pt == UNMOVED_ROOK {
            rooks.push((color, sq));
        }
        grid[sq.index()] = Some((color, if pt == UNMOVED_ROOK { 3 } else { pt }));
    }
    // Castling rights as Shredder-FEN file letters (works for Chess960 as well).
    for color in Color::BOTH {
        let mut files: Vec<u8> = rooks
            .iter()
            .filter(|(c, _)| *c == color)
            .map(|(_, s)| s.file())
            .collect();
        files.sort_unstable_by(|a, b| b.cmp(a));
        for f in files {
            // X-FEN: K and Q for the outermost rooks, file letters otherwise (Chess960).
            let ch = match f {
                7 => 'k',
                0 => 'q',
                f => (b'a' + f) as char,
            };
            castling.push(if color == Color::White {
                ch.to_ascii_uppercase()
            } else {
                ch
            });
        }
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match grid[rank * 8 + file] {
                None => empty += 1,
                Some((color, pt)) => {
                    if empty > 0 {
                        fen.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    let ch = PieceType::from_index(pt as usize).char();
                    fen.push(if color == Color::White {
                        ch.to_ascii_uppercase()
                    } else {
                        ch
                    });
                }
            }
        }
        if empty > 0 {
            fen.push((b'0' + empty) as char);
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let stm = if b[24] & 0x80 != 0 { 'b' } else { 'w' };
    let ep = match b[24] & 0x7F {
        64 => "-".to_string(),
        s if s < 64 => Square::new(s).to_string(),
        _ => return Err(bad("en passant square out of range")),
    };
    if castling.is_empty() {
        castling.push('-');
    }
    let fullmove = u16::from_le_bytes([b[26], b[27]]).max(1);
    let fen = format!("{fen} {stm} {castling} {ep} {} {fullmove}", b[25]);
    // Parsed as Chess960 always: its reading of `KQkq` (the outermost rooks) is the standard
    // one on a standard board, and it also keeps the rights of a king off the e-file.
    let board = Board::from_fen(&fen, true)
        .map_err(|e| DataError::Invalid(format!("start position {fen}: {e}")))?;
    let result = b[30];
    if result > WHITE_WIN {
        return Err(bad("result byte beyond 2"));
    }
    Ok((board, i16::from_le_bytes([b[28], b[29]]), result))
}

/// A move as viriformat stores it: from, to (castling as king takes rook), promotion piece,
/// kind.
pub fn encode_move(mv: Move) -> u16 {
    let (kind, promo) = match mv.kind() {
        MoveKind::EnPassant => (1u16, 0u16),
        MoveKind::Castle => (2, 0),
        MoveKind::Promotion => (3, mv.promotion_piece().index() as u16 - 1),
        _ => (0, 0),
    };
    mv.from().index() as u16 | (mv.to().index() as u16) << 6 | promo << 12 | kind << 14
}

/// The legal move of `board` that `raw` encodes.
pub fn decode_move(board: &Board, raw: u16) -> Option<Move> {
    board
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| encode_move(m) == raw)
}

impl Game {
    pub fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let mut bytes = Vec::with_capacity(36 + 4 * self.moves.len());
        bytes.extend_from_slice(&pack(&self.start, 0, self.result));
        for &(mv, score) in &self.moves {
            bytes.extend_from_slice(&encode_move(mv).to_le_bytes());
            bytes.extend_from_slice(&score.to_le_bytes());
        }
        bytes.extend_from_slice(&[0; 4]);
        out.write_all(&bytes)
    }

    /// The next game of `input`; `Ok(None)` at a clean end of the data.
    pub fn read(input: &mut dyn BufRead) -> Result<Option<Game>, DataError> {
        if input.fill_buf().map_err(DataError::Io)?.is_empty() {
            return Ok(None);
        }
        let mut head = [0u8; 32];
        read_exact(input, &mut head)?;
        let (start, _, result) = unpack(&head)?;
        let mut board = start;
        let mut moves = Vec::new();
        loop {
            let mut rec = [0u8; 4];
            read_exact(input, &mut rec)?;
            if rec == [0; 4] {
                break;
            }
            let raw = u16::from_le_bytes([rec[0], rec[1]]);
            let Some(mv) = decode_move(&board, raw) else {
                return Err(DataError::Invalid(format!(
                    "move {raw:#06x} is not legal in {}",
                    board.to_fen()
                )));
            };
            if moves.len() >= 10_000 {
                return Err(DataError::Invalid("a game of over 10000 plies".into()));
            }
            moves.push((mv, i16::from_le_bytes([rec[2], rec[3]])));
            board = board.make_move(mv);
        }
        Ok(Some(Game {
            start,
            moves,
            result,
        }))
    }

    /// Each position of the game with the move played there and its white-relative score.
    pub fn positions(&self) -> impl Iterator<Item = (Board, Move, i16)> + '_ {
        let mut board = self.start;
        self.moves.iter().map(move |&(mv, score)| {
            let here = board;
            board = board.make_move(mv);
            (here, mv, score)
        })
    }

    /// The result as a white-relative score: 1.0, 0.5, 0.0.
    pub fn white_result(&self) -> f32 {
        self.result as f32 / 2.0
    }
}

fn read_exact(input: &mut dyn BufRead, buf: &mut [u8]) -> Result<(), DataError> {
    input.read_exact(buf).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => DataError::Truncated,
        _ => DataError::Io(e),
    })
}

/// What `lazuli data stats` prints about one or more files.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub games: u64,
    pub positions: u64,
    /// Positions that pass the training filters (see [`trainable`]).
    pub trainable: u64,
    /// Games won by white, drawn, won by black.
    pub results: [u64; 3],
    /// Scores (white-relative) in buckets of 100 cp from -1000 to +1000 (the ends take the
    /// rest), for trainable positions.
    pub histogram: [u64; 21],
    pub longest: usize,
}

/// The training filters: from ply `min_ply` on, not in check, a quiet best move, no mate or
/// tablebase score.
pub fn trainable(board: &Board, mv: Move, score: i16, ply: usize, min_ply: usize) -> bool {
    ply >= min_ply
        && !board.in_check()
        && !crate::search::is_tactical(board, mv)
        && (score as i32).abs() < crate::tt::DECISIVE_BOUND
}

impl Stats {
    pub fn add(&mut self, game: &Game, min_ply: usize) {
        self.games += 1;
        self.positions += game.moves.len() as u64;
        self.longest = self.longest.max(game.moves.len());
        self.results[2 - game.result.min(2) as usize] += 1;
        let ply0 = ply_of(&game.start);
        for (i, (board, mv, score)) in game.positions().enumerate() {
            if trainable(&board, mv, score, ply0 + i, min_ply) {
                self.trainable += 1;
                let bucket = ((score as i32 + 1050) / 100).clamp(0, 20);
                self.histogram[bucket as usize] += 1;
            }
        }
    }

    pub fn report(&self) -> String {
        let mut s = format!(
            "games {}  positions {}  trainable {} ({:.1}%)  longest game {} plies\n\
             results: white won {}  drawn {}  black won {}\n\
             scores of trainable positions (white's view, 100 cp buckets):\n",
            self.games,
            self.positions,
            self.trainable,
            100.0 * self.trainable as f64 / self.positions.max(1) as f64,
            self.longest,
            self.results[0],
            self.results[1],
            self.results[2]
        );
        let most = *self.histogram.iter().max().unwrap_or(&1).max(&1);
        for (i, &n) in self.histogram.iter().enumerate() {
            let lo = i as i32 * 100 - 1050;
            let label = match i {
                0 => "   <= -1000".to_string(),
                20 => "   >= +1000".to_string(),
                _ => format!("{:+5} .. {:+5}", lo, lo + 99),
            };
            let bar = "#".repeat((n * 50 / most) as usize);
            s.push_str(&format!("{label} {n:9} {bar}\n"));
        }
        s
    }
}

/// The ply of `board` from the game's start as its move counters say.
pub fn ply_of(board: &Board) -> usize {
    2 * (board.fullmove_number() as usize).saturating_sub(1)
        + (board.side_to_move() == Color::Black) as usize
}

/// Reads every game of `input`, calling `each` for each; a file cut inside its last game (a
/// run stopped mid-write) counts as its complete games, anything else bad is an error.
pub fn for_each_game(
    input: &mut dyn BufRead,
    mut each: impl FnMut(Game),
) -> Result<u64, DataError> {
    let mut n = 0;
    loop {
        match Game::read(input) {
            Ok(Some(g)) => {
                each(g);
                n += 1;
            }
            Ok(None) | Err(DataError::Truncated) => return Ok(n),
            Err(e) => return Err(e),
        }
    }
}

/// The length of the complete games at the start of `bytes` (all of it for a whole file;
/// less where the last game was cut off mid-write).
pub fn complete_prefix(bytes: &[u8]) -> Result<usize, DataError> {
    let mut rest = bytes;
    loop {
        let before = rest.len();
        match Game::read(&mut rest) {
            Ok(Some(_)) => {}
            Ok(None) => return Ok(bytes.len()),
            Err(DataError::Truncated) => return Ok(bytes.len() - before),
            Err(e) => return Err(e),
        }
    }
}

/// Whether `bytes` look like viriformat (rather than text): a valid first header.
pub fn looks_binary(bytes: &[u8]) -> bool {
    bytes.len() >= 32
        && bytes[..32]
            .try_into()
            .ok()
            .is_some_and(|h| unpack(h).is_ok())
}

/// Training data files
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: DataCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum DataCommand {
    /// Games, positions, results and a score histogram of viriformat files
    Stats {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
    },
    /// The trainable positions of viriformat files as text lines on stdout,
    /// '<FEN> | <score> | <result>' (white's view: score in centipawns, result 1.0 / 0.5 / 0.0),
    /// the layout of `datagen --format text` that scripts/fit_wdl.py and other tools read
    Text {
        /// Positions before this ply are left out (as in training)
        #[arg(long, default_value_t = 16)]
        min_ply: usize,
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
    },
}

/// Reads every game of `path` into `each`.
fn each_game_of(path: &str, each: impl FnMut(Game)) -> Result<u64, DataError> {
    let f = std::fs::File::open(path).map_err(DataError::Io)?;
    let mut r = std::io::BufReader::with_capacity(1 << 20, f);
    for_each_game(&mut r, each)
}

/// The text lines of `game`'s trainable positions from `min_ply` on.
pub fn text_lines(game: &Game, min_ply: usize) -> String {
    let mut s = String::new();
    let ply0 = ply_of(&game.start);
    for (i, (board, mv, score)) in game.positions().enumerate() {
        if trainable(&board, mv, score, ply0 + i, min_ply) {
            s.push_str(&format!(
                "{} | {score} | {:.1}\n",
                board.to_fen(),
                game.white_result()
            ));
        }
    }
    s
}

/// `lazuli data ...`: the command.
pub fn command(args: Args) -> std::process::ExitCode {
    let failed = |path: &str, e: &dyn std::fmt::Display| {
        eprintln!("lazuli data: {path}: {e}");
        std::process::ExitCode::from(1)
    };
    match args.command {
        DataCommand::Stats { files } => {
            let mut stats = Stats::default();
            for path in &files {
                if let Err(e) = each_game_of(path, |g| stats.add(&g, 16)) {
                    return failed(path, &e);
                }
            }
            print!("{}", stats.report());
        }
        DataCommand::Text { min_ply, files } => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            for path in &files {
                let mut write_err = None;
                let read = each_game_of(path, |g| {
                    if write_err.is_none()
                        && let Err(e) = out.write_all(text_lines(&g, min_ply).as_bytes())
                    {
                        write_err = Some(e);
                    }
                });
                if let Some(e) = write_err {
                    // A closed pipe (`| head`) ends the output quietly.
                    if e.kind() == std::io::ErrorKind::BrokenPipe {
                        return std::process::ExitCode::SUCCESS;
                    }
                    return failed("stdout", &e);
                }
                if let Err(e) = read {
                    return failed(path, &e);
                }
            }
            if let Err(e) = out.flush()
                && e.kind() != std::io::ErrorKind::BrokenPipe
            {
                return failed("stdout", &e);
            }
        }
    }
    std::process::ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::STARTPOS;

    #[test]
    fn start_position_matches_the_published_example() {
        // The example in the viriformat specification: the start position, white won. Its hex
        // dump shows each piece byte with the nibbles swapped; the crate's code (and so every
        // reader) puts piece `i` in the low nibble when `i` is even: a1 = unmoved rook (6),
        // b1 = knight (1) -> 0x16.
        let b = Board::from_fen(STARTPOS, false).unwrap();
        let bytes = pack(&b, 0, WHITE_WIN);
        let expected: [u8; 32] = [
            0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0x16, 0x42, 0x25, 0x61, 0x00, 0x00,
            0x00, 0x00, 0x88, 0x88, 0x88, 0x88, 0x9e, 0xca, 0xad, 0xe9, 0x40, 0x00, 0x01, 0x00,
            0x00, 0x00, 0x02, 0x00,
        ];
        assert_eq!(bytes, expected);
        // ... and its moves: 1. e4 (0x070c), 1... e5 (0x0934), 2. Qh5 (0x09c3).
        let e4 = b.parse_uci_move("e2e4").unwrap();
        assert_eq!(encode_move(e4), 0x070c);
        let b2 = b.make_move(e4);
        assert_eq!(encode_move(b2.parse_uci_move("e7e5").unwrap()), 0x0934);
        let b3 = b2.make_move(b2.parse_uci_move("e7e5").unwrap());
        assert_eq!(encode_move(b3.parse_uci_move("d1h5").unwrap()), 0x09c3);
        let (u, score, result) = unpack(&bytes).unwrap();
        assert!(u.same_position(&b));
        assert_eq!((score, result), (0, WHITE_WIN));
    }

    #[test]
    fn games_round_trip_through_bytes_and_bad_bytes_are_errors() {
        // Random games from positions with castling rights, en passant and promotions.
        let fens = [
            STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            // Chess960: the king on b or g, castling at once possible on both wings.
            "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1",
            "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR b KQkq - 0 1",
        ];
        let mut rng = crate::tools::datagen::Rng::new(9);
        let mut games = Vec::new();
        let mut castles_960 = 0;
        for (i, fen) in fens.iter().cycle().take(60).enumerate() {
            let start = Board::from_fen(fen, true).unwrap();
            let mut b = start;
            let mut moves = Vec::new();
            for ply in 0..80 {
                let legal = b.legal_moves();
                if legal.is_empty() {
                    break;
                }
                // Castle whenever possible, so that every kind of castling is written.
                let mv = legal
                    .iter()
                    .copied()
                    .find(|m| m.kind() == MoveKind::Castle)
                    .unwrap_or_else(|| legal[rng.below(legal.len())]);
                if mv.kind() == MoveKind::Castle && i % fens.len() >= 4 {
                    castles_960 += 1;
                }
                moves.push((mv, (ply * 7 - 100) as i16));
                b = b.make_move(mv);
            }
            games.push(Game {
                start,
                moves,
                result: (i % 3) as u8,
            });
        }
        let mut bytes = Vec::new();
        for g in &games {
            g.write(&mut bytes).unwrap();
        }
        let mut read = Vec::new();
        let n = for_each_game(&mut &bytes[..], |g| read.push(g)).unwrap();
        assert_eq!(n, 60);
        assert!(castles_960 >= 20, "{castles_960} Chess960 castlings");
        for (a, b) in games.iter().zip(&read) {
            assert!(a.start.same_position(&b.start));
            assert_eq!(a.moves, b.moves);
            assert_eq!(a.result, b.result);
        }
        // Cut inside the last game: the complete games are read, and the cut is found.
        let n = for_each_game(&mut &bytes[..bytes.len() - 3], |_| {}).unwrap();
        assert_eq!(n, 59);
        let mut first_games = Vec::new();
        for g in &games[..59] {
            g.write(&mut first_games).unwrap();
        }
        assert_eq!(
            complete_prefix(&bytes[..bytes.len() - 3]).unwrap(),
            first_games.len()
        );
        assert_eq!(complete_prefix(&bytes).unwrap(), bytes.len());
        // An illegal move, a bad piece code, a bad result: errors, not panics.
        let mut bad = bytes.clone();
        bad[32] ^= 0x3f;
        bad[33] ^= 0x0f;
        assert!(matches!(
            for_each_game(&mut &bad[..], |_| {}),
            Err(DataError::Invalid(_))
        ));
        let mut bad = bytes.clone();
        bad[8] |= 0x07;
        assert!(for_each_game(&mut &bad[..], |_| {}).is_err());
        let mut bad = bytes.clone();
        bad[30] = 3;
        assert!(for_each_game(&mut &bad[..], |_| {}).is_err());
        // Random bytes never panic.
        let mut junk = vec![0u8; 4096];
        for x in &mut junk {
            *x = rng.next_u64() as u8;
        }
        let _ = for_each_game(&mut &junk[..], |_| {});
        assert!(!looks_binary(
            b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"
        ));
        assert!(looks_binary(&bytes));
    }
}
