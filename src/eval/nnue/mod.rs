//! NNUE: an efficiently updatable network trained on Lazuli's own self-play games.
//!
//! Architecture: `(768 x KING_BUCKETS -> HIDDEN) x 2 perspectives -> 1`. Each perspective sees
//! the 768 piece-square inputs (own/enemy x 6 piece types x 64 squares, the board mirrored
//! vertically for black) through the rows of its own king's bucket ([`king_bucket`]; a king
//! that changes bucket has its perspective refreshed from scratch); its accumulator is the
//! hidden layer before the activation. A file of fewer king buckets is read into these. The
//! output layer reads the side to move's accumulator first, then the other side's, through SCReLU
//! (`clamp(x, 0, 1)^2`), with one set of output weights per output bucket (by the number of
//! pieces; `OUTPUT_BUCKETS`). The build has eight buckets and reads one-bucket files too, copying
//! their one output layer into every bucket, so a one-bucket network evaluates exactly as in a
//! one-bucket build. Integer inference: the feature transformer in i16 scaled by `QA`, the
//! output weights in i16 scaled by `QB`, the result scaled to centipawns by `SCALE`.
//!
//! [`feature`] is the one definition of the inputs: the trainer (`crate::tools::train`) uses it too,
//! so training and inference cannot drift apart.

pub mod simd;

use crate::chess::{Bitboard, Board, Color, Piece, Square};
use std::sync::{Arc, OnceLock};

/// Piece-square inputs per perspective and king bucket: own/enemy x 6 piece types x 64 squares.
pub const PIECE_SQUARES: usize = 768;
/// King buckets: each perspective reads its piece-square inputs through one of this many sets of
/// feature-transformer rows, chosen by where its own king stands (see [`king_bucket`]), so the
/// network can value a pawn on g2 differently behind a castled king than in front of an
/// uncastled one. 1 is the plain 768-input network.
pub const KING_BUCKETS: usize = 4;
/// The king bucket of square `sq` (0 = a1, from the perspective's own side, so rank 1 is its
/// back rank) in a layout of `n` buckets: 1 is the plain network; 2 splits files a-d / e-h; 4
/// also ranks 1-2 / 3-8 (a king at home on either wing, or out in the field); 8 splits the
/// files into pairs a-b / c-d / e-f / g-h instead of halves (so a king castled long or short
/// is told apart from one left in the centre), still times ranks 1-2 / 3-8. Each layout
/// refines the one before it, so a file of fewer buckets reads into a build of more
/// ([`coarser_king_bucket`]), and left-right mirror images are buckets too ([`mirror_feature`]
/// relies on it).
pub const fn king_bucket_layout(n: usize, sq: usize) -> usize {
    let (file, home) = (sq % 8, sq / 8 < 2);
    let field = !home as usize;
    match n {
        1 => 0,
        2 => (file >= 4) as usize,
        4 => (file >= 4) as usize + 2 * field,
        _ => file / 2 + 4 * field,
    }
}
/// The king-bucket counts with a layout.
pub const fn is_king_bucket_count(n: usize) -> bool {
    matches!(n, 1 | 2 | 4 | 8)
}
const KING_BUCKET_LAYOUT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = king_bucket_layout(KING_BUCKETS, sq) as u8;
        sq += 1;
    }
    t
};
const _: () = assert!(
    is_king_bucket_count(KING_BUCKETS),
    "the layouts are for 1, 2, 4 or 8"
);
/// The bucket, in a layout of `n <= KING_BUCKETS` buckets, of every square in this build's
/// bucket `b` (one square of it decides: the layouts nest, as a test checks).
pub const fn coarser_king_bucket(n: usize, b: usize) -> usize {
    let mut sq = 0;
    while sq < 64 {
        if KING_BUCKET_LAYOUT[sq] as usize == b {
            return king_bucket_layout(n, sq);
        }
        sq += 1;
    }
    0
}
/// The bucket a king bucket becomes when the board is mirrored left to right.
const KING_BUCKET_MIRROR: [u8; KING_BUCKETS] = {
    let mut m = [0u8; KING_BUCKETS];
    let mut sq = 0;
    while sq < 64 {
        m[KING_BUCKET_LAYOUT[sq] as usize] = KING_BUCKET_LAYOUT[sq ^ 7];
        sq += 1;
    }
    m
};
/// Inputs per perspective: the piece-square inputs of every king bucket.
pub const INPUTS: usize = PIECE_SQUARES * KING_BUCKETS;
/// Hidden neurons per perspective.
pub const HIDDEN: usize = 128;
/// Output buckets: the output layer has this many sets of weights, chosen by the number of
/// pieces on the board (see [`output_bucket`]), so that the network can weigh its hidden
/// features differently in the opening, the middlegame and the endgame at no cost in speed.
/// 1 is the plain `(768 -> H) x 2 -> 1` network. Eight since 2026-11-26, so the trainer writes
/// eight-bucket files; how one-bucket files load: the module documentation.
pub const OUTPUT_BUCKETS: usize = 8;
/// Quantisation of the feature transformer (its activation range is `[0, QA]`).
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
/// The network's output times `SCALE` is centipawns (the trainer's sigmoid scale too). A
/// network file carries its own output scale (the trainer writes `SCALE`; `lazuli net --scale`
/// changes it), so that a network's centipawns can be matched to the search's margins without
/// retraining.
pub const SCALE: i32 = 400;
/// The output scales a network file may carry.
pub const SCALE_RANGE: std::ops::RangeInclusive<u32> = 100..=2000;
/// Every weight is kept within this in training, so the quantised arithmetic cannot overflow:
/// one perspective's half of the output layer, `QA * QA * round(1.98 * QB) * HIDDEN`, stays
/// below 2^31 (the two halves are added in i64), `QA * round(1.98 * QB)` fits i16 (the SIMD
/// kernels multiply there), and `|round(1.98 * QA)| * 32` pieces plus the bias stays far inside
/// i16.
pub const WEIGHT_CLIP: f32 = 1.98;

const _: () = assert!(
    (QA as i64) * (QA as i64) * ((WEIGHT_CLIP * QB as f32) as i64 + 1) * (HIDDEN as i64)
        < i32::MAX as i64
);
const _: () = assert!((QA as i64) * ((WEIGHT_CLIP * QB as f32) as i64 + 1) <= i16::MAX as i64);

/// The output bucket of a position with `pieces` pieces on the board (kings included): 2..=32
/// pieces are cut into `OUTPUT_BUCKETS` equal ranges.
#[inline(always)]
pub fn output_bucket(pieces: usize) -> usize {
    // (0..=30) * B / 31 < B for every B.
    (pieces.clamp(2, 32) - 2) * OUTPUT_BUCKETS / 31
}

/// The king bucket of `perspective` whose king stands on `king`.
#[inline(always)]
pub fn king_bucket(perspective: Color, king: Square) -> usize {
    KING_BUCKET_LAYOUT[relative_square(perspective, king)] as usize
}

/// `sq` seen from `perspective`: the board mirrored vertically for black (an XOR, not a
/// branch: this is computed for every feature of every update).
#[inline(always)]
fn relative_square(perspective: Color, sq: Square) -> usize {
    sq.index() ^ (56 * perspective.index())
}

/// `own * 384 + piece type * 64` of each piece encoding (`colour * 6 + type`; every value a
/// `0..16` mask can give, so no bounds check) from each perspective: the part of
/// [`feature`] that depends on the piece, as a lookup.
const PIECE_OFFSET: [[u16; 16]; 2] = {
    let mut t = [[0; 16]; 2];
    let mut persp = 0;
    while persp < 2 {
        let mut p = 0;
        while p < 16 {
            let own = ((p >= 6) as usize != persp) as usize;
            t[persp][p] = (own * 384 + (p % 6) * 64) as u16;
            p += 1;
        }
        persp += 1;
    }
    t
};

/// The king buckets of both perspectives of `board` (`[Color::index()]`).
#[inline(always)]
pub fn king_buckets(board: &Board) -> [usize; 2] {
    Color::BOTH.map(|c| king_bucket(c, board.king(c)))
}

/// The input index of `piece` on `sq` seen from `perspective`, whose king bucket is `bucket`.
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square, bucket: usize) -> usize {
    let offset = PIECE_OFFSET[perspective.index()][piece.index() & 15] as usize;
    bucket * PIECE_SQUARES + offset + relative_square(perspective, sq)
}

/// Input `f` of a board mirrored left to right (files a-h swapped): the same piece on the
/// mirrored square, in the king bucket of the mirrored king.
#[inline(always)]
pub fn mirror_feature(f: usize) -> usize {
    let (bucket, ps) = (f / PIECE_SQUARES, f % PIECE_SQUARES);
    KING_BUCKET_MIRROR[bucket] as usize * PIECE_SQUARES + (ps ^ 7)
}

/// Every piece on the board with its square.
pub fn pieces(board: &Board) -> impl Iterator<Item = (Piece, Square)> + '_ {
    board.occupied().map(move |sq| (board.piece_on(sq), sq))
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    Io(String),
    /// Not the size a network of this architecture has (`found`, `expected` bytes).
    Size {
        found: usize,
        expected: usize,
    },
    Magic,
    /// A network of another shape (inputs, hidden, QA, QB, scale and output buckets as the
    /// file says; the header's 0 for buckets is reported as 1).
    Shape([u32; 6]),
    Checksum,
    /// A value the engine's arithmetic cannot take (a weight beyond the clip).
    Range,
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::Io(e) => write!(f, "cannot read the network: {e}"),
            NetError::Size { found, expected } => write!(
                f,
                "the network file has {found} bytes, a Lazuli network has {expected}"
            ),
            NetError::Magic => write!(f, "not a Lazuli network file (bad magic)"),
            NetError::Shape(s) => write!(
                f,
                "network shape inputs {} hidden {} QA {} QB {} scale {} output buckets {} does \
                 not match this build ({INPUTS} or {PIECE_SQUARES}, {HIDDEN}, {QA}, {QB}, \
                 scale {} to {}, output buckets {OUTPUT_BUCKETS} or 1)",
                s[0],
                s[1],
                s[2],
                s[3],
                s[4],
                s[5],
                SCALE_RANGE.start(),
                SCALE_RANGE.end()
            ),
            NetError::Checksum => write!(f, "the network file is corrupt (checksum)"),
            NetError::Range => write!(f, "the network has weights out of range"),
        }
    }
}

/// The file layout: a 32-byte header, the weights little-endian, an FNV-1a checksum.
pub const MAGIC: &[u8; 8] = b"LZNNUE\x00\x01";
const HEADER: usize = 32;
/// Size of a network file of `inputs` inputs (`PIECE_SQUARES` per king bucket) and `buckets`
/// output buckets.
pub const fn file_size(inputs: usize, buckets: usize) -> usize {
    HEADER + 2 * (inputs * HIDDEN + HIDDEN + buckets * 2 * HIDDEN) + 4 * buckets + 8
}
/// The header's last word: the number of output buckets, 0 for one (the files written before
/// buckets existed, which stay byte-identical).
const fn header_buckets() -> u32 {
    if OUTPUT_BUCKETS == 1 {
        0
    } else {
        OUTPUT_BUCKETS as u32
    }
}

/// Size of a network file of this build's architecture. A build of several output or king
/// buckets reads files of one too (see [`Network::from_bytes`]).
pub const FILE_SIZE: usize = file_size(INPUTS, OUTPUT_BUCKETS);

/// Whether this build reads a file of `inputs` inputs and `buckets` output buckets.
pub const fn readable_shape(inputs: usize, buckets: usize) -> bool {
    let kings = inputs / PIECE_SQUARES;
    inputs.is_multiple_of(PIECE_SQUARES)
        && is_king_bucket_count(kings)
        && kings <= KING_BUCKETS
        && (buckets == OUTPUT_BUCKETS || buckets == 1)
}

/// 64-bit FNV-1a, the file checksum.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A quantised network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Feature transformer, one row of `HIDDEN` per input: `ft_w[f * HIDDEN + i]`.
    pub ft_w: Box<[i16]>,
    pub ft_b: Box<[i16]>,
    /// Output weights, per bucket: the side to move's `HIDDEN`, then the other side's.
    pub out_w: Box<[i16]>,
    /// Output bias, per bucket.
    pub out_b: Box<[i32]>,
    /// The output's scale to centipawns (the header's; `SCALE` from the trainer).
    pub scale: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({:016x})", fnv1a(&self.to_bytes()))
    }
}

impl Network {
    /// Reads a network file's bytes, checking size, header, checksum and ranges.
    ///
    /// A file of one output bucket is read by a build of several too: its output layer is
    /// copied into every bucket, which evaluates exactly as the one-bucket network does. So a
    /// build with more buckets plays the older networks (`EvalFile`) unchanged, and training
    /// can start from one (`lazuli train --init`) and learn the buckets apart from there. The
    /// same for king buckets: a file of fewer king buckets (`PIECE_SQUARES` inputs each; one,
    /// as every network before king buckets, or a coarser layout) has each of its buckets'
    /// rows copied into every bucket of the build that lies within it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER || bytes[..8] != MAGIC[..] {
            return Err(if bytes.len() >= 8 && bytes[..8] != MAGIC[..] {
                NetError::Magic
            } else {
                NetError::Size {
                    found: bytes.len(),
                    expected: FILE_SIZE,
                }
            });
        }
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        // The bucket count: 0 in files of one bucket (as written), 1 read the same way.
        let shape = [
            u32_at(8),
            u32_at(12),
            u32_at(16),
            u32_at(20),
            u32_at(24),
            u32_at(28).max(1),
        ];
        if shape[1..4] != [HIDDEN as u32, QA as u32, QB as u32]
            || !SCALE_RANGE.contains(&shape[4])
            || !readable_shape(shape[0] as usize, shape[5] as usize)
        {
            return Err(NetError::Shape(shape));
        }
        let (inputs, buckets) = (shape[0] as usize, shape[5] as usize);
        let size = file_size(inputs, buckets);
        if bytes.len() != size {
            return Err(NetError::Size {
                found: bytes.len(),
                expected: size,
            });
        }
        let (data, sum) = bytes.split_at(size - 8);
        let mut sum8 = [0u8; 8];
        sum8.copy_from_slice(sum);
        if fnv1a(data) != u64::from_le_bytes(sum8) {
            return Err(NetError::Checksum);
        }
        let mut at = HEADER;
        let mut take = |n: usize| -> Box<[i16]> {
            let v: Vec<i16> = data[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v.into_boxed_slice()
        };
        let ft_w = take(inputs * HIDDEN);
        let ft_b = take(HIDDEN);
        let out_w = take(buckets * 2 * HIDDEN);
        let out_b: Box<[i32]> = data[at..at + 4 * buckets]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        // One bucket in a build of several: the same output layer in every bucket.
        let copies = OUTPUT_BUCKETS / buckets;
        let out_w: Box<[i16]> = out_w.repeat(copies).into();
        let out_b: Box<[i32]> = out_b.repeat(copies).into();
        // Fewer king buckets in the file than in the build: each of the build's buckets takes
        // the rows of the file's bucket that holds its squares (one bucket: every bucket).
        let kings = inputs / PIECE_SQUARES;
        let rows = PIECE_SQUARES * HIDDEN;
        let ft_w: Box<[i16]> = (0..KING_BUCKETS)
            .flat_map(|b| {
                let from = coarser_king_bucket(kings, b);
                ft_w[from * rows..(from + 1) * rows].iter().copied()
            })
            .collect();
        let net = Network {
            ft_w,
            ft_b,
            out_w,
            out_b,
            scale: shape[4] as i32,
        };
        net.check_ranges()?;
        Ok(net)
    }

    /// The limits the integer arithmetic relies on (see [`WEIGHT_CLIP`]).
    fn check_ranges(&self) -> Result<(), NetError> {
        let ft = (WEIGHT_CLIP * QA as f32).round() as i16;
        let out = (WEIGHT_CLIP * QB as f32).round() as i16;
        let ok = self
            .ft_w
            .iter()
            .chain(self.ft_b.iter())
            .all(|w| w.abs() <= ft)
            && self.out_w.iter().all(|w| w.abs() <= out);
        if ok { Ok(()) } else { Err(NetError::Range) }
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(FILE_SIZE);
        b.extend_from_slice(MAGIC);
        for v in [
            INPUTS as u32,
            HIDDEN as u32,
            QA as u32,
            QB as u32,
            self.scale as u32,
            header_buckets(),
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for w in self
            .ft_w
            .iter()
            .chain(self.ft_b.iter())
            .chain(self.out_w.iter())
        {
            b.extend_from_slice(&w.to_le_bytes());
        }
        for w in self.out_b.iter() {
            b.extend_from_slice(&w.to_le_bytes());
        }
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Reads a network file. Only a regular file is opened (a FIFO or a device such as
    /// `/dev/zero` would block or never end), and no more than a network's largest size is
    /// read from it.
    pub fn load(path: &std::path::Path) -> Result<Network, NetError> {
        use std::io::Read;
        let io = |e: std::io::Error| NetError::Io(e.to_string());
        let meta = std::fs::metadata(path).map_err(io)?;
        if !meta.is_file() {
            return Err(NetError::Io(format!("{} is not a file", path.display())));
        }
        if meta.len() > FILE_SIZE as u64 {
            return Err(NetError::Size {
                found: usize::try_from(meta.len()).unwrap_or(usize::MAX),
                expected: FILE_SIZE,
            });
        }
        let mut bytes = Vec::with_capacity(FILE_SIZE);
        std::fs::File::open(path)
            .map_err(io)?
            .take(FILE_SIZE as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        Network::from_bytes(&bytes)
    }

    /// The hidden-layer row of input `f`.
    #[inline(always)]
    fn row(&self, f: usize) -> &[i16; HIDDEN] {
        self.ft_w[f * HIDDEN..(f + 1) * HIDDEN]
            .try_into()
            .expect("rows are HIDDEN long")
    }

    /// Both perspectives' accumulators of `board`, from scratch.
    pub fn refresh(&self, board: &Board) -> Accumulator {
        let mut acc = Accumulator::default();
        for persp in Color::BOTH {
            self.refresh_side(board, persp, &mut acc.v[persp.index()]);
        }
        acc
    }

    /// The accumulator of `persp` for `board`, from scratch, into `v`.
    fn refresh_side(&self, board: &Board, persp: Color, v: &mut [i16; HIDDEN]) {
        let kb = king_bucket(persp, board.king(persp));
        v.copy_from_slice(&self.ft_b);
        for (piece, sq) in pieces(board) {
            let row = self.row(feature(persp, piece, sq, kb));
            for (a, w) in v.iter_mut().zip(row.iter()) {
                *a += *w;
            }
        }
    }

    /// The output weights of bucket `b` (`2 * HIDDEN`: side to move, then the other side).
    #[inline(always)]
    pub fn bucket_weights(&self, b: usize) -> &[i16] {
        &self.out_w[b * 2 * HIDDEN..(b + 1) * 2 * HIDDEN]
    }

    /// The output of `board` (whose accumulator is `acc`) for its side to move, in centipawns.
    #[inline]
    pub fn output(&self, acc: &Accumulator, board: &Board) -> i32 {
        let stm = board.side_to_move();
        let b = output_bucket(board.occupied().count() as usize);
        let (us, them) = (&acc.v[stm.index()], &acc.v[stm.flip().index()]);
        let sum = simd::forward(simd::level(), us, them, self.bucket_weights(b));
        // In i64: with every weight at the clip, `(sum / QA + out_b) * scale` passes i32.
        ((sum / QA as i64 + self.out_b[b] as i64) * self.scale as i64 / (QA * QB) as i64) as i32
    }

    /// Full evaluation of `board` from the side to move's point of view (no incremental
    /// state; for `eval` and tests).
    pub fn evaluate(&self, board: &Board) -> i32 {
        self.output(&self.refresh(board), board)
    }
}

/// The hidden layer before activation, for both perspectives (`v[Color::index()]`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub v: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            v: [[0; HIDDEN]; 2],
        }
    }
}

/// The file name of the network compiled into the binary, written once: both the name the
/// engine reports and the `include_bytes!` path come from it.
macro_rules! default_net_file {
    () => {
        "nn-d83a92adc464.nnue"
    };
}

/// The network compiled into the binary (see `nets/README.md` for its lineage).
pub const DEFAULT_NET_NAME: &str = default_net_file!();
static DEFAULT_NET_BYTES: &[u8] = include_bytes!(concat!("../../../nets/", default_net_file!()));
/// Whether a file of `len` bytes has a shape this build reads (the embedded one must).
const fn readable_size(len: usize) -> bool {
    let mut kings = 1;
    while kings <= KING_BUCKETS {
        let inputs = kings * PIECE_SQUARES;
        if readable_shape(inputs, OUTPUT_BUCKETS) && len == file_size(inputs, OUTPUT_BUCKETS)
            || readable_shape(inputs, 1) && len == file_size(inputs, 1)
        {
            return true;
        }
        kings *= 2;
    }
    false
}
const _: () = assert!(readable_size(DEFAULT_NET_BYTES.len()));

/// The embedded network, parsed once.
pub fn default_net() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    NET.get_or_init(|| {
        Arc::new(
            Network::from_bytes(DEFAULT_NET_BYTES)
                .expect("the embedded network is checked by its tests"),
        )
    })
    .clone()
}

/// What one ply's accumulator is: the parent's plus these changes, until computed.
#[derive(Clone, Copy)]
struct Entry {
    acc: Accumulator,
    /// Whether `acc.v[c]` is up to date, per perspective.
    computed: [bool; 2],
    /// Each perspective's king bucket at this ply (where it differs from the parent's, that
    /// perspective cannot be updated from the parent and is refreshed instead).
    kb: [u8; 2],
    n_add: u8,
    n_sub: u8,
    add: [(Piece, Square); 2],
    sub: [(Piece, Square); 2],
}

/// A searcher's accumulators along the current line, one per ply, updated lazily: a move only
/// records which pieces came and went; the accumulators are brought up to date when a node
/// is evaluated. A perspective whose king changes bucket is refreshed from scratch.
pub struct Stack {
    entries: Vec<Entry>,
}

impl Stack {
    pub fn new(plies: usize) -> Stack {
        let e = Entry {
            acc: Accumulator::default(),
            computed: [false; 2],
            kb: [0; 2],
            n_add: 0,
            n_sub: 0,
            add: [(Piece::NONE, Square::new(0)); 2],
            sub: [(Piece::NONE, Square::new(0)); 2],
        };
        Stack {
            entries: vec![e; plies],
        }
    }

    /// Sets ply 0 to `board`, computed from scratch.
    pub fn reset(&mut self, net: &Network, board: &Board) {
        let e = &mut self.entries[0];
        e.acc = net.refresh(board);
        e.computed = [true; 2];
        e.kb = king_buckets(board).map(|b| b as u8);
    }

    /// Records that the position at `ply` is `child`, reached from `parent` (the position at
    /// `ply - 1`) by a move or a null move. Any move works: the changes are read off the boards.
    #[inline]
    pub fn push(&mut self, ply: usize, parent: &Board, child: &Board) {
        let Some(e) = self.entries.get_mut(ply) else {
            return;
        };
        let mut changed = Bitboard::EMPTY;
        for c in 0..2 {
            changed |= parent.colors[c] ^ child.colors[c];
        }
        for pt in 0..6 {
            changed |= parent.pieces[pt] ^ child.pieces[pt];
        }
        e.computed = [false; 2];
        e.kb = king_buckets(child).map(|b| b as u8);
        e.n_add = 0;
        e.n_sub = 0;
        for sq in changed {
            let (before, after) = (parent.piece_on(sq), child.piece_on(sq));
            if before == after {
                continue;
            }
            if !before.is_none() {
                e.sub[e.n_sub as usize] = (before, sq);
                e.n_sub += 1;
            }
            if !after.is_none() {
                e.add[e.n_add as usize] = (after, sq);
                e.n_add += 1;
            }
        }
    }

    /// The evaluation of `board`, the position at `ply`, for its side to move.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, ply: usize, board: &Board) -> i32 {
        if ply >= self.entries.len() {
            return net.evaluate(board);
        }
        for persp in Color::BOTH {
            let c = persp.index();
            // The nearest ancestor computed for this perspective, with no king-bucket change
            // on the way (ply 0 is computed after `reset`); without one, this ply from scratch.
            let mut from = ply;
            while !self.entries[from].computed[c] {
                if from == 0 || self.entries[from].kb[c] != self.entries[from - 1].kb[c] {
                    let e = &mut self.entries[ply];
                    net.refresh_side(board, persp, &mut e.acc.v[c]);
                    e.computed[c] = true;
                    from = ply;
                    break;
                }
                from -= 1;
            }
            for p in from + 1..=ply {
                let (done, rest) = self.entries.split_at_mut(p);
                let parent = &done[p - 1].acc.v[c];
                let e = &mut rest[0];
                let kb = e.kb[c] as usize;
                let adds = rows(net, &e.add[..e.n_add as usize], persp, kb);
                let subs = rows(net, &e.sub[..e.n_sub as usize], persp, kb);
                simd::update(simd::level(), &mut e.acc.v[c], parent, &adds, &subs);
                e.computed[c] = true;
            }
        }
        net.output(&self.entries[ply].acc, board)
    }
}

/// At most two rows of the feature transformer (a move adds at most two pieces and removes at
/// most two), and how many are real.
pub type Rows<'a> = ([&'a [i16; HIDDEN]; 2], usize);

#[inline(always)]
fn rows<'a>(net: &'a Network, list: &[(Piece, Square)], persp: Color, kb: usize) -> Rows<'a> {
    let mut rows = [net.row(0); 2];
    for (r, &(piece, sq)) in rows.iter_mut().zip(list) {
        *r = net.row(feature(persp, piece, sq, kb));
    }
    (rows, list.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_mirror_between_perspectives() {
        let wp = Piece::new(Color::White, crate::chess::PieceType::Pawn);
        let bp = Piece::new(Color::Black, crate::chess::PieceType::Pawn);
        let e2 = Square::parse("e2").unwrap();
        let e7 = Square::parse("e7").unwrap();
        for kb in 0..KING_BUCKETS {
            assert_eq!(
                feature(Color::White, wp, e2, kb),
                feature(Color::Black, bp, e7, kb)
            );
            assert_eq!(
                feature(Color::White, bp, e7, kb),
                feature(Color::Black, wp, e2, kb)
            );
            assert_ne!(
                feature(Color::White, wp, e2, kb),
                feature(Color::White, bp, e2, kb)
            );
        }
        // Every (king bucket, piece, square) is its own input, and every input is one.
        let all: std::collections::HashSet<usize> = (0..KING_BUCKETS)
            .flat_map(|kb| (0..12u8).map(move |p| (kb, p)))
            .flat_map(|(kb, p)| (0..64u8).map(move |s| (kb, p, s)))
            .map(|(kb, p, s)| {
                let piece = Piece::new(
                    if p < 6 { Color::White } else { Color::Black },
                    crate::chess::PieceType::from_index((p % 6) as usize),
                );
                feature(Color::Black, piece, Square::new(s), kb)
            })
            .collect();
        assert_eq!(all.len(), INPUTS);
        assert!(all.iter().all(|&f| f < INPUTS));
        // The layout the trainer and every network file use: bucket, then own/enemy, piece
        // type and square (rank-mirrored for black).
        for kb in 0..KING_BUCKETS {
            for c in Color::BOTH {
                for pt in crate::chess::PieceType::ALL {
                    for s in 0..64u8 {
                        let piece = Piece::new(c, pt);
                        let sq = Square::new(s);
                        let at = |p: Color, rel: usize| {
                            kb * PIECE_SQUARES + (c != p) as usize * 384 + pt.index() * 64 + rel
                        };
                        assert_eq!(
                            feature(Color::White, piece, sq, kb),
                            at(Color::White, s as usize)
                        );
                        assert_eq!(
                            feature(Color::Black, piece, sq, kb),
                            at(Color::Black, s as usize ^ 56)
                        );
                    }
                }
            }
        }
    }

    /// The king buckets: the layout seen from each side (a king on g1 for white is in the
    /// bucket of a king on g8 for black), every bucket used, and the left-right mirror of an
    /// input is the input of the mirrored piece in the mirrored king's bucket.
    #[test]
    fn king_buckets_are_by_the_own_king_and_mirror_left_to_right() {
        let sq = |s: &str| Square::parse(s).unwrap();
        for (w, b) in [("g1", "g8"), ("c2", "c7"), ("e5", "e4"), ("a8", "a1")] {
            assert_eq!(
                king_bucket(Color::White, sq(w)),
                king_bucket(Color::Black, sq(b))
            );
        }
        let used: std::collections::HashSet<usize> = (0..64u8)
            .map(|s| king_bucket(Color::White, Square::new(s)))
            .collect();
        assert_eq!(used.len(), KING_BUCKETS);
        if KING_BUCKETS > 1 {
            // Castled short and castled long are told apart, and so are home and the field.
            assert_ne!(
                king_bucket(Color::White, sq("g1")),
                king_bucket(Color::White, sq("c1"))
            );
            assert_ne!(
                king_bucket(Color::White, sq("g1")),
                king_bucket(Color::White, sq("g5"))
            );
        }
        let piece = Piece::new(Color::Black, crate::chess::PieceType::Knight);
        for k in 0..64u8 {
            for s in 0..64u8 {
                for persp in Color::BOTH {
                    let (k, s) = (Square::new(k), Square::new(s));
                    let (mk, ms) = (
                        Square::new(k.index() as u8 ^ 7),
                        Square::new(s.index() as u8 ^ 7),
                    );
                    let f = feature(persp, piece, s, king_bucket(persp, k));
                    let m = feature(persp, piece, ms, king_bucket(persp, mk));
                    assert_eq!(mirror_feature(f), m);
                    assert_eq!(mirror_feature(m), f);
                }
            }
        }
    }

    /// A network of random weights within the clip (deterministic).
    pub(crate) fn random_net(seed: u64) -> Network {
        let mut rng = crate::tools::datagen::Rng::new(seed);
        let mut r = |k: i32| (rng.below(2 * k as usize + 1) as i32 - k) as i16;
        Network {
            ft_w: (0..INPUTS * HIDDEN).map(|_| r(60)).collect(),
            ft_b: (0..HIDDEN).map(|_| r(100)).collect(),
            out_w: (0..OUTPUT_BUCKETS * 2 * HIDDEN).map(|_| r(126)).collect(),
            out_b: (0..OUTPUT_BUCKETS as i32).map(|b| 1234 - 100 * b).collect(),
            scale: SCALE,
        }
    }

    /// Random playouts from positions with castling, en passant and promotions.
    pub(crate) fn playouts(seed: u64, games: usize, plies: usize) -> Vec<Vec<Board>> {
        let fens = [
            crate::chess::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ];
        let mut rng = crate::tools::datagen::Rng::new(seed);
        let mut out = Vec::new();
        for g in 0..games {
            let mut b = Board::from_fen(fens[g % fens.len()], false).unwrap();
            let mut line = vec![b];
            for _ in 0..plies {
                let moves = b.legal_moves();
                if moves.is_empty() {
                    break;
                }
                b = b.make_move(moves[rng.below(moves.len())]);
                line.push(b);
            }
            out.push(line);
        }
        out
    }

    #[test]
    fn file_round_trip_and_bad_files_are_refused() {
        let net = random_net(1);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_SIZE);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetError::Size { .. })
        ));
        assert!(matches!(
            Network::from_bytes(&[]),
            Err(NetError::Size { .. })
        ));
        let mut bad = bytes.clone();
        bad[1000] ^= 1;
        assert_eq!(Network::from_bytes(&bad), Err(NetError::Checksum));
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(Network::from_bytes(&bad), Err(NetError::Magic));
        let mut bad = bytes.clone();
        bad[12] = 0; // hidden size
        assert!(matches!(Network::from_bytes(&bad), Err(NetError::Shape(_))));
        // Another count of output buckets is another shape, and the message says so.
        let mut bad = bytes.clone();
        let other = OUTPUT_BUCKETS as u32 + 1;
        bad[28..32].copy_from_slice(&other.to_le_bytes());
        let err = Network::from_bytes(&bad).unwrap_err();
        assert!(
            matches!(err, NetError::Shape(s) if s[5] == other.max(1)),
            "{err:?}"
        );
        let msg = err.to_string();
        assert!(
            msg.contains(&format!("output buckets {}", other.max(1)))
                && msg.contains(&format!("output buckets {OUTPUT_BUCKETS} or 1)")),
            "{msg}"
        );
        // A one-bucket file whose header says 1 instead of 0 is read as one bucket.
        if OUTPUT_BUCKETS == 1 {
            let mut one = bytes.clone();
            one[28..32].copy_from_slice(&1u32.to_le_bytes());
            let sum = fnv1a(&one[..FILE_SIZE - 8]);
            one[FILE_SIZE - 8..].copy_from_slice(&sum.to_le_bytes());
            assert_eq!(Network::from_bytes(&one).unwrap(), net);
        }
        // A weight beyond the clip, with a valid checksum, is refused too.
        let mut wild = net.clone();
        wild.out_w[3] = 1000;
        assert_eq!(Network::from_bytes(&wild.to_bytes()), Err(NetError::Range));
        // The embedded network is a valid file.
        assert!(Network::from_bytes(DEFAULT_NET_BYTES).is_ok());
    }

    /// The bytes of a one-bucket file holding `net`'s feature transformer and its output
    /// bucket `b`, written by hand (header word 0 for one bucket), as a one-bucket build writes.
    fn one_bucket_file(net: &Network, b: usize) -> Vec<u8> {
        let mut f = Vec::with_capacity(file_size(INPUTS, 1));
        f.extend_from_slice(MAGIC);
        for v in [
            INPUTS,
            HIDDEN,
            QA as usize,
            QB as usize,
            net.scale as usize,
            0,
        ] {
            f.extend_from_slice(&(v as u32).to_le_bytes());
        }
        for w in net.ft_w.iter().chain(net.ft_b.iter()) {
            f.extend_from_slice(&w.to_le_bytes());
        }
        for w in net.bucket_weights(b) {
            f.extend_from_slice(&w.to_le_bytes());
        }
        f.extend_from_slice(&net.out_b[b].to_le_bytes());
        let sum = fnv1a(&f);
        f.extend_from_slice(&sum.to_le_bytes());
        f
    }

    /// Every build reads a one-bucket file, and a build of several buckets gives each of them
    /// that file's output layer: it evaluates every position exactly as the one-bucket network.
    /// A truncated one-bucket file is refused with the one-bucket size.
    #[test]
    fn a_one_bucket_file_is_read_into_every_bucket() {
        let net = random_net(11);
        let last = OUTPUT_BUCKETS - 1;
        let file = one_bucket_file(&net, last);
        assert_eq!(file.len(), file_size(INPUTS, 1));
        let wide = Network::from_bytes(&file).unwrap();
        assert_eq!(wide.ft_w, net.ft_w);
        assert_eq!(wide.ft_b, net.ft_b);
        assert_eq!(wide.out_w.len(), OUTPUT_BUCKETS * 2 * HIDDEN);
        assert_eq!(wide.out_b.len(), OUTPUT_BUCKETS);
        for b in 0..OUTPUT_BUCKETS {
            assert_eq!(
                wide.bucket_weights(b),
                net.bucket_weights(last),
                "bucket {b}"
            );
            assert_eq!(wide.out_b[b], net.out_b[last], "bucket {b}");
        }
        // Where a position falls in bucket `last`, its evaluation is the network's own.
        let boards: Vec<Board> = playouts(12, 8, 100).into_iter().flatten().collect();
        for board in &boards {
            let n = board.occupied().count() as usize;
            if output_bucket(n) == last {
                assert_eq!(
                    wide.evaluate(board),
                    net.evaluate(board),
                    "{}",
                    board.to_fen()
                );
            }
        }
        assert!(matches!(
            Network::from_bytes(&file[..file.len() - 2]),
            Err(NetError::Size { expected, .. }) if expected == file_size(INPUTS, 1)
        ));
        let mut bad = file.clone();
        bad[100] ^= 4;
        assert_eq!(Network::from_bytes(&bad), Err(NetError::Checksum));
    }

    #[test]
    fn output_buckets_cover_every_piece_count_in_order() {
        assert_eq!(output_bucket(2), 0);
        assert_eq!(output_bucket(32), OUTPUT_BUCKETS - 1);
        for n in 2..32 {
            let (a, b) = (output_bucket(n), output_bucket(n + 1));
            assert!(a <= b && b <= a + 1, "{n} pieces: {a}, then {b}");
        }
        // Every bucket is used, by at least three piece counts (8 buckets: 4 each, 3 for the
        // last).
        for b in 0..OUTPUT_BUCKETS {
            let n = (2..=32).filter(|&n| output_bucket(n) == b).count();
            assert!(n >= 31 / OUTPUT_BUCKETS, "bucket {b} has {n} piece counts");
        }
    }

    /// The evaluation reads the weights of its position's bucket: a network whose buckets
    /// differ only in their bias gives, for each position, the bias of its piece count.
    #[test]
    fn the_output_uses_the_bucket_of_the_position() {
        let mut net = random_net(7);
        net.out_w.iter_mut().for_each(|w| *w = 0);
        let boards: Vec<Board> = playouts(8, 6, 120).into_iter().flatten().collect();
        for board in &boards {
            let b = output_bucket(board.occupied().count() as usize);
            let cp = net.out_b[b] as i64 * SCALE as i64 / (QA * QB) as i64;
            assert_eq!(net.evaluate(board) as i64, cp);
        }
    }

    /// Every activation at QA and every output weight at the clip: the largest output the file
    /// checks allow, which passes i32 before the division by QA from HIDDEN = 256 on.
    #[test]
    fn the_output_is_exact_with_every_weight_at_the_clip() {
        let ft = (WEIGHT_CLIP * QA as f32).round() as i16;
        let out = (WEIGHT_CLIP * QB as f32).round() as i16;
        let board = Board::from_fen(crate::chess::STARTPOS, false).unwrap();
        for sign in [1i16, -1] {
            let net = Network {
                ft_w: vec![0; INPUTS * HIDDEN].into(),
                ft_b: vec![ft; HIDDEN].into(),
                out_w: vec![sign * out; OUTPUT_BUCKETS * 2 * HIDDEN].into(),
                out_b: vec![0; OUTPUT_BUCKETS].into(),
                scale: SCALE,
            };
            assert_eq!(net.check_ranges(), Ok(()));
            let acc = net.refresh(&board);
            let exact = 2 * HIDDEN as i64 * (QA as i64) * (QA as i64) * (sign * out) as i64;
            for level in simd::Level::available() {
                let sum = simd::forward(level, &acc.v[0], &acc.v[1], net.bucket_weights(0));
                assert_eq!(sum, exact, "{}", level.name());
            }
            let cp = exact / QA as i64 * SCALE as i64 / (QA * QB) as i64;
            assert_eq!(net.evaluate(&board) as i64, cp);
        }
    }

    #[test]
    fn the_file_carries_the_output_scale() {
        let net = random_net(4);
        let boards: Vec<Board> = playouts(5, 20, 30).into_iter().flatten().collect();
        let mut scaled = net.clone();
        scaled.scale = 3 * SCALE / 2;
        let back = Network::from_bytes(&scaled.to_bytes()).unwrap();
        assert_eq!(back.scale, 3 * SCALE / 2);
        let mut moved = 0;
        for b in &boards {
            let (a, c) = (net.evaluate(b) as f64, back.evaluate(b) as f64);
            // The same output times 1.5, up to the rounding of the final division.
            assert!((c - 1.5 * a).abs() <= 2.0, "{a} {c} {}", b.to_fen());
            moved += (a != c) as usize;
        }
        assert!(moved > boards.len() / 2, "{moved} of {}", boards.len());
        // Scales outside the range are refused as another shape.
        for bad in [0, SCALE_RANGE.start() - 1, SCALE_RANGE.end() + 1] {
            let mut b = net.to_bytes();
            b[24..28].copy_from_slice(&bad.to_le_bytes());
            let n = b.len();
            let sum = fnv1a(&b[..n - 8]);
            b[n - 8..].copy_from_slice(&sum.to_le_bytes());
            assert!(
                matches!(Network::from_bytes(&b), Err(NetError::Shape(_))),
                "{bad}"
            );
        }
    }

    /// A file of one king bucket (`PIECE_SQUARES` inputs, as every network before king buckets)
    /// is read into every king bucket: it evaluates every position as its own rows would.
    #[test]
    fn a_one_king_bucket_file_is_read_into_every_king_bucket() {
        let net = random_net(21);
        let rows = PIECE_SQUARES * HIDDEN;
        let mut f = net.to_bytes();
        f[8..12].copy_from_slice(&(PIECE_SQUARES as u32).to_le_bytes());
        f.drain(HEADER + 2 * rows..HEADER + 2 * INPUTS * HIDDEN);
        let n = f.len();
        assert_eq!(n, file_size(PIECE_SQUARES, OUTPUT_BUCKETS));
        let sum = fnv1a(&f[..n - 8]);
        f[n - 8..].copy_from_slice(&sum.to_le_bytes());
        let wide = Network::from_bytes(&f).unwrap();
        for kb in 0..KING_BUCKETS {
            assert_eq!(
                wide.ft_w[kb * rows..(kb + 1) * rows],
                net.ft_w[..rows],
                "{kb}"
            );
        }
        // A net of the first bucket's rows everywhere gives the same evaluations.
        let mut same = net.clone();
        same.ft_w = net.ft_w[..rows].repeat(KING_BUCKETS).into();
        for board in playouts(22, 6, 80).iter().flatten() {
            assert_eq!(
                wide.evaluate(board),
                same.evaluate(board),
                "{}",
                board.to_fen()
            );
        }
        // A file of another input count is another shape.
        let mut bad = f.clone();
        bad[8..12].copy_from_slice(&(PIECE_SQUARES as u32 * 2 + 8).to_le_bytes());
        let sum = fnv1a(&bad[..n - 8]);
        bad[n - 8..].copy_from_slice(&sum.to_le_bytes());
        assert!(matches!(Network::from_bytes(&bad), Err(NetError::Shape(_))));
    }

    /// The layouts nest: every bucket of a finer layout lies within one bucket of each coarser
    /// one, each layout uses all its buckets, and mirrors map buckets to buckets.
    #[test]
    fn king_bucket_layouts_nest() {
        for (fine, coarse) in [(2, 1), (4, 1), (4, 2), (8, 1), (8, 2), (8, 4)] {
            let mut within = std::collections::HashMap::new();
            for sq in 0..64 {
                let f = king_bucket_layout(fine, sq);
                let c = king_bucket_layout(coarse, sq);
                assert_eq!(*within.entry(f).or_insert(c), c, "{fine} in {coarse}: {sq}");
            }
            assert_eq!(within.len(), fine);
        }
        for n in [1, 2, 4, 8] {
            let mut mirror = std::collections::HashMap::new();
            for sq in 0..64 {
                let m = king_bucket_layout(n, sq ^ 7);
                assert_eq!(*mirror.entry(king_bucket_layout(n, sq)).or_insert(m), m);
            }
        }
        // Four buckets put a king on e1 with one castled short on g1; eight tell them apart,
        // and split a-b from c-d.
        let sq = |s: &str| Square::parse(s).unwrap().index();
        for (n, a, b, same) in [
            (4, "g1", "e1", true),
            (8, "g1", "h2", true),
            (8, "g1", "e1", false),
            (8, "c1", "e1", false),
            (8, "b1", "c1", false),
        ] {
            let (ka, kb) = (king_bucket_layout(n, sq(a)), king_bucket_layout(n, sq(b)));
            assert_eq!(ka == kb, same, "{n} buckets: {a} {b}");
        }
    }

    /// A file of fewer king buckets (a coarser layout) is read so that each position's
    /// accumulators are the file's own: the rows of the file's bucket of each king, by the
    /// file's layout, summed directly here.
    #[test]
    fn a_file_of_fewer_king_buckets_keeps_its_evaluations() {
        let net = random_net(23);
        let rows = PIECE_SQUARES * HIDDEN;
        for n in [1, 2, 4, 8].into_iter().filter(|&n| n < KING_BUCKETS) {
            // The file: the first n buckets' rows of a random net.
            let mut f = net.to_bytes();
            f[8..12].copy_from_slice(&((n * PIECE_SQUARES) as u32).to_le_bytes());
            f.drain(HEADER + 2 * n * rows..HEADER + 2 * INPUTS * HIDDEN);
            let len = f.len();
            assert_eq!(len, file_size(n * PIECE_SQUARES, OUTPUT_BUCKETS));
            let sum = fnv1a(&f[..len - 8]);
            f[len - 8..].copy_from_slice(&sum.to_le_bytes());
            let read = Network::from_bytes(&f).unwrap();
            for board in playouts(24 + n as u64, 8, 80).iter().flatten() {
                let acc = read.refresh(board);
                for (p, persp) in Color::BOTH.into_iter().enumerate() {
                    let k = board.king(persp).index() ^ if p == 0 { 0 } else { 56 };
                    let fb = king_bucket_layout(n, k);
                    let mut want: Vec<i32> = net.ft_b.iter().map(|&b| b as i32).collect();
                    for (piece, sq) in pieces(board) {
                        let f = feature(persp, piece, sq, 0) + fb * PIECE_SQUARES;
                        for (w, &x) in want.iter_mut().zip(&net.ft_w[f * HIDDEN..]) {
                            *w += x as i32;
                        }
                    }
                    let got: Vec<i32> = acc.v[p].iter().map(|&x| x as i32).collect();
                    assert_eq!(got, want, "{n} buckets, {}", board.to_fen());
                }
            }
        }
        // More king buckets than the build has, or a count without a layout, is another shape.
        for n in [3, 2 * KING_BUCKETS] {
            assert!(!readable_shape(n * PIECE_SQUARES, OUTPUT_BUCKETS), "{n}");
        }
    }

    #[test]
    fn incremental_updates_match_a_full_refresh() {
        let net = random_net(2);
        let mut stack = Stack::new(80);
        let mut bucket_changes = 0;
        for line in playouts(3, 40, 70) {
            stack.reset(&net, &line[0]);
            // Evaluate only some plies, so that updates chain over several moves; now and
            // then a null move first (the same pieces, the other side to move), replaced by
            // the real move at the same ply as a search does.
            for (ply, pair) in line.windows(2).enumerate() {
                let (parent, child) = (&pair[0], &pair[1]);
                if ply % 11 == 5 && !parent.in_check() {
                    let null = parent.make_null();
                    stack.push(ply + 1, parent, &null);
                    assert_eq!(stack.evaluate(&net, ply + 1, &null), net.evaluate(&null));
                }
                stack.push(ply + 1, parent, child);
                bucket_changes += (0..2)
                    .filter(|&c| stack.entries[ply + 1].kb[c] != stack.entries[ply].kb[c])
                    .count();
                if ply % 3 != 1 {
                    assert_eq!(
                        stack.evaluate(&net, ply + 1, child),
                        net.evaluate(child),
                        "{}",
                        child.to_fen()
                    );
                    assert_eq!(stack.entries[ply + 1].acc, net.refresh(child));
                }
            }
        }
        // The lines move kings across buckets often enough to test the refreshes.
        if KING_BUCKETS > 1 {
            assert!(bucket_changes > 100, "{bucket_changes}");
        }
    }

    #[test]
    fn every_simd_level_gives_identical_results() {
        let net = random_net(4);
        let levels = simd::Level::available();
        eprintln!("levels: {levels:?}");
        let mut checked = 0;
        for line in playouts(5, 60, 60) {
            for pair in line.windows(2) {
                let (parent, child) = (net.refresh(&pair[0]), net.refresh(&pair[1]));
                let mut stack = Stack::new(2);
                stack.entries[0].acc = parent;
                stack.entries[0].computed = [true; 2];
                stack.entries[0].kb = king_buckets(&pair[0]).map(|b| b as u8);
                stack.push(1, &pair[0], &pair[1]);
                let e = stack.entries[1];
                for (p, persp) in Color::BOTH.into_iter().enumerate() {
                    // A king that changed bucket is refreshed, not updated.
                    if e.kb[p] != stack.entries[0].kb[p] {
                        continue;
                    }
                    let kb = e.kb[p] as usize;
                    let adds = rows(&net, &e.add[..e.n_add as usize], persp, kb);
                    let subs = rows(&net, &e.sub[..e.n_sub as usize], persp, kb);
                    let forward: Vec<i64> = levels
                        .iter()
                        .map(|&l| {
                            simd::forward(l, &child.v[p], &child.v[1 - p], net.bucket_weights(0))
                        })
                        .collect();
                    let updated: Vec<[i16; HIDDEN]> = levels
                        .iter()
                        .map(|&l| {
                            let mut d = [0i16; HIDDEN];
                            simd::update(l, &mut d, &parent.v[p], &adds, &subs);
                            d
                        })
                        .collect();
                    assert!(forward.iter().all(|&f| f == forward[0]), "{forward:?}");
                    assert!(updated.iter().all(|u| *u == child.v[p]));
                    checked += 1;
                }
            }
        }
        assert!(checked > 5000, "{checked}");
        // Every count of rows the kernels take (moves give 1-1, 1-2, 2-2 and, for a null
        // move, 0-0), the other combinations too, against the scalar path (`levels[0]`, which
        // the playouts above checked against full refreshes).
        let acc = net.refresh(&Board::from_fen(crate::chess::STARTPOS, false).unwrap());
        let r = |f: usize| net.row(f);
        for a in 0..=2 {
            for s in 0..=2 {
                let adds = ([r(3), r(700)], a);
                let subs = ([r(64), r(1500)], s);
                let updated: Vec<[i16; HIDDEN]> = levels
                    .iter()
                    .map(|&l| {
                        let mut d = [0i16; HIDDEN];
                        simd::update(l, &mut d, &acc.v[0], &adds, &subs);
                        d
                    })
                    .collect();
                assert!(
                    updated.iter().all(|u| *u == updated[0]),
                    "{a} adds, {s} subs"
                );
            }
        }
    }
}
